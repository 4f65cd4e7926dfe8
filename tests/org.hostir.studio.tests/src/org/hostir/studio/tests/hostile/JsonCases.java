package org.hostir.studio.tests.hostile;

import java.util.ArrayList;
import java.util.List;

/**
 * Fusion files that are not JSON as RFC 8259 says, or barely are (issue 31 item 6): every raw control character
 * U+0000-U+001F inside a string and one between tokens, lone surrogate escapes, bytes that are not UTF-8, duplicate
 * keys, deep nesting, NaN, single quotes, comments, trailing text; numbers for a symbol that are no extent. The
 * legitimate neighbours (raw DEL, C1 and U+2028 inside a string, an escaped surrogate pair) are accepted and
 * printed escaped. A refusal names the file at the line of the fault, and its rule.
 */
final class JsonCases {
    private JsonCases() {}

    private static final List<FusionCommand> COMMANDS = List.of(FusionCommand.CHECK, FusionCommand.LOWER,
            FusionCommand.EXPORT_PYTHON, FusionCommand.DIFF, FusionCommand.RUN_CPU, FusionCommand.SWEEP);

    private record Variant(String label, Expect expect, byte[] bytes, int line) {}

    static List<HostileCase> all() {
        List<HostileCase> cases = new ArrayList<>();
        for (Variant v : variants()) {
            for (FusionCommand command : COMMANDS) {
                HostileCase c = TextCases.refusedByRule(command.on("json", v.label(), v.expect(), v.bytes()));
                if (v.line() > 0) c = c.naming(dir -> List.of(Fixtures.FUSION + ":" + v.line()));
                cases.add(c);
            }
        }
        return cases;
    }

    private static List<Variant> variants() {
        List<Variant> out = new ArrayList<>();
        String description = Fixtures.DESCRIPTION;
        for (int ch = 0; ch < 0x20; ch++) {
            String raw = "a" + (char) ch + "b";
            out.add(new Variant(String.format("raw U+%04X in a string", ch), Expect.REFUSE,
                    Bytes.utf8(Fixtures.fusion(Fixtures.NAME, raw, "4")), ch == '\n' || ch == '\r' ? 0 : 4));
        }
        out.add(new Variant("raw ESC in the name", Expect.REFUSE,
                Bytes.utf8(Fixtures.fusion("f\u001b[2J", description, "4")), 3));
        out.add(new Variant("raw ESC between tokens", Expect.REFUSE,
                Bytes.utf8(Fixtures.fusion().replace("\"symbols\":", "\u001b\"symbols\":")), 5));
        for (String ok : List.of("\u007f", "\u0085", "\u009b", "\u2028", "\\ud83d\\ude00")) {
            out.add(new Variant("raw " + Terminal.shown(ok) + " in a string (legitimate JSON)", Expect.ACCEPT,
                    Bytes.utf8(Fixtures.fusion(Fixtures.NAME, "a" + ok + "b", "4")), 0));
        }
        for (String lone : List.of("\\ud800", "\\udfff", "\\ud800\\u0041", "\\udc00\\ud800", "\\ud800\\ud800")) {
            out.add(new Variant("lone surrogate " + lone, Expect.REFUSE,
                    Bytes.utf8(Fixtures.fusion(Fixtures.NAME, "a" + lone + "b", "4")), 4));
        }
        String f = Fixtures.fusion();
        for (int[] bytes : List.of(new int[] {0xff}, new int[] {0xc0, 0xaf}, new int[] {0xed, 0xa0, 0x80},
                new int[] {0xe2, 0x82})) {
            out.add(new Variant("bytes " + hex(bytes) + " (not UTF-8) in a string", Expect.REFUSE,
                    Bytes.insert(f, "\"description\": \"an", Bytes.of(bytes)), 4));
        }
        structure(out, f);
        for (String m : List.of("4.5", "-4", "0", "99999999999999999999", "1099511627777", "\"4\"", "true", "NaN",
                "Infinity", "-Infinity", "[4]", "null")) {
            out.add(new Variant("symbol M = " + m, Expect.REFUSE, Bytes.utf8(Fixtures.fusion(Fixtures.NAME,
                    description, m)), 5));
        }
        for (String m : List.of("4.0", "4e0", "4E0")) {
            out.add(new Variant("symbol M = " + m, Expect.EITHER, Bytes.utf8(Fixtures.fusion(Fixtures.NAME,
                    description, m)), 5));
        }
        return out;
    }

    private static void structure(List<Variant> out, String f) {
        out.add(new Variant("duplicate key name", Expect.REFUSE,
                Bytes.utf8(f.replace("\"name\": \"f\",", "\"name\": \"f\", \"name\": \"g\",")), 3));
        out.add(new Variant("duplicate symbol", Expect.REFUSE, Bytes.utf8(f.replace("{\"M\": 4}",
                "{\"M\": 4, \"M\": 8}")), 5));
        out.add(new Variant("duplicate dtype", Expect.REFUSE, Bytes.utf8(f.replace("\"dtype\": \"float\", \"axes\": "
                + "[\"M\"", "\"dtype\": \"float\", \"dtype\": \"half\", \"axes\": [\"M\"")), 7));
        out.add(new Variant("100,000-deep nesting", Expect.REFUSE, Bytes.utf8(f.replace("\"an allgather in a stream"
                + " loop\"", "[".repeat(100_000) + "]".repeat(100_000))), 4));
        out.add(new Variant("single quotes", Expect.REFUSE, Bytes.utf8(f.replace("\"format\"", "'format'")), 2));
        out.add(new Variant("a comment", Expect.REFUSE, Bytes.utf8(f.replace("\"name\"", "/* c */ \"name\"")), 3));
        out.add(new Variant("a trailing comma", Expect.REFUSE, Bytes.utf8(f.replace("\"outputs\": [\"out\"]",
                "\"outputs\": [\"out\"],")), 0));
        out.add(new Variant("text after the object", Expect.REFUSE, Bytes.utf8(f + "x"), 0));
        out.add(new Variant("two objects", Expect.REFUSE, Bytes.utf8(f + f), 0));
        out.add(new Variant("empty", Expect.REFUSE, new byte[0], 0));
        out.add(new Variant("a byte order mark", Expect.EITHER, Bytes.utf8("\ufeff" + f), 0));
    }

    private static String hex(int[] bytes) {
        StringBuilder b = new StringBuilder();
        for (int x : bytes) b.append(b.isEmpty() ? "" : " ").append(String.format("%02x", x));
        return b.toString();
    }
}
