package org.hostir.studio.tests.io;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.FusionReader;
import org.junit.jupiter.api.Test;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;

/**
 * Random, seeded mutations of the example files, text-level and structural. Each must end in a valid fusion or
 * in diagnostics, never another exception, a hang or an out-of-memory error; a failure names the seed and the
 * mutated text, so it reproduces.
 */
class FusionFuzzTest {
    static final int CASES = 12_000;
    static final long SEED = 0x5EED_F00DL;

    /** Values a field can be replaced with: wrong types, bad numbers, dangling names, unknown enum values. */
    static final String[] VALUES = {"null", "true", "-1", "0", "1.5", "1e308", "-0", "4096", "4097",
        "1099511627777", "99999999999999999999999999", "\"NaN\"", "\"\"", "\"zz\"", "\"D\"", "\"DIDz\"", "\"conv\"",
        "\"all\"", "[]", "{}", "[[[]]]", "[0, 0]", "[-1]", "[\"a\", \"a\"]", "{\"extent\": 0}", "\"a\\u0000b\"",
        "\"hostir-fusion/2\"", "[true, false]", "\"broadcast\"", "\"Stream\"", "\"reduction\"", "\"M\"", "3"};

    static final String[] TOKENS = {"{", "}", "[", "]", ",", ":", "\"", "null", "-", "1e999", "NaN", "\\", "\u0000",
        "\uffff", "'", "//", "/*", "\n", "0x10", "tru", "\"a\":", ",,"};

