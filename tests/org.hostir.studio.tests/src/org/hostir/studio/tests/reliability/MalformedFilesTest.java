package org.hostir.studio.tests.reliability;

import static org.hostir.studio.tests.reliability.ReliabilityFiles.oneLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.hostir.studio.tests.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16, the "malformed files" kind of the 163 inputs: whatever bytes a fusion file holds, {@code check},
 * {@code lower} and {@code run} answer with the same one {@code error:} line (exit 2), never a stack trace, a
 * hang or an internal error, and never accept it.
 */
class MalformedFilesTest {
    private static Map<String, byte[]> cases() {
        Map<String, byte[]> c = new LinkedHashMap<>();
        c.put("empty", new byte[0]);
        c.put("truncated", "{\"format\": \"hostir-fusion/1\", \"name\": \"x\", \"tensors\": [".getBytes());
        c.put("binary", new byte[] {0, (byte) 0xff, (byte) 0xfe, 1, 2, 3, (byte) 0x80});
        c.put("nested", ("{\"a\": " + "[".repeat(100_000) + "]".repeat(100_000) + "}").getBytes());
        c.put("duplicate-key", "{\"format\": \"hostir-fusion/1\", \"format\": \"hostir-fusion/1\"}".getBytes());
        c.put("not-an-object", "[1, 2, 3]".getBytes());
        c.put("wrong-format", "{\"format\": \"hostir-fusion/99\"}".getBytes());
        c.put("huge-number", ("{\"format\": \"hostir-fusion/1\", \"name\": \"x\", \"symbols\": {\"M\": 1"
                + "0".repeat(400) + "}}").getBytes());
        return c;
    }

    @Test
    void everyCommandRefusesEachMalformedFileInOneLine(@TempDir Path dir) throws IOException {
        for (var e : cases().entrySet()) {
            Path f = dir.resolve(e.getKey() + ".fusion");
            Files.write(f, e.getValue());
            String first = null;
            for (String command : new String[] {"check", "lower", "run"}) {
                CliRun r = CliRun.of(command, f.toString(), "--backend", "cpu");
                if (command.equals("check") || command.equals("lower")) {
                    r = CliRun.of(command, f.toString());
                }
                oneLine(r, 2, f.toString());
                assertTrue(r.err().matches("error: \\S+?:\\d+: .*\\[[a-z.-]+\\]\\s*"), e.getKey() + ": " + r.err());
                if (first == null) first = r.err();
                assertEquals(first, r.err(), e.getKey() + ": " + command + " reports as check does");
            }
        }
    }

