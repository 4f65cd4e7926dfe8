package org.hostir.studio.tests.print;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.tests.RepoPaths;

/**
 * The Host IR dumps printed in the seeds ({@code ../shared/seeds}), and the normalisation the golden tests
 * compare under.
 *
 * <p>Normalisation, and why: (1) all whitespace is removed, because seed 001's dumps reached us with their line
 * breaks and indentation collapsed and seed 000 has a stray line break inside an ALLOCATE; (2) ids are renumbered
 * in order of first appearance, separately for tensors ({@code T3}), iter domains ({@code iS5}, {@code rS8},
 * {@code ideviceIdx.x4}, {@code iStreamIdx2}), symbols ({@code i2}), communication-like node ids
 * ({@code Communication 39}, {@code P2PCommunication 30}, {@code EndCoalescing 32}, {@code Wait Communication 32}
 * share one numbering) and HostUnits, because nvFuser's numbers count every statement it ever created and are
 * arbitrary. Renumbering keeps identity: two axes with one symbol in the seed must share one in the program, and
 * two with different symbols must differ (seed 000's {@code T1[iS3{i4}, ..]} has its own K, not T0's {@code i3}).
 * Everything else (names, order, types, meshes, teams, sizes, keywords, punctuation) must match.
 */
public final class SeedDumps {
    private static final String OPEN = "%HostIrContainer {";
    private static final String CLOSE = "} // %HostIrContainer";

    private static final Pattern TENSOR = Pattern.compile("(?<![A-Za-z0-9_])T(\\d+)_");
    private static final Pattern ITER_DOMAIN =
            Pattern.compile("(?<![A-Za-z0-9_])([irb])(S|deviceIdx\\.x|deviceIdx\\.y|StreamIdx|streamIdx|Stream)(\\d+)\\{");
    private static final Pattern SYMBOL = Pattern.compile("(?<![A-Za-z0-9_.])i(\\d+)(?![0-9])");
    private static final Pattern COMMUNICATION = Pattern.compile("(Communication|EndCoalescing)(\\s*)(\\d+)");
    private static final Pattern HOST_UNIT = Pattern.compile("HostUnit(\\d+)");

    private SeedDumps() {}

    public static String seedText(String prefix) {
        try (var files = Files.list(RepoPaths.shared().resolve("seeds"))) {
            Path seed = files.filter(p -> p.getFileName().toString().startsWith(prefix + "_")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no seed " + prefix + " in shared/seeds"));
            return Files.readString(seed);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every dump in a seed, in order of appearance (PR bodies are often repeated in commit messages). */
    public static List<String> dumps(String seedPrefix) {
        String text = seedText(seedPrefix);
        List<String> out = new ArrayList<>();
        int from = 0;
        while (true) {
            int start = text.indexOf(OPEN, from);
            if (start < 0) return out;
            int end = text.indexOf(CLOSE, start);
            if (end < 0) return out;
            out.add(text.substring(start, end + CLOSE.length()));
            from = end + CLOSE.length();
        }
    }

    /** The first dump that follows {@code marker} (seed 001 names each test before its dump). */
    public static String dumpAfter(String seedPrefix, String marker) {
        String text = seedText(seedPrefix);
        int at = text.indexOf(marker);
        if (at < 0) throw new IllegalStateException("marker '" + marker + "' not in seed " + seedPrefix);
        int start = text.indexOf(OPEN, at);
        int end = text.indexOf(CLOSE, start);
        return text.substring(start, end + CLOSE.length());
    }

    /** The first dump containing {@code needle}. */
    public static String dumpContaining(String seedPrefix, String needle) {
        return dumps(seedPrefix).stream().filter(d -> d.contains(needle)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no dump with '" + needle + "' in " + seedPrefix));
    }

    /** Whitespace removed and ids renumbered: what every golden test compares. */
    public static String normalize(String dump) {
        return normalizeIds(dump).replaceAll("\\s+", ""); // ids first: glued tokens would hide them
    }

    /**
     * Only whitespace and communication-like node ids normalised: tensors, iter domains and symbols must carry
     * nvFuser's own numbers. Communication ids count every statement nvFuser ever created, which the project does
     * not reproduce.
     */
    public static String normalizeCommunicationIds(String dump) {
        return renumberGroup(dump, COMMUNICATION).replaceAll("\\s+", "");
    }

    /**
     * Ids renumbered, layout kept (trailing blanks and the seed's common indentation dropped): for the seeds whose
     * dumps kept their line breaks, so the printer's indentation and line breaks are checked too.
     */
    public static String normalizeKeepingLayout(String dump) {
        List<String> lines = dump.lines().map(String::stripTrailing).filter(l -> !l.isEmpty()).toList();
        int common = lines.stream().skip(1).mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        int first = common; // the closing line sits at the page's indentation, the body two deeper
        StringBuilder out = new StringBuilder(lines.get(0).strip()).append('\n');
        for (String l : lines.subList(1, lines.size())) {
            out.append(l.length() >= first && l.substring(0, first).isBlank() ? l.substring(first) : l.strip())
                    .append('\n');
        }
        return normalizeIds(out.toString());
    }

    private static String normalizeIds(String text) {
        String s = text;
        s = renumber(s, TENSOR, 1, m -> "T" + m + "_");
        s = renumberIterDomains(s);
        s = renumber(s, SYMBOL, 1, m -> "i" + m);
        s = renumberGroup(s, COMMUNICATION);
        s = renumber(s, HOST_UNIT, 1, m -> "HostUnit" + m);
        return s;
    }

    private static String renumber(String s, Pattern p, int group, java.util.function.IntFunction<String> fmt) {
        Map<String, Integer> seen = new HashMap<>();
        Matcher m = p.matcher(s);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            int n = seen.computeIfAbsent(m.group(group), k -> seen.size());
            m.appendReplacement(out, Matcher.quoteReplacement(fmt.apply(n)));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String renumberIterDomains(String s) {
        Map<String, Integer> seen = new HashMap<>();
        Matcher m = ITER_DOMAIN.matcher(s);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            int n = seen.computeIfAbsent(m.group(3), k -> seen.size());
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + m.group(2) + n + "{"));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String renumberGroup(String s, Pattern p) {
        Map<String, Integer> seen = new HashMap<>();
        Matcher m = p.matcher(s);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            int n = seen.computeIfAbsent(m.group(3), k -> seen.size());
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + m.group(2) + n));
        }
        m.appendTail(out);
        return out.toString();
    }
}
