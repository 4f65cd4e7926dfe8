package org.hostir.studio.tests.hostile;

import java.util.ArrayList;
import java.util.List;

/**
 * Hostile {@code NVFUSER_DUMP=host_ir} files for {@code dump}, {@code dump --report}, {@code diff} and
 * {@code debug --program} (issue 31
 * items 4, 5 and 7): ESC, NUL, BEL and C1 bytes inside statements (never echoed raw), bytes that are not UTF-8
 * (named by file and line, not "Input length = 1"), 2,000 and 20,000 nested loops (no stack overflow), huge lines,
 * CRLF, a byte order mark, garbage. Reading may go either way, but never exit 3 and never raw bytes.
 */
final class DumpCases {
    private DumpCases() {}

    private record Variant(String label, Expect expect, byte[] bytes) {}

    private static final String STATEMENT = "GetCurrentStream into Stream 0";

    static List<HostileCase> all() {
        List<HostileCase> cases = new ArrayList<>();
        for (Variant v : variants()) {
            cases.add(dumpCase(v, dir -> List.of("dump", dir.resolve(Layout.DUMP).toString())));
            cases.add(dumpCase(v, dir -> List.of("dump", dir.resolve(Layout.DUMP).toString(), "--report")));
            cases.add(dumpCase(v, dir -> List.of("diff", dir.resolve(Layout.DUMP).toString(),
                    dir.resolve(Fixtures.FUSION).toString())));
            // the debugger runs a hand-edited dump's programs (issue 37): the same reader, then a run
            cases.add(dumpCase(v, dir -> List.of("debug", dir.resolve(Fixtures.FUSION).toString(), "--program",
                    dir.resolve(Layout.DUMP).toString(), "--max-stops", "1")).asHeavy());
        }
        return cases;
    }

    private static List<Variant> variants() {
        String d = Fixtures.dump();
        List<Variant> out = new ArrayList<>(List.of(new Variant("a dump lower printed (control)", Expect.ACCEPT,
                Bytes.utf8(d))));
        record Inserted(String label, byte[] bytes) {}
        for (Inserted i : List.of(new Inserted("ESC", Bytes.of(0x1b, '[', '2', 'J')), new Inserted("NUL", Bytes.of(0)),
                new Inserted("BEL", Bytes.of(7)), new Inserted("CR", Bytes.of('\r')),
                new Inserted("C1 CSI", Bytes.of(0xc2, 0x9b)), new Inserted("DEL", Bytes.of(0x7f)),
                new Inserted("a byte 0xff (not UTF-8)", Bytes.of(0xff)),
                new Inserted("an overlong encoding", Bytes.of(0xc0, 0xaf)),
                new Inserted("a UTF-8 surrogate", Bytes.of(0xed, 0xa0, 0x80)))) {
            out.add(new Variant(i.label() + " in a statement", Expect.EITHER, Bytes.insert(d, "GetCurrent", i.bytes())));
            out.add(new Variant(i.label() + " in the header", Expect.EITHER, Bytes.insert(d, "%HostIr", i.bytes())));
        }
        out.add(new Variant("a truncated UTF-8 sequence at the end", Expect.EITHER,
                Bytes.insert(d + "x", d + "x", Bytes.of(0xe2, 0x82))));
        out.add(new Variant("empty", Expect.EITHER, new byte[0]));
        out.add(new Variant("garbage", Expect.EITHER, Bytes.utf8("hello\nworld\n")));
        out.add(new Variant("2,000 nested loops", Expect.EITHER, Bytes.utf8(nested(2_000, true))));
        out.add(new Variant("20,000 nested loops, no indentation", Expect.EITHER, Bytes.utf8(nested(20_000, false))));
        out.add(new Variant("10,000 opening braces", Expect.EITHER, Bytes.utf8(d.replace(STATEMENT,
                STATEMENT + "\n  " + "{".repeat(10_000)))));
        out.add(new Variant("a 1 MiB line", Expect.EITHER, Bytes.utf8(d.replace(STATEMENT,
                STATEMENT + " " + "x".repeat(1 << 20)))));
        out.add(new Variant("CRLF line ends", Expect.EITHER, Bytes.utf8(d.replace("\n", "\r\n"))));
        out.add(new Variant("a byte order mark", Expect.EITHER, Bytes.utf8("\ufeff" + d)));
        out.add(new Variant("no closing brace", Expect.EITHER, Bytes.utf8(d.substring(0, d.lastIndexOf('}')))));
        return out;
    }

    /** {@code depth} FOR loops, one inside the other, around one statement. */
    private static String nested(int depth, boolean indent) {
        String header = Fixtures.dump().lines().findFirst().orElseThrow();
        StringBuilder b = new StringBuilder(header).append('\n');
        for (int i = 0; i < depth; i++) {
            b.append(indent ? "  ".repeat(i + 1) : "  ").append("FOR StreamIdx in iStreamIdx2{i0}:\n");
        }
        b.append(indent ? "  ".repeat(depth + 1) : "  ").append("Synchronize Stream 0\n");
        return b.append("} // %HostIrContainer\n").toString();
    }

    private static HostileCase dumpCase(Variant v, HostileCase.Args args) {
        return HostileCase.of("dumps", v.label(), v.expect(), dir -> {
            CommandLines.files(dir);
            Fixtures.write(dir, Layout.DUMP, v.bytes());
        }, args).naming(dir -> List.of(dir.resolve(Layout.DUMP).toString())).withRule();
    }
}
