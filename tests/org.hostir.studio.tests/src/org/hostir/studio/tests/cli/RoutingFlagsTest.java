package org.hostir.studio.tests.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.hostir.studio.engine.RoutingFiles;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --routing/--capacity-factor} (a simulation's) and {@code --write-routing} (a run with data), and the
 * sweep's {@code --vary routing=...}: a measured histogram simulated, every mistake one line (docs/simulation.md,
 * "Mixture of experts").
 */
class RoutingFlagsTest {
    private static final String MOE = RepoPaths.repo().resolve("examples/moe/moe_topk_grouped_experts.fusion")
            .toString();
    private static final String SEED = RepoPaths.repo().resolve("examples/seeds/ag_matmul_p2p.fusion").toString();

    @Test
    void aCpuRunsCountsAreSimulatedAsItsHistogram(@TempDir Path dir) throws Exception {
        Path h = dir.resolve("routing.json");
        CliRun cpu = CliRun.run("run", MOE, "--backend", "cpu", "--devices", "1", "--iterations", "1", "--warmup",
                "0", "--write-routing", h.toString());
        assertEquals(0, cpu.exitCode(), cpu.err());
        long[] counts = RoutingFiles.read(h.toString());
        assertEquals(4, counts.length); // E = 4 experts; the 12 rows of the file's N
        assertEquals(12, java.util.Arrays.stream(counts).sum());
        CliRun sim = CliRun.run("run", MOE, "--backend", "sim", "--devices", "2", "--routing", "histogram:" + h,
                "--capacity-factor", "1.0");
        assertEquals(0, sim.exitCode(), sim.err());
        long capacity = 3; // ceil(1.0 x 12 / 4)
        long dropped = java.util.Arrays.stream(counts).map(c -> Math.max(0, c - capacity)).sum();
        // both grouped_mm nodes, on both ranks (the experts run replicated)
        assertTrue(sim.out().contains("dropped " + 2 * dropped + " of 24 tokens"), sim.out());
        assertArrayEquals(counts, RoutingFiles.read(h.toString()), "the histogram is read, not rewritten");
    }

    @Test
    void mistakesAreOneLine(@TempDir Path dir) throws Exception {
        CliRun r = CliRun.run("run", MOE, "--backend", "cpu", "--routing", "zipf:1");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--routing declares how a simulation routes MoE tokens: add --backend sim"),
                r.err());
        r = CliRun.run("run", MOE, "--backend", "sim", "--write-routing", dir.resolve("x.json").toString());
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--write-routing writes the per-expert counts of a run with data"), r.err());
        r = CliRun.run("run", MOE, "--backend", "sim", "--routing", "zipf:abc");
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().startsWith("error: " + MOE + ": --routing: 'zipf:abc': the Zipf exponent"), r.err());
        r = CliRun.run("run", MOE, "--backend", "sim", "--capacity-factor", "-1");
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().contains("--capacity-factor: '-1' is not a capacity factor"), r.err());
        // the fusion file is not a histogram: refused before the run, left as it was
        String before = Files.readString(Path.of(MOE));
        r = CliRun.run("run", MOE, "--backend", "cpu", "--devices", "1", "--write-routing", MOE);
        assertTrue(r.exitCode() != 0 && r.errLines().size() == 1 && r.err().contains("--write-routing"), r.err());
        assertEquals(before, Files.readString(Path.of(MOE)));
        // a fusion without a grouped_mm has no routing to write
        r = CliRun.run("run", SEED, "--backend", "cpu", "--devices", "2", "--iterations", "1", "--warmup", "0",
                "--write-routing", dir.resolve("none.json").toString());
        assertEquals(1, r.exitCode());
        assertTrue(r.err().contains("--write-routing: the fusion has no grouped_mm of tokens by expert"), r.err());
        assertTrue(Files.notExists(dir.resolve("none.json")));
    }

    @Test
    void theSweepVariesSkewAndCapacity() {
        CliRun r = CliRun.run("sweep", MOE, "--devices", "1", "--set", "N=4096", "--set", "M=4096", "--set", "E=8",
                "--vary", "routing=zipf:0,zipf:2", "--vary", "capacity-factor=1,none");
        assertEquals(0, r.exitCode(), r.err());
        for (String point : new String[] {"{routing=zipf:0, capacity-factor=1}",
                "{routing=zipf:0, capacity-factor=none}", "{routing=zipf:2, capacity-factor=1}",
                "{routing=zipf:2, capacity-factor=none}"}) {
            assertTrue(r.out().contains("| 1 | " + point + " | "), point + " in\n" + r.out());
        }
        r = CliRun.run("sweep", MOE, "--devices", "1", "--vary", "routing=uniform,zipf:-2");
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().contains("--vary routing: zipf:-2.0: the exponent must be a number >= 0 [run.routing]"),
                r.err());
    }

    /** The sweep's error names the flag typed: {@code --routing}, not the {@code --option routing} it becomes. */
    @Test
    void theSweepsRoutingFlagsAreNamedAsTyped() {
        for (String[] typed : new String[][] {{"--routing", "bogus", "'bogus' is not a routing"},
                {"--capacity-factor", "x", "'x' is not a capacity factor"},
                {"--option", "routing=bogus", "'bogus' is not a routing"}}) {
            CliRun r = CliRun.run("sweep", MOE, "--devices", "1", typed[0], typed[1]);
            assertEquals(2, r.exitCode(), r.err());
            assertEquals(1, r.errLines().size(), r.err());
            String flag = typed[0].equals("--option") ? "--option routing" : typed[0];
            assertTrue(r.err().startsWith("error: " + MOE + ": " + flag + ": " + typed[2]), r.err());
        }
        // a varied key keeps its --vary, the fixed one beside it its own flag
        CliRun r = CliRun.run("sweep", MOE, "--devices", "1", "--routing", "zipf:x", "--vary", "capacity-factor=1,2");
        assertTrue(r.err().startsWith("error: " + MOE + ": --routing: 'zipf:x'"), r.err());
    }
}
