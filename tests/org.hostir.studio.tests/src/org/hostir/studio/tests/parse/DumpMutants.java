package org.hostir.studio.tests.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;
import java.util.function.IntUnaryOperator;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Dumps the corpus does not hold, made from the ones it does by varying, in the text, what real nvFuser output
 * varies from run to run and program to program: numbering, extents, meshes, stream addresses, dtypes, nesting, and
 * node kinds. Each variation is written in nvFuser 81c4b22fd's spelling (the toString cited at it), never through
 * the Studio's printer, so that a reader that only agrees with our printer is caught.
 */
final class DumpMutants {
    /**
     * What reading a mutant must give, besides its text back modulo whitespace: no warning; one statement (of a
     * kind the Studio does not model) kept as text with a warning, or read; or (a spelling inside every tensor that
     * the Studio cannot represent) whatever holds it kept as text, each with a warning.
     */
    enum Expect { ROUND_TRIP, KEPT_AS_TEXT, LENIENT }

    /** One variation of one corpus dump; {@code kept} is the statement's first line when expected as text. */
    record Mutant(String source, String kind, String text, Expect expect, String kept) {
        @Override public String toString() { return source + " [" + kind + "]"; }
    }

    private DumpMutants() {}

    private static final Pattern TENSOR = Pattern.compile("\\bT(\\d+)_");
    private static final Pattern AXIS = Pattern.compile("\\b([irb])(S|deviceIdx\\.[xy]|streamIdx)(\\d+)\\{");
    private static final Pattern SYMBOL = Pattern.compile("\\bi(\\d+)\\b");
    private static final Pattern NODE_ID =
            Pattern.compile("\\b(Communication|P2PCommunication|CollectivePermute|Dispatch|Combine|EndCoalescing) (\\d+)");
    private static final Pattern ADDRESS = Pattern.compile("\\b0x[0-9a-f]{4,16}\\b");
    private static final Pattern MESH = Pattern.compile("DeviceMesh\\{([0-9 ]+)\\}");
    private static final Pattern TEAM = Pattern.compile("team=\\(([0-9 ]+)\\)");
    private static final Pattern CONSTANT_EXTENT = Pattern.compile("\\{(\\d+)\\}");
    private static final Pattern SPLIT_FACTOR = Pattern.compile("ceilDiv\\((i\\d+), (\\d+)\\)");
    private static final Pattern RANGE_LOOP = Pattern.compile("(?m)^( *)FOR (i\\d+) from (\\S+) to (\\S+):$");
    private static final Pattern LOOP_STATEMENT =
            Pattern.compile("(?m)^( {4,})(Synchronize\\(|SetCurrentStream\\(|Wait\\(|T\\d+_\\S+ = ShardByStream).*$");
    private static final Pattern FIRST_TENSOR =
            Pattern.compile("T\\d+_[a-z]+_[^\\[\\s]+\\[[^\\]]*\\]( \\(DeviceMesh\\{[^}]*\\}\\))?");

    /** A variation that keeps a program readable and printable back: its name, and the dump it makes (if any). */
    record Variation(String kind, Function<String, Optional<String>> apply) {}

    /** Every variation expected to read back whole, with no warning. */
    static List<Variation> roundTripping() {
        List<Variation> v = new ArrayList<>(List.of(
                new Variation("renumbered, shifted", d -> Optional.of(renumber(d, DumpMutants::shifted))),
                new Variation("renumbered, spread", d -> Optional.of(renumber(d, n -> 1000 + 7 * n))),
                new Variation("renumbered, reversed", d -> Optional.of(renumber(d, n -> 99999 - n))),
                new Variation("stream address", d -> replaced(d, ADDRESS, m -> "0x7f3a2c0012f0")),
                new Variation("other constant extents", d -> Optional.of(constants(d))),
                new Variation("symbolic extents", DumpMutants::symbolic),
                new Variation("1-D mesh of 4", d -> meshes(d, "DeviceMesh{0 1 2 3}", "0 1 2 3")),
                new Variation("2-D mesh 2x2", d -> meshes(d, "DeviceMesh{{0 1}{2 3}}", "0 1 2 3")),
                new Variation("2-D mesh 2x4", d -> meshes(d, "DeviceMesh{{0 1 2 3}{4 5 6 7}}", "0 1 2 3 4 5 6 7")),
                new Variation("other dtypes", DumpMutants::dtypes),
                new Variation("nested FOR", DumpMutants::nestedLoop),
                new Variation("IF around a loop statement", d -> ifAround(d, false)),
                new Variation("IF/ELSE around a loop statement", d -> ifAround(d, true)),
                new Variation("index definitions", DumpMutants::indexDefinitions),
                new Variation("CRLF line ends", d -> Optional.of(d.replace("\r\n", "\n").replace("\n", "\r\n")))));
        for (String[] known : DumpStatements.known("T0_g_float[iS0{4}] (DeviceMesh{0 1})")) {
            v.add(new Variation("with " + known[0], d -> DumpStatements.known(firstTensor(d)).stream()
                    .filter(k -> k[0].equals(known[0])).findFirst().flatMap(k -> inserted(d, k[1]))));
        }
        return v;
    }

