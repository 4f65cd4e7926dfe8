package org.hostir.studio.tests.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hirstudio lower}, run in-process as the command line runs it. */
class LowerCommandTest {
    private static CliRun lower(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "lower";
        System.arraycopy(args, 0, all, 1, args.length);
        return CliRun.of(all);
    }

    private static String example(String name) {
        return RepoPaths.repo().resolve("examples/seeds/" + name + ".fusion").toString();
    }

    @Test
    void printsTheFinalProgramOfRankZero() throws Exception {
        CliRun r = lower(example("allgather_p2p"), "--devices", "8");
        assertEquals(0, r.code(), r.err());
        assertEquals(HostIrPrinter.print(SeedFidelityTest.lower("allgather_p2p", 8)), r.out());
        assertEquals("", r.err());
    }

    @Test
    void rankSelectsAnotherRanksProgram() {
        CliRun r = lower(example("scatter_two_stages"), "--devices", "4", "--rank", "2");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("type=Scatter"), r.out());
        assertTrue(!r.out().contains("= reduction("), "rank 2 does not hold the sum's mesh {0}:\n" + r.out());
    }

    @Test
    void passesShowEverySnapshotWithItsChangedFlag() {
        CliRun r = lower(example("ag_matmul_p2p"), "--devices", "8", "--passes");
        assertEquals(0, r.code(), r.err());
        for (String pass : List.of("Validate: unchanged", "DecomposeReshardings: changed", "Segment: changed",
                "StreamParallelType: changed", "ConvertToCommunication: unchanged")) {
            assertTrue(r.out().contains(pass), () -> pass + " missing in\n" + r.out());
        }
        assertEquals(2, r.out().split("%HostIrContainer \\{", -1).length - 1, "Segment and StreamParallelType");
        assertTrue(r.out().contains("// symbols: i0 = D, i2 = M, i3 = K, i4 = K, i5 = N"), r.out());
    }

    @Test
    void diffShowsEachChangedPassAsAUnifiedDiff() {
        CliRun r = lower(example("ag_matmul_p2p"), "--devices", "8", "--diff");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("--- before StreamParallelType\n+++ after StreamParallelType\n@@ "), r.out());
        assertTrue(r.out().contains("+      P2PCommunication "), r.out());
        assertTrue(r.out().contains("+T3_g_float[iStreamIdx"), "decomposition adds the gathering set:\n" + r.out());
    }

    @Test
    void jsonHoldsEveryRanksTraceOncePerDistinctProgram() {
        CliRun r = lower(example("allreduce"), "--devices", "4", "--json");
        assertEquals(0, r.code(), r.err());
        JsonObject root = JsonParser.parseString(r.out()).getAsJsonObject();
        assertEquals("hostir-pass-trace/2", root.get("format").getAsString());
        assertEquals(1, root.getAsJsonArray("programs").size(), "the SPMD program once");
        assertEquals("[0,1,2,3]", root.getAsJsonArray("programs").get(0).getAsJsonObject().get("ranks").toString());
        var passes = root.getAsJsonArray("programs").get(0).getAsJsonObject().getAsJsonArray("passes");
        assertEquals(Pipeline.standard().passes().size(), passes.size());
        JsonObject convert = passes.get(6).getAsJsonObject(); // after PropagateShardings, Validate, ..., StreamParallelType
        assertEquals("ConvertToCommunication", convert.get("name").getAsString());
        assertTrue(convert.get("changed").getAsBoolean());
        assertTrue(convert.get("text").getAsString().contains("type=Allreduce"));
        assertEquals("ForLoop", convert.getAsJsonArray("nodes").get(3).getAsJsonObject().get("kind").getAsString());
    }

    @Test
    void jsonKeepsRanksWithDifferentProgramsApart() {
        // a sub-mesh: the devices outside the mesh run another program than those in it
        CliRun r = lower(RepoPaths.repo().resolve("examples/allgather_p2p_sub_mesh.fusion").toString(), "--devices",
                "4", "--json");
        assertEquals(0, r.code(), r.err());
        var programs = JsonParser.parseString(r.out()).getAsJsonObject().getAsJsonArray("programs");
        assertTrue(programs.size() > 1, r.out());
        java.util.Set<Integer> all = new java.util.TreeSet<>();
        for (var p : programs) p.getAsJsonObject().getAsJsonArray("ranks").forEach(x -> all.add(x.getAsInt()));
        assertEquals(java.util.Set.of(0, 1, 2, 3), all, "every rank in exactly one entry");
    }

    @Test
    void optionsReachThePipeline() {
        CliRun r = lower(example("allgather_p2p"), "--devices", "2", "--option", "allgather=broadcast");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("type=Broadcast, team=(0 1), root=StreamIdx"), r.out());
        CliRun collective = lower(example("allgather_p2p"), "--devices", "2", "--option", "allgather=collective");
        assertTrue(collective.out().contains("type=Allgather"), collective.out());
        assertTrue(!collective.out().contains("FOR StreamIdx"), collective.out());
    }

    @Test
    void badOptionsAndRanksAreOneLineUsageErrors() {
        for (String[] args : List.of(new String[] {example("allgather"), "--option", "streams=2"},
                new String[] {example("allgather"), "--devices", "2", "--rank", "2"},
                new String[] {example("allgather"), "--option", "numberOfStreams=zero"})) {
            CliRun r = lower(args);
            assertEquals(2, r.code(), r.out() + r.err());
            assertTrue(r.err().startsWith("error: "), r.err());
            assertTrue(!r.err().contains("Exception") && !r.err().contains("\tat "), r.err());
        }
    }

    @Test
    void aScheduleThatCannotBeLoweredIsAOneLineDiagnosticWithFileAndLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("alltoall.fusion");
        Files.writeString(file, """
                {
                  "format": "hostir-fusion/1",
                  "name": "alltoall",
                  "tensors": [
                    {"name": "x", "dtype": "float", "axes": [{"extent": "D", "parallel": "DIDx"}, "D"], "mesh": "all"},
                    {"name": "y", "dtype": "float", "axes": ["D", {"extent": "D", "parallel": "DIDx"}], "mesh": [1, 0]}
                  ],
                  "ops": [{"op": "set", "inputs": ["x"], "output": "y"}],
                  "inputs": ["x"],
                  "outputs": ["y"]
                }
                """);
        CliRun r = lower(file.toString(), "--devices", "2");
        assertEquals(2, r.code(), r.out() + r.err());
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), r.err());
        assertEquals("error: " + file + ":6: set y = set(x): moves the sharded axis from DeviceMesh{0 1} to"
                + " DeviceMesh{1 0}; an AllToAll needs the same mesh on both sides (nvFuser's lowerToAllToAll):"
                + " insert a set to change the mesh first [sharding.alltoall-mesh]", lines.get(0));
        assertEquals("", r.out());
    }
}
