package org.hostir.studio.tests.hostile;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * Hostile hardware profiles for {@code run --backend sim --profile FILE} and {@code sweep --profile FILE} (issue 31
 * items 6 and 7): garbage, JSON that is no profile, unknown fields (refused with their name), every numeric field
 * at zero, negative, absurdly large or small, of the wrong type; raw control characters and lone surrogates in its
 * strings. A refusal names the profile file and its rule, and {@code sweep} refuses before the first point.
 */
final class ProfileCases {
    private ProfileCases() {}

    /** A numeric field by its path, and whether zero is a legitimate value there (a latency) or not (a bandwidth). */
    private record Field(String path, boolean zeroOk, boolean integer) {}

    private static final List<Field> FIELDS = List.of(new Field("gpusPerNode", false, true),
            new Field("gemm.memoryGBps", false, false), new Field("gemm.launchUs", true, false),
            new Field("gemm.peakTflops.float", false, false), new Field("links.nvlink.alphaUs", true, false),
            new Field("links.nvlink.busGBps", false, false), new Field("links.network.alphaUs", true, false),
            new Field("links.network.busGBps", false, false), new Field("links.copyEngine.alphaUs", true, false),
            new Field("links.copyEngine.busGBps", false, false), new Field("contention.computeSlowdown", true, false),
            new Field("contention.ncclSlowdown", true, false), new Field("dispatchUs.default", true, false),
            new Field("dispatchUs.HostOp", true, false));

    static List<HostileCase> all() {
        List<HostileCase> cases = new ArrayList<>();
        for (Variant v : variants()) {
            cases.add(onSim(v));
            cases.add(onSweep(v));
        }
        return cases;
    }

    private record Variant(String label, Expect expect, byte[] text, String field) {}

    private static List<Variant> variants() {
        List<Variant> out = new ArrayList<>();
        for (Field f : FIELDS) {
            String[] values = {"0", "-1", "1e300", "1e-300", "\"8\"", "true", "null", "[]", "1.5"};
            for (String value : values) {
                out.add(new Variant(f.path() + " = " + value, expect(f, value), edit(f.path(), value), leaf(f)));
            }
        }
        for (String path : List.of("bogus", "links.nvlink.bogus", "gemm.bogus", "contention.bogus")) {
            out.add(new Variant("unknown field " + path, Expect.REFUSE, edit(path, "1"), "bogus"));
        }
        for (String path : List.of("name", "gemm", "links.network", "dispatchUs.default", "gemm.efficiency")) {
            out.add(new Variant("missing field " + path, Expect.REFUSE, edit(path, null), leafOf(path)));
        }
        out.add(new Variant("efficiency of fraction 2", Expect.REFUSE, edit("gemm.efficiency", "[[1024, 2]]"),
                "efficiency"));
        out.add(new Variant("efficiency sizes decreasing", Expect.REFUSE,
                edit("gemm.efficiency", "[[2048, 0.5], [1024, 0.5]]"), "efficiency"));
        out.add(new Variant("peak of an unknown dtype", Expect.REFUSE, edit("gemm.peakTflops.float99", "5"),
                "float99"));
        out.add(new Variant("a valid copy (control)", Expect.ACCEPT, bytes(Fixtures.profile()), null));
        garbage(out);
        return out;
    }