    @Test
    void mutatedExamplesEndInAFusionOrDiagnostics() {
        List<String> sources = new ArrayList<>();
        for (Path p : Fixtures.exampleFiles()) sources.add(Fixtures.read(p));
        Map<String, Integer> outcomes = new TreeMap<>();
        long start = System.nanoTime();
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            for (int i = 0; i < CASES; i++) {
                long seed = SEED + i;
                Random r = new Random(seed);
                String source = sources.get(r.nextInt(sources.size()));
                byte[] mutated = mutate(source, r);
                int devices = new int[] {1, 2, 4, 8}[r.nextInt(4)];
                String outcome = run(mutated, devices, seed);
                outcomes.merge(outcome, 1, Integer::sum);
            }
        });
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.println("fuzz: " + CASES + " cases in " + ms + " ms: " + outcomes);
        // the mutations reach every layer: some stay valid, and syntax, schema, name and semantic rules all fire
        assertTrue(outcomes.getOrDefault("valid", 0) > 100, outcomes.toString());
        for (String prefix : List.of("json.syntax", "json.limit", "json.duplicate-key", "json.encoding", "schema.type",
                "schema.enum", "schema.range", "schema.required", "name.undefined", "shape.", "mesh.", "graph.")) {
            assertTrue(outcomes.keySet().stream().anyMatch(k -> k.startsWith(prefix)), prefix + " never hit: " + outcomes);
        }
    }

    /** Loads one mutated file; returns "valid" or the first rule; fails the test on anything else. */
    static String run(byte[] bytes, int devices, long seed) {
        try {
            FusionLoader.load(FusionReader.read(bytes, "fuzz.fusion"), devices, Map.of());
            return "valid";
        } catch (FusionFileException e) {
            List<Diagnostic> ds = e.diagnostics();
            assertFalse(ds.isEmpty());
            for (Diagnostic d : ds) {
                String line = d.format();
                if (!line.startsWith("error: fuzz.fusion") || line.contains("\n")) {
                    fail("seed " + seed + ": malformed diagnostic " + line + "\n" + shown(bytes));
                }
            }
            return ds.getFirst().rule();
        } catch (Throwable t) {
            throw new AssertionError("seed " + seed + ": " + t + "\n" + shown(bytes), t);
        }
    }

    private static String shown(byte[] bytes) {
        String s = new String(bytes, StandardCharsets.UTF_8);
        return s.length() > 4000 ? s.substring(0, 4000) + "... (" + s.length() + " chars)" : s;
    }

    static byte[] mutate(String source, Random r) {
        int kind = r.nextInt(12);
        return switch (kind) {
            case 0 -> source.substring(0, r.nextInt(source.length())).getBytes(StandardCharsets.UTF_8);
            case 1 -> flipBytes(source.getBytes(StandardCharsets.UTF_8), r);
            case 2 -> insert(source, TOKENS[r.nextInt(TOKENS.length)], r).getBytes(StandardCharsets.UTF_8);
            case 3 -> deepNesting(source, r).getBytes(StandardCharsets.UTF_8);
            case 4 -> duplicateKey(source, r).getBytes(StandardCharsets.UTF_8);
            default -> structural(source, r).getBytes(StandardCharsets.UTF_8);
        };
    }

    private static byte[] flipBytes(byte[] b, Random r) {
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) b[r.nextInt(b.length)] = (byte) r.nextInt(256);
        return b;
    }

    private static String insert(String s, String token, Random r) {
        int at = r.nextInt(s.length() + 1);
        return s.substring(0, at) + token + s.substring(at);
    }

    private static String deepNesting(String s, Random r) {
        return switch (r.nextInt(3)) {
            case 0 -> "[".repeat(100_000);
            case 1 -> s.replaceFirst("\\{", "{\"layout\": " + "{\"a\": ".repeat(70 + r.nextInt(1000)) + "1");
            default -> insert(s, "[".repeat(1 + r.nextInt(200)), r);
        };
    }

    /** Repeats a {@code "key": value,} member right after itself. */
    private static String duplicateKey(String s, Random r) {
        int at = s.indexOf("\"" + new String[] {"name", "op", "dtype", "axes", "format", "mesh", "inputs"}[r.nextInt(7)]
                + "\":");
        if (at < 0) return s;
        int comma = s.indexOf(',', at);
        if (comma < 0) return s;
        return s.substring(0, comma + 1) + " " + s.substring(at, comma + 1) + s.substring(comma + 1);
    }

    /** Parses the example, changes one random node, writes it back. */
    private static String structural(String source, Random r) {
        JsonElement root = JsonParser.parseString(source);
        List<JsonElement> containers = new ArrayList<>();
        collect(root, containers);
        JsonElement target = containers.get(r.nextInt(containers.size()));
        int kind = r.nextInt(6);
        if (target instanceof JsonObject o && !o.isEmpty()) {
            List<String> keys = new ArrayList<>(o.keySet());
            String key = keys.get(r.nextInt(keys.size()));
            switch (kind) {
                case 0 -> o.remove(key);
                case 1 -> { // swap two fields' values
                    String other = keys.get(r.nextInt(keys.size()));
                    JsonElement v = o.get(key);
                    o.add(key, o.get(other));
                    o.add(other, v);
                }
                case 2 -> o.add(key + (r.nextBoolean() ? "x" : ""), JsonParser.parseString(VALUES[r.nextInt(VALUES.length)]));
                default -> o.add(key, JsonParser.parseString(VALUES[r.nextInt(VALUES.length)]));
            }
        } else if (target instanceof JsonArray a && !a.isEmpty()) {
            int i = r.nextInt(a.size());
            switch (kind) {
                case 0 -> a.remove(i);
                case 1 -> a.add(a.get(i).deepCopy());
                case 2 -> { // reverse: ops out of order, axes permuted
                    List<JsonElement> items = new ArrayList<>();
                    a.forEach(items::add);
                    while (!a.isEmpty()) a.remove(0);
                    for (int k = items.size() - 1; k >= 0; k--) a.add(items.get(k));
                }
                default -> a.set(i, JsonParser.parseString(VALUES[r.nextInt(VALUES.length)]));
            }
        } else if (target instanceof JsonArray a) {
            a.add(JsonNull.INSTANCE);
        }
        // a second, numeric mutation sometimes: extents and device ids at the edges of their ranges
        if (r.nextInt(4) == 0) renumber(containers, r);
        return root.toString();
    }

    private static void renumber(List<JsonElement> containers, Random r) {
        long[] edges = {0, 1, 2, 3, 4, 5, 8, 4095, 4096, 1L << 40, (1L << 40) + 1, -1, Long.MAX_VALUE};
        for (JsonElement c : containers) {
            if (c instanceof JsonArray a) {
                for (int i = 0; i < a.size(); i++) {
                    if (a.get(i).isJsonPrimitive() && a.get(i).getAsJsonPrimitive().isNumber() && r.nextInt(3) == 0) {
                        a.set(i, new JsonPrimitive(edges[r.nextInt(edges.length)]));
                    }
                }
            }
        }
    }

    private static void collect(JsonElement e, List<JsonElement> out) {
        if (e.isJsonObject()) {
            out.add(e);
            e.getAsJsonObject().entrySet().forEach(m -> collect(m.getValue(), out));
        } else if (e.isJsonArray()) {
            out.add(e);
            e.getAsJsonArray().forEach(x -> collect(x, out));
        }
    }

    @Test
    void aFailingCaseReproducesFromItsSeed() {
        // the same seed gives the same mutation, so a reported failure can be replayed
        Map<Long, String> first = new HashMap<>();
        String source = Fixtures.read(Fixtures.exampleFiles().getFirst());
        for (long seed = 0; seed < 50; seed++) {
            first.put(seed, new String(mutate(source, new Random(seed)), StandardCharsets.ISO_8859_1));
        }
        for (long seed = 0; seed < 50; seed++) {
            assertTrue(first.get(seed).equals(new String(mutate(source, new Random(seed)), StandardCharsets.ISO_8859_1)));
        }
    }
}
