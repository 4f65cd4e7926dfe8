package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.Runner;
import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.debug.Breakpoint;
import org.hostir.studio.exec.debug.DebugSession;
import org.hostir.studio.exec.debug.DebugStop;
import org.hostir.studio.exec.debug.RankState;
import org.hostir.studio.exec.debug.StopRule;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Stepping never changes a result: every example runs to the end under the debugger with a breakpoint on every
 * node of every rank (all ranks stopped at each node, then let go together) and its outputs are those of a plain
 * run, bit for bit, on the fewest devices of 2, 4, 8 its meshes allow; under the CPU backend's rule and under the
 * CUDA backend's ({@link StopRule#SYNCHRONIZED}: communications posted with the whole team, the CPU standing in).
 */
class SteppingKeepsResultsTest {
    private static final long SEED = 11;

    @TestFactory
    List<DynamicTest> everyExampleUnderABreakpointPerNodeGivesThePlainRunsOutputs() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (String example : ExampleCoverageTest.examples()) {
            tests.add(dynamicTest(example, () -> compare(example, StopRule.OBSERVED)));
        }
        return tests;
    }

    @TestFactory
    List<DynamicTest> everyExampleUnderTheSynchronizedRuleGivesThePlainRunsOutputs() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (String example : ExampleCoverageTest.examples()) {
            tests.add(dynamicTest(example, () -> compare(example, StopRule.SYNCHRONIZED)));
        }
        return tests;
    }

    private static void compare(String example, StopRule rule) throws Exception {
        int devices = 2;
        while (!ExampleCoverageTest.fits(example, devices)) devices *= 2;
        LoadedFusion loaded = Runs.load(example, devices, Map.of());
        Compilation compilation = Engine.compile(loaded, SeedGeneration.DEFAULTS);
        RunResult plain;
        RunConfig config = new RunConfig(devices, loaded.bindings().asMap(), compilation.options().numberOfStreams(),
                1, 0, ValidationMode.OFF, SEED, 10_000);
        try (CpuBackend backend = new CpuBackend(devices, 10_000)) {
            plain = Runner.run(loaded.fusion(), compilation.programs(backend::runsRank), config, backend, x -> { });
        }
        Set<Integer> ids = new TreeSet<>();
        for (int r = 0; r < devices; r++) compilation.program(r).allNodes().stream().map(HostNode::id).forEach(ids::add);
        int stops = 0;
        List<Breakpoint> everyNode = ids.stream().map(Breakpoint::at).toList();
        Map<Integer, HostIrContainer> programs = new TreeMap<>();
        for (int r = 0; r < devices; r++) programs.put(r, compilation.program(r));
        try (DebugSession s = rule == StopRule.OBSERVED ? Engine.debug(loaded, compilation, everyNode, false, SEED)
                : DebugSynchronizedTest.start(loaded, programs, compilation.options().numberOfStreams(), everyNode,
                        false, SEED)) {
            DebugStop stop = s.awaitStop();
            while (!stop.ended()) {
                assertTrue(!stop.stuck(), example + " is stuck under the debugger: " + stop);
                assertTrue(stop.ranks().stream().anyMatch(r -> r.state() == RankState.SUSPENDED), stop.toString());
                stops++;
                s.resume(s.ranks());
                stop = s.awaitStop();
            }
            assertTrue(stop.failure().isEmpty(), example + ": " + stop.failure());
            assertTrue(stops > 0, example + " never stopped");
            assertEquals(plain.outputs().keySet(), s.outputs().keySet(), example);
            for (var rank : plain.outputs().entrySet()) {
                Map<Integer, DenseTensor> mine = s.outputs().get(rank.getKey());
                assertEquals(rank.getValue().keySet(), mine.keySet(), example + " rank " + rank.getKey());
                for (var out : rank.getValue().entrySet()) {
                    DenseTensor d = mine.get(out.getKey());
                    String where = example + " rank " + rank.getKey() + " output " + out.getKey();
                    assertArrayEquals(out.getValue().shape(), d.shape(), where);
                    assertArrayEquals(out.getValue().toDoubleArray(), d.toDoubleArray(), where);
                }
            }
        }
    }
}
