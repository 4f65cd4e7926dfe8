package org.hostir.studio.tests.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonParser;

import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.Runner;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.RankRanges;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;

/**
 * Issue 16, Deliver 5: 1,024 simulated devices on the CPU backend. The run itself (streams and ranks on virtual
 * threads, no-progress judged for the whole backend); a stuck run of many ranks reported in a few lines, ranks
 * that wait alike grouped; {@code lower --json} printing an SPMD program once with its ranks. Times and memory
 * are measured in docs/benchmarks.md, not asserted here.
 */
class ManyDevicesTest {
    @Test
    void anAllgatherOn1024DevicesValidates() {
        CliRun r = CliRun.of("run", TestPaths.repo("examples", "seeds", "allgather.fusion").toString(), "--backend",
                "cpu", "--devices", "1024", "--validate", "--iterations", "1", "--warmup", "0");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("validation: PASS"), r.out());
        assertTrue(r.out().contains("ranks 0-1023 program: "), "one line for 1,024 equal programs:\n" + r.out());
        assertTrue(r.out().lines().count() < 100, "a summary, not lines per rank (6,000 before): " + r.out().lines().count());
    }

    @Test
    void aStuckRunOfManyRanksIsReportedInAFewLines() {
        int devices = 256;
        List<Integer> team = new ArrayList<>();
        for (int r = 0; r < devices; r++) team.add(r);
        DeviceMesh mesh = new DeviceMesh(team);
        IrBuilder b = new IrBuilder();
        TensorView in = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, mesh, b.iter(b.symbol("M")));
        TensorView out = b.tensor(DataType.FLOAT, MemoryType.GLOBAL, mesh, b.iter(b.symbol("M")));
        Fusion fusion = b.fusion("stuck", List.of(in), List.of(new FusionOp.Set(out, in)), List.of(out));
        Map<Integer, HostIrContainer> programs = new HashMap<>();
        for (int rank = 0; rank < devices; rank++) {
            HostIrBuilder h = new HostIrBuilder(new IrBuilder(fusion.counters(), fusion.symbols()));
            List<HostNode> body = new ArrayList<>(List.of(h.allocate(out)));
            if (rank != devices - 1) { // the last rank never posts its part: every other one waits
                var c = h.communication(CommunicationType.ALLREDUCE, team, null, in, out,
                        org.hostir.studio.ir.ReductionOpType.SUM, CommunicatorBackend.NCCL);
                body.add(c);
                body.add(h.waitFor(c));
            }
            programs.put(rank, h.container(List.of(in), List.of(out), body));
        }
        RunConfig config = new RunConfig(devices, Map.of("M", 4L, "D", (long) devices),
                SeedGeneration.DEFAULTS.numberOfStreams(), 1, 0, false, 1, 1_000);
        String why;
        try (CpuBackend backend = new CpuBackend(devices, 1_000)) {
            why = assertThrows(ExecutionException.class,
                    () -> Runner.run(fusion, programs, config, backend, line -> { })).getMessage();
        }
        assertTrue(why.startsWith("no progress for 1000 ms"), why);
        assertTrue(why.contains("ranks 0-254 stream 0: Allreduce (node "), why);
        assertTrue(why.contains("on team [0-255] (256 ranks)"), why);
        assertTrue(why.lines().count() <= 10, "ranks waiting alike share a line:\n" + why);
    }

    @Test
    void lowerJsonPrintsAnSpmdProgramOnceWithItsRanks() {
        CliRun r = CliRun.of("lower", TestPaths.repo("examples", "seeds", "ag_matmul_p2p.fusion").toString(),
                "--devices", "256", "--json");
        assertEquals(0, r.code(), r.err());
        var programs = JsonParser.parseString(r.out()).getAsJsonObject().getAsJsonArray("programs");
        assertEquals(1, programs.size());
        assertEquals(256, programs.get(0).getAsJsonObject().getAsJsonArray("ranks").size());
    }

    @Test
    void rankRangesCompressRuns() {
        assertEquals("0-3, 5, 7, 8, 10-14", RankRanges.of(List.of(0, 1, 2, 3, 5, 7, 8, 10, 11, 12, 13, 14)));
        List<Integer> many = new ArrayList<>();
        for (int r = 0; r < 1024; r++) many.add(r);
        assertEquals("[0-1023] (1024 ranks)", RankRanges.team(many));
        assertEquals("[0, 1]", RankRanges.team(List.of(0, 1)));
        assertEquals("rank 3", RankRanges.ranks(List.of(3)));
    }
}