    /** Every mutant of one dump, named by its source. */
    static List<Mutant> of(String source, String dump) {
        List<Mutant> out = new ArrayList<>();
        for (Variation v : roundTripping()) add(out, source, v.kind(), v.apply().apply(dump));
        // DataType's operator<< (csrc/type.cpp:239-281) and stringifyThread (csrc/type.cpp:766) at 81c4b22fd
        lenient(out, source, "fp4 dtype __e2m1", dump, dump.replaceAll("_(?:_bfloat|float)\\[", "___e2m1["));
        lenient(out, source, "DIDz axes", dump, dump.replace("ideviceIdx.x", "ideviceIdx.z"));
        for (String[] unknown : DumpStatements.unknown(firstTensor(dump))) {
            inserted(dump, unknown[1]).ifPresent(t -> out.add(new Mutant(source, "with unknown " + unknown[0], t,
                    Expect.KEPT_AS_TEXT, unknown[1].lines().findFirst().orElseThrow().strip())));
        }
        return out;
    }

    /**
     * {@code rounds} dumps made by applying two to four variations in a row to a dump of {@code dumps}, chosen by
     * {@code seed}: the combinations no single variation makes (a renumbered nested loop on a 2-D mesh, ..).
     */
    static List<Mutant> composed(Map<String, String> dumps, int rounds, long seed) {
        Random r = new Random(seed);
        List<String> sources = List.copyOf(dumps.keySet());
        List<Variation> all = roundTripping();
        List<Mutant> out = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            String source = sources.get(r.nextInt(sources.size()));
            String text = dumps.get(source);
            List<String> kinds = new ArrayList<>();
            for (int k = 2 + r.nextInt(3); k > 0; k--) {
                Variation v = all.get(r.nextInt(all.size()));
                Optional<String> next = v.apply().apply(text);
                if (next.isPresent()) {
                    text = next.get();
                    kinds.add(v.kind());
                }
            }
            if (kinds.size() >= 2) out.add(new Mutant(source, String.join(" + ", kinds), text, Expect.ROUND_TRIP, null));
        }
        return out;
    }

    private static void lenient(List<Mutant> out, String source, String kind, String dump, String text) {
        if (!text.equals(dump)) out.add(new Mutant(source, kind, text, Expect.LENIENT, null));
    }

    private static void add(List<Mutant> out, String source, String kind, Optional<String> text) {
        text.ifPresent(t -> out.add(new Mutant(source, kind, t, Expect.ROUND_TRIP, null)));
    }

    /**
     * The renumbering another run of nvFuser gives: every number moved by the same amount, so that a split's two
     * parts stay numbered one after the other (IterDomain::split creates the outer then the inner part) and an op's
     * axes in order, which is what the reader reads a loop domain's splits from.
     */
    static int shifted(int n) { return n + 1000; }

    /** Tensors, axes, symbols, loop indices and node ids renumbered, each kind by {@code f} (one to one). */
    static String renumber(String dump, IntUnaryOperator f) {
        String s = replace(dump, TENSOR, m -> "T" + f.applyAsInt(Integer.parseInt(m.group(1))) + "_");
        s = replace(s, AXIS, m -> m.group(1) + m.group(2) + f.applyAsInt(Integer.parseInt(m.group(3))) + "{");
        s = replace(s, SYMBOL, m -> "i" + f.applyAsInt(Integer.parseInt(m.group(1))));
        return replace(s, NODE_ID, m -> m.group(1) + " " + f.applyAsInt(Integer.parseInt(m.group(2))));
    }

    /** Every constant extent, split factor and trip count N made another one, the same for the same N. */
    private static String constants(String dump) {
        IntUnaryOperator f = n -> n == 1 ? 1 : n * 2 + 1;
        String s = replace(dump, CONSTANT_EXTENT, m -> "{" + f.applyAsInt(Integer.parseInt(m.group(1))) + "}");
        s = replace(s, SPLIT_FACTOR, m -> "ceilDiv(" + m.group(1) + ", " + f.applyAsInt(Integer.parseInt(m.group(2))) + ")");
        return replace(s, RANGE_LOOP, m -> m.group(1) + "FOR " + m.group(2) + " from " + m.group(3) + " to "
                + (m.group(4).matches("\\d+") ? String.valueOf(f.applyAsInt(Integer.parseInt(m.group(4)))) : m.group(4))
                + ":");
    }

    /** Constant extents of serial axes made symbols ({@code iS3{i9003}}), as a dynamic-shape dump prints them. */
    private static Optional<String> symbolic(String dump) {
        Pattern serial = Pattern.compile("\\b([ir])S(\\d+)\\{(\\d+)\\}");
        String s = replace(dump, serial,
                m -> m.group(1) + "S" + m.group(2) + "{i" + (9000 + Integer.parseInt(m.group(3))) + "}");
        return s.equals(dump) ? Optional.empty() : Optional.of(s);
    }

    private static Optional<String> meshes(String dump, String mesh, String team) {
        if (!MESH.matcher(dump).find()) return Optional.empty();
        String s = replace(dump, MESH, m -> mesh);
        return Optional.of(replace(s, TEAM, m -> "team=(" + team + ")"));
    }

    /** Dtypes swapped among those nvFuser prints (DataType's operator<<, csrc/type.cpp). */
    private static Optional<String> dtypes(String dump) {
        String s = dump.replace("___bfloat[", "___half[").replace("_float[", "_double[");
        return s.equals(dump) ? Optional.empty() : Optional.of(s);
    }

    /** The first range loop wrapped in another (hir::ForLoop::toString, csrc/host_ir/ir.cpp:487). */
    private static Optional<String> nestedLoop(String dump) {
        Matcher m = RANGE_LOOP.matcher(dump);
        if (!m.find()) return Optional.empty();
        String indent = m.group(1);
        int start = m.start();
        int end = blockEnd(dump, m.end(), indent.length());
        String block = dump.substring(start, end).replaceAll("(?m)^(?=.)", "  ");
        return Optional.of(dump.substring(0, start) + indent + "FOR i8001 from 0 to 2:\n" + block + dump.substring(end));
    }

    /** A loop's statement under {@code IF Manual ( .. ):} (kir::IfThenElse::toString, csrc/kernel_ir.cpp). */
    private static Optional<String> ifAround(String dump, boolean withElse) {
        Matcher loop = RANGE_LOOP.matcher(dump);
        Matcher m = LOOP_STATEMENT.matcher(dump);
        if (!loop.find() || !m.find()) return Optional.empty();
        String indent = m.group(1);
        String line = m.group();
        String guarded = indent + "IF Manual ( " + loop.group(2) + " == 0 ):\n  " + line + "\n"
                + (withElse ? indent + "ELSE:\n  " + line + "\n" : "");
        int lineEnd = m.end() + 1;
        return Optional.of(dump.substring(0, m.start()) + guarded + dump.substring(Math.min(lineEnd, dump.length())));
    }

    /** The {@code Index definitions:} block of {@code NVFUSER_DUMP=host_ir(indices)} (csrc/ir/printer.cpp:90-102). */
    private static Optional<String> indexDefinitions(String dump) {
        Matcher m = SYMBOL.matcher(dump);
        if (!m.find() || dump.contains("Index definitions:")) return Optional.empty();
        String symbol = m.group();
        return Optional.of(dump.stripTrailing() + "\n\nIndex definitions:\n  i7001 = " + symbol
                + " * 2;\n  i7002 = i7001 % 3;\n");
    }

    /** {@code statement} (its lines already indented one level) placed after the container's first statement. */
    private static Optional<String> inserted(String dump, String statement) {
        int header = dump.indexOf(") :\n");
        if (header < 0) return Optional.empty();
        int at = header + 4;
        return Optional.of(dump.substring(0, at) + statement + (statement.endsWith("\n") ? "" : "\n") + dump.substring(at));
    }

    static String firstTensor(String dump) {
        Matcher m = FIRST_TENSOR.matcher(dump);
        if (!m.find()) throw new IllegalArgumentException("no tensor in the dump");
        return m.group();
    }

    /** Where the block of a line indented {@code column} ends: the first later line indented no deeper. */
    private static int blockEnd(String dump, int from, int column) {
        int p = from + 1;
        while (p < dump.length()) {
            int nl = dump.indexOf('\n', p);
            String line = dump.substring(p, nl < 0 ? dump.length() : nl);
            int indent = line.length() - line.stripLeading().length();
            if (!line.isBlank() && indent <= column) return p;
            p = nl < 0 ? dump.length() : nl + 1;
        }
        return dump.length();
    }

    private static String replace(String s, Pattern p, Function<MatchResult, String> f) {
        return p.matcher(s).replaceAll(m -> Matcher.quoteReplacement(f.apply(m)));
    }

    private static Optional<String> replaced(String s, Pattern p, Function<MatchResult, String> f) {
        String r = replace(s, p, f);
        return r.equals(s) ? Optional.empty() : Optional.of(r);
    }
}