    /**
     * The MoE ops (issue 39) written wrong: topk with a negative or huge k, indices or offsets of a float dtype, topk's
     * indices as bool, flags that are not booleans, scatter on an axis the tensor lacks, grouped_mm without its
     * offsets, a file cut in half. Every command that reads a fusion, {@code export} and {@code debug} included,
     * answers with {@code error: FILE:LINE: where: what [rule]} lines (exit 2), never a stack trace.
     */
    @Test
    void malformedMoeOpsAreRefusedByEveryCommandWithLocatedLines(@TempDir Path dir) throws IOException {
        String moe = Files.readString(org.hostir.studio.tests.RepoPaths.repo().resolve(
                "examples/moe/moe_topk_grouped_experts.fusion"));
        Map<String, String> c = new LinkedHashMap<>();
        c.put("negative-k", moe.replace("\"output\": \"topk_logits\", \"axes\": [2]", "\"output\": \"topk_logits\", \"axes\": [-2]"));
        c.put("huge-k", moe.replace("\"output\": \"topk_logits\", \"axes\": [2]",
                "\"output\": \"topk_logits\", \"axes\": [99999999999999999999]"));
        c.put("float-scatter-index", moe.replace("{\"name\": \"slot\", \"dtype\": \"int64\"",
                "{\"name\": \"slot\", \"dtype\": \"float\""));
        c.put("float-offsets", moe.replace("{\"name\": \"offsets\", \"dtype\": \"int32\"",
                "{\"name\": \"offsets\", \"dtype\": \"float\""));
        c.put("bool-topk-indices", moe.replace("{\"name\": \"topk_ids\", \"dtype\": \"int64\"",
                "{\"name\": \"topk_ids\", \"dtype\": \"bool\""));
        c.put("flags-not-booleans", moe.replace("\"flags\": [true, true]}", "\"flags\": [\"yes\", 3]}"));
        c.put("scatter-axis-outside", moe.replace("\"output\": \"combined\", \"axes\": [0]",
                "\"output\": \"combined\", \"axes\": [7]"));
        c.put("grouped-mm-without-offsets", moe.replace("\"inputs\": [\"tokens\", \"w1\", \"offsets\"]",
                "\"inputs\": [\"tokens\", \"w1\"]"));
        c.put("truncated", moe.substring(0, moe.length() / 2));
        for (var e : c.entrySet()) {
            assertTrue(!e.getValue().equals(moe), e.getKey() + ": the variation applies");
            Path f = Files.writeString(dir.resolve(e.getKey() + ".fusion"), e.getValue());
            for (String[] command : new String[][] {{"check"}, {"lower"}, {"export", "--cpp"}, {"export", "--python"},
                    {"debug"}}) {
                String[] args = java.util.Arrays.copyOf(command, command.length + 1);
                args[command.length] = f.toString();
                CliRun r = CliRun.of(args);
                String what = e.getKey() + ", " + String.join(" ", command) + ": " + r.err();
                assertEquals(2, r.code(), what);
                assertTrue(r.out().isEmpty() || !r.out().contains("Exception"), what);
                for (String line : r.err().lines().toList()) {
                    assertTrue(line.matches("error: \\S+?:\\d+: .*\\[[a-z.-]+\\]"), what);
                }
            }
        }
    }

    /**
     * A MoE dump (MoeDispatch, MoeCombine) cut in half, with a negative or zero expert count, float routing indices,
     * or hostile text in a tensor and an attribute: {@code dump}, {@code diff} and {@code debug --program} read it
     * or refuse it in lines that start {@code error:} or {@code warning:} (and a usage line after a refused
     * argument; exit 0, 1 or 2), never a stack trace.
     */
    @Test
    void malformedMoeDumpsAreReadOrRefusedWithoutAStackTrace(@TempDir Path dir) throws IOException {
        Path good = org.hostir.studio.tests.RepoPaths.repo().resolve("examples/moe/dispatch_combine_top1.hir");
        String hir = Files.readString(good);
        Map<String, String> c = new LinkedHashMap<>();
        c.put("truncated", hir.substring(0, hir.length() / 2));
        c.put("negative-experts", hir.replace("num_experts=4", "num_experts=-4"));
        c.put("zero-experts", hir.replace("num_experts=4", "num_experts=0"));
        c.put("huge-experts", hir.replace("num_experts=4", "num_experts=4" + "9".repeat(40)));
        c.put("float-routing", hir.replace("topk_idx=T1_g_int64_t", "topk_idx=T1_g_float"));
        c.put("hostile", hir.replace("T0_g_float", "T0_g_float'\"$(x)%s{}\u202e\n"));
        String fusion = org.hostir.studio.tests.RepoPaths.repo().resolve("examples/moe/grouped_mlp.fusion").toString();
        for (var e : c.entrySet()) {
            assertTrue(!e.getValue().equals(hir), e.getKey() + ": the variation applies");
            String f = Files.writeString(dir.resolve(e.getKey() + ".hir"), e.getValue()).toString();
            for (String[] args : new String[][] {{"dump", f}, {"diff", f, good.toString()},
                    {"debug", fusion, "--program", f, "--max-stops", "1"}}) {
                CliRun r = CliRun.of(args);
                String what = e.getKey() + ", " + args[0] + " (exit " + r.code() + "): " + r.err();
                assertTrue(r.code() >= 0 && r.code() <= 2, what);
                assertTrue(!r.err().contains("Exception") && !r.err().contains("\tat ")
                        && !r.err().contains("internal error"), what);
                for (String line : r.err().lines().toList()) {
                    assertTrue(line.startsWith("error: ") || line.startsWith("warning: ")
                            || line.startsWith("usage: ") || line.startsWith("  "), what);
                }
            }
        }
    }
}
