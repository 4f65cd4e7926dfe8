package org.hostir.studio.ir.parse;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits a log (a test run's output, an {@code mpirun} or {@code torchrun} log) into the Host IR containers it
 * holds, each labelled by what the log says before it. Lines tagged by a launcher ({@code [1,3]<stdout>:} from
 * Open MPI's {@code --tag-output}, {@code [rank3]:} from torchrun) are first sorted into one stream per rank, so
 * ranks printing at the same time do not cut each other's containers; the tag is the rank. Untagged output is
 * one stream. Labels come from the other output since the previous container of the same stream: nvFuser's
 * {@code Fusion after pass: NAME} (host_ir_lowering_logging), a gtest {@code [ RUN      ] Test.Name}, a
 * "rank N" mention.
 */
public final class DumpLog {
    private static final Pattern TAG = Pattern.compile("^(?:\\[\\d+,(\\d+)\\]<std(?:out|err)>:|\\[rank(\\d+)\\]:)");
    private static final Pattern PASS = Pattern.compile("Fusion after pass:\\s*(\\S+)");
    private static final Pattern TEST = Pattern.compile("\\[ RUN\\s*\\]\\s*(\\S+)");
    private static final Pattern WORDS = Pattern.compile("[\\p{L}\\p{N}]");
    private static final Pattern RANK = Pattern.compile("(?i)\\brank\\s*[=:]?\\s*(\\d+)");

    private DumpLog() {}

    /** One stream of lines: its text and, per line, the log's line number. */
    private record Channel(int rank, StringBuilder text, List<Integer> lines) {}

    public static List<LogProgram> split(String log) {
        List<LogProgram> found = new ArrayList<>();
        for (Channel c : channels(log)) found.addAll(programs(c));
        found.sort(Comparator.comparingInt(LogProgram::firstLine));
        List<LogProgram> numbered = new ArrayList<>();
        for (LogProgram p : found) {
            numbered.add(new LogProgram(numbered.size() + 1, p.rank(), p.pass(), p.test(), p.context(),
                    p.firstLine(), p.lastLine(), p.dump(), p.error(), p.errorLine(), p.rule()));
        }
        return numbered;
    }

    private static List<Channel> channels(String log) {
        Map<Integer, Channel> byRank = new LinkedHashMap<>();
        String[] lines = log.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher m = TAG.matcher(lines[i]);
            int rank = -1;
            String content = lines[i];
            if (m.find()) {
                rank = Integer.parseInt(m.group(1) != null ? m.group(1) : m.group(2));
                content = lines[i].substring(m.end());
            }
            Channel c = byRank.computeIfAbsent(rank, r -> new Channel(r, new StringBuilder(), new ArrayList<>()));
            c.text().append(content).append('\n');
            c.lines().add(i + 1);
        }
        return List.copyOf(byRank.values());
    }

    private static List<LogProgram> programs(Channel c) {
        String text = c.text().toString();
        LineIndex lines = LineIndex.of(text);
        List<LogProgram> out = new ArrayList<>();
        int from = 0;
        while (true) {
            int start = HostIrDumpReader.nextOpen(text, from);
            if (start < 0) return out;
            String before = text.substring(from, start);
            int firstLine = c.lines().get(lines.lineOf(start) - 1);
            try {
                ParsedDump dump = relocate(HostIrDumpReader.read(text, start, lines), c);
                out.add(labelled(c, before, firstLine, dump.lastLine(), dump, null, 0, null));
                from = HostIrDumpReader.containerEnd(text, start);
            } catch (DumpFormatException e) {
                int errorLine = Math.min(lines.lineOf(e.offset()), c.lines().size());
                out.add(labelled(c, before, firstLine, firstLine, null, e.getMessage(), c.lines().get(errorLine - 1),
                        e.rule()));
                from = start + HostIrDumpReader.OPEN.length();
            }
        }
    }

    private static LogProgram labelled(Channel c, String before, int first, int last, ParsedDump dump, String error,
                                       int errorLine, String rule) {
        String pass = lastGroup(PASS, before);
        String test = lastGroup(TEST, before);
        int rank = c.rank();
        String mentioned = lastGroup(RANK, before);
        if (rank < 0 && mentioned != null && mentioned.length() < 7) rank = Integer.parseInt(mentioned);
        // a line with words: the fence or rule around a program copied from a Markdown page (```, ---) named the
        // programs of a pasted GitHub issue alike, "#3 ```" and "#4 ```" (issue 35)
        String context = before.lines().map(String::strip).filter(l -> WORDS.matcher(l).find()).reduce((a, b) -> b)
                // shortened from its start: the words nearest the container say most about it
                .map(l -> l.length() > 80 ? "..." + l.substring(l.length() - 77) : l).orElse(null);
        return new LogProgram(0, rank, pass, test, context, first, last, dump, error, errorLine, rule);
    }

    /**
     * One line saying what else the log holds, outside its containers: nvFuser's other dumps, named by the
     * NVFUSER_DUMP option that prints them (Fusion::print, {@code Inputs:} .. {@code } // %kernel}, and printMath,
     * {@code %kernel_math {} .. {@code } // %kernel_math}, csrc/fusion.cpp:522-540, 659-663 at 81c4b22fd;
     * SegmentedFusion's {@code Segmented_Fusion Dump:} .. {@code } //Segmented_Fusion},
     * csrc/fusion_segmenter.cpp:1394-1416), Python warnings, a test runner's lines, other output; blank lines are not
     * counted. A line belongs to a program when it lies in the program's lines and in its stream (its rank's tag).
     */
    public static String skipped(String log, List<LogProgram> programs) {
        String[] lines = log.split("\n", -1);
        Map<String, Integer> kinds = new LinkedHashMap<>();
        // per stream (tag): ranks printing at once interleave their dumps' lines
        Map<String, String> blocks = new HashMap<>();
        int total = 0;
        for (int i = 0; i < lines.length; i++) {
            Matcher m = TAG.matcher(lines[i]);
            String tag = m.find() ? m.group() : "";
            if (covered(programs, lines, i + 1, tag)) continue;
            String content = lines[i].substring(tag.length()).strip();
            if (content.isEmpty()) continue;
            String block = blocks.computeIfAbsent(tag, t -> OtherDump.opening(content));
            String kind = block != null ? block : OtherDump.kindOf(content);
            if (block != null && OtherDump.closes(block, content)) blocks.remove(tag);
            kinds.merge(kind, 1, Integer::sum);
            total++;
        }
        if (total == 0) return "nothing else in the log";
        StringBuilder s = new StringBuilder("skipped " + total + (total == 1 ? " line" : " lines") + " of other output:");
        kinds.forEach((k, n) -> s.append(s.charAt(s.length() - 1) == ':' ? " " : ", ").append(k).append(' ').append(n));
        return s.toString();
    }

    private static boolean covered(List<LogProgram> programs, String[] lines, int line, String tag) {
        for (LogProgram p : programs) {
            if (line < p.firstLine() || line > p.lastLine()) continue;
            Matcher first = TAG.matcher(lines[p.firstLine() - 1]);
            if ((first.find() ? first.group() : "").equals(tag)) return true;
        }
        return false;
    }

    private static String lastGroup(Pattern p, String text) {
        String last = null;
        for (Matcher m = p.matcher(text); m.find(); ) last = m.group(1);
        return last;
    }

    /** The dump's lines (and its warnings' lines) as the log's, not the channel's. */
    private static ParsedDump relocate(ParsedDump d, Channel c) {
        List<DumpWarning> warnings = d.warnings().stream()
                .map(w -> new DumpWarning(c.lines().get(w.line() - 1), w.message())).toList();
        return new ParsedDump(d.program(), d.generation(), warnings, c.lines().get(d.firstLine() - 1),
                c.lines().get(d.lastLine() - 1), d.layoutKept(), d.indices(), d.signatureText());
    }
}
