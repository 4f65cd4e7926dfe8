package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.engine.ProfileFiles;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.exec.sim.SimBackend;
import org.hostir.studio.exec.sim.SimRun;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.TestPaths;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.junit.jupiter.api.Test;

/**
 * The simulation backend runs the same per-rank programs as the CPU backend, in simulated time: the same bars on
 * the same streams, dependencies honoured (a matmul never starts before the transfer it waits for), and the
 * CPU backend's matching rules (a run whose ranks disagree fails with a diagnostic, never a hang).
 */
class SimBackendTest {
    static HardwareProfile profile() throws Exception { return ProfileFiles.builtIn("h200x2-measured"); }

    static RunResult simulate(LoadedFusion loaded, RunConfig config, LoweringOptions options) throws Exception {
        SimBackend backend = new SimBackend(config.devices(), profile(),
                options.backend() == org.hostir.studio.ir.host.CommunicatorBackend.CUDA, r -> true);
        return SimRun.run(Runs.programs(loaded.fusion(), config.devices(), options), config, backend, line -> { });
    }

    /** Every example, on as many ranks as its meshes need: it simulates and its bars are those of the CPU run. */
    @Test
    void everyExampleHasTheCpuBackendsBarsOnTheSameStreams() throws Exception {
        List<Path> files;
        try (var walk = Files.walk(RepoPaths.repo().resolve("examples"))) {
            files = walk.filter(p -> p.toString().endsWith(".fusion")).filter(p -> !TestPaths.refusedOnPurpose(p))
                    .sorted().toList();
        }
        assertTrue(files.size() >= 20, "examples found: " + files.size());
        for (Path f : files) {
            String name = RepoPaths.repo().resolve("examples").relativize(f).toString().replace(".fusion", "");
            int devices = 2;
            LoadedFusion loaded;
            try {
                loaded = Runs.load(name, devices, Map.of());
            } catch (org.hostir.studio.diag.FusionFileException needsMore) { // meshes naming devices 2-3
                devices = 4;
                loaded = Runs.load(name, devices, Map.of());
            }
            RunConfig config = Runs.config(loaded, devices, Map.of());
            RunResult cpu;
            try (CpuBackend backend = new CpuBackend(devices, 10_000)) {
                cpu = Runs.lowered(loaded.fusion(), config, SeedGeneration.DEFAULTS, backend, line -> { });
            }
            RunResult sim = simulate(loaded, config, SeedGeneration.DEFAULTS);
            assertEquals(bars(cpu), bars(sim), name);
            assertTrue(sim.medianMillis() > 0, name);
        }
    }

    /** (rank, stream, kind, node, iteration) of every device bar, counted. */
    private static Map<String, Long> bars(RunResult r) {
        return r.timeline().events().stream().filter(e -> e.kind() != EventKind.HOST)
                .collect(Collectors.groupingBy(e -> e.rank() + "/" + e.stream() + "/" + e.kind() + "/" + e.nodeId()
                        + "/" + e.iteration(), java.util.TreeMap::new, Collectors.counting()));
    }

    @Test
    void aMatmulStartsAfterTheTransferItWaitsForAndOverlapsTheOtherStream() throws Exception {
        LoadedFusion loaded = Runs.load("seeds/ag_matmul_p2p", 4, Map.of("M", 2048L, "K", 4096L, "N", 4096L));
        Map<String, String> offset = Map.of("offsetStreamIndexingByRank", "true");
        RunResult r = simulate(loaded, Runs.config(loaded, 4, offset), SeedGeneration.options(offset));
        for (int rank = 0; rank < 4; rank++) {
            List<TimelineEvent> events = r.timeline().of(rank);
            for (TimelineEvent m : events.stream().filter(e -> e.kind() == EventKind.MATMUL).toList()) {
                for (TimelineEvent recv : events.stream().filter(e -> e.kind() == EventKind.P2P
                        && e.iteration() == m.iteration() && e.name().startsWith("recv")).toList()) {
                    assertTrue(m.startNs() >= recv.endNs(), "rank " + rank + " iteration " + m.iteration());
                }
            }
        }
        double overlap = org.hostir.studio.trace.OverlapFigures.of(r.timeline()).ranks().stream()
                .mapToDouble(o -> o.overlapNs()).sum();
        assertTrue(overlap > 0, "transfers overlap matmuls somewhere");
    }

    @Test
    void ranksThatDisagreeFailWithTheOpsThatNeverCompleted() throws Exception {
        LoadedFusion loaded = Runs.load("seeds/ag_matmul_p2p", 2, Map.of());
        RunConfig config = Runs.config(loaded, 2, Map.of());
        Map<Integer, HostIrContainer> programs = new HashMap<>();
        programs.put(0, Pipeline.standard().lower(loaded.fusion(), new LoweringContext(0, 2,
                SeedGeneration.options(Map.of("allgather", "collective")))));
        programs.put(1, Pipeline.standard().lower(loaded.fusion(), new LoweringContext(1, 2, SeedGeneration.DEFAULTS)));
        SimBackend backend = new SimBackend(2, profile(), false, r -> true);
        ExecutionException e = assertThrows(ExecutionException.class, () -> SimRun.run(programs, config, backend,
                line -> { }));
        assertTrue(e.getMessage().startsWith("the ranks' communications do not match (simulated)"), e.getMessage());
        assertTrue(e.getMessage().contains("never posted it"), e.getMessage());
    }
}