    private static void garbage(List<Variant> out) {
        String p = Fixtures.profile();
        String description = "\"description\": \"";
        record G(String label, String text) {}
        for (G g : List.of(new G("garbage text", "garbage"), new G("empty", ""), new G("an array", "[]"),
                new G("null", "null"), new G("truncated", p.substring(0, p.length() / 2)),
                new G("text after the object", p + "x"), new G("two objects", p + p),
                new G("a comment", "// mine\n" + p), new G("single quotes", p.replace("\"name\"", "'name'")),
                new G("a NaN", p.replace("\"launchUs\": 5", "\"launchUs\": NaN")),
                new G("duplicate key", p.replace("\"gpusPerNode\": 8", "\"gpusPerNode\": 8, \"gpusPerNode\": 9")),
                new G("deep nesting", p.replace("\"gpusPerNode\": 8", "\"gpusPerNode\": 8, \"x\": "
                        + "[".repeat(100_000) + "]".repeat(100_000))),
                new G("raw ESC in a string", p.replace(description, description + "\u001b[2J")),
                new G("raw NUL in a string", p.replace(description, description + "\u0000")),
                new G("lone surrogate escape", p.replace(description, description + "\\ud800")),
                new G("byte order mark", "\ufeff" + p))) {
            out.add(new Variant(g.label(), g.label().equals("byte order mark") ? Expect.EITHER : Expect.REFUSE,
                    bytes(g.text()), null));
        }
        byte[] utf8 = bytes(p);
        byte[] bad = new byte[utf8.length + 2];
        int at = p.indexOf(description) + description.length();
        System.arraycopy(utf8, 0, bad, 0, at);
        bad[at] = (byte) 0xff;
        bad[at + 1] = (byte) 0xfe;
        System.arraycopy(utf8, at, bad, at + 2, utf8.length - at);
        out.add(new Variant("bytes that are not UTF-8", Expect.REFUSE, bad, null));
    }

    /** Zero where zero is no value, a negative, 1e300 or 1e-300 (absurd), a non-number, a fraction of a count. */
    private static Expect expect(Field f, String value) {
        return switch (value) {
            case "0" -> f.zeroOk() ? Expect.ACCEPT : Expect.REFUSE;
            case "1e-300" -> f.zeroOk() ? Expect.EITHER : Expect.REFUSE;
            case "1.5" -> f.integer() ? Expect.REFUSE : Expect.ACCEPT;
            default -> Expect.REFUSE;
        };
    }

    private static String leaf(Field f) { return leafOf(f.path()); }

    private static String leafOf(String path) { return path.substring(path.lastIndexOf('.') + 1); }

    /** The profile with the field at {@code path} set to the JSON {@code value} (removed when null). */
    private static byte[] edit(String path, String value) {
        JsonObject o = JsonParser.parseString(Fixtures.profile()).getAsJsonObject();
        String[] parts = path.split("\\.");
        JsonObject at = o;
        for (int i = 0; i < parts.length - 1; i++) at = at.getAsJsonObject(parts[i]);
        String last = parts[parts.length - 1];
        if (value == null) at.remove(last);
        else at.add(last, value.equals("null") ? JsonNull.INSTANCE : JsonParser.parseString(value));
        return bytes(new GsonBuilder().setPrettyPrinting().serializeNulls().create().toJson(o));
    }

    private static byte[] bytes(String s) { return s.getBytes(StandardCharsets.UTF_8); }

    private static HostileCase onSim(Variant v) {
        return profileCase(v, "run --backend sim", dir -> {
            List<String> a = CommandLines.base("run sim", dir);
            a.set(a.indexOf("h100x8-nvlink"), dir.resolve(Layout.PROFILE).toString());
            return a;
        });
    }

    private static HostileCase onSweep(Variant v) {
        return profileCase(v, "sweep", dir -> {
            List<String> a = CommandLines.base("sweep", dir);
            a.set(a.indexOf("h100x8-nvlink"), dir.resolve(Layout.PROFILE).toString());
            return a;
        });
    }

    private static HostileCase profileCase(Variant v, String command, HostileCase.Args args) {
        HostileCase c = HostileCase.of("profiles", v.label(), v.expect(), dir -> {
            CommandLines.files(dir);
            Fixtures.write(dir, Layout.PROFILE, v.text());
        }, args).naming(dir -> List.of(dir.resolve(Layout.PROFILE).toString())).withRule()
                .checking(AcceptChecks.SANE_FIGURES);
        if (v.field() != null) c = c.naming(dir -> List.of(v.field()));
        return v.expect() == Expect.REFUSE ? c : c.asHeavy();
    }
}
