package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.exec.P2PSequence.Transfer;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.debug.TransferPlan;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.host.MoeCombine;
import org.hostir.studio.ir.host.MoeDispatch;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.trace.EventKind;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link TransferPlan} walks each rank's program as the Evaluator issues it (loops, branches, coalesced groups, a
 * ShareMemHandles pair, a CollectivePermute) rather than dry-running the Evaluator, which needs a device with
 * buffers and the values a MoE exchange routes by. This holds the walk to the Evaluator: for every example
 * without a MoE exchange, the transfers the walk numbers on each rank are exactly those the CPU backend posted in a
 * plain run (the timeline's point-to-point bars, paired by the same {@code P2PSequence} numbering).
 */
class TransferPlanMatchesTheRunTest {
    @TestFactory
    List<DynamicTest> everyExamplesPlannedTransfersAreTheRunsOnEachRank() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (String example : ExampleCoverageTest.examples()) tests.add(dynamicTest(example, () -> compare(example)));
        return tests;
    }

    private static void compare(String example) throws Exception {
        int devices = 2;
        while (!ExampleCoverageTest.fits(example, devices)) devices *= 2;
        LoadedFusion loaded = Runs.load(example, devices, Map.of());
        Compilation c = Engine.compile(loaded, SeedGeneration.DEFAULTS);
        boolean moe = c.program(0).allNodes().stream().anyMatch(n -> n instanceof MoeDispatch
                || n instanceof MoeCombine);
        // a MoE exchange's transfers are routed by values and left out of the walk's numbering on purpose
        Assumptions.assumeFalse(moe, "skipped: a MoE exchange's transfers are known only to the run");
        RunResult run = Runs.run(example, devices, Map.of());
        for (int r = 0; r < devices; r++) {
            int rank = r;
            TransferPlan plan = TransferPlan.of(c.program(r), r, loaded.bindings().asMap(),
                    c.options().numberOfStreams());
            assertTrue(plan.complete(), example + " rank " + r + ": the walk stopped early");
            Set<Long> planned = plan.transfers().stream().map(Transfer::flowId).collect(Collectors.toSet());
            Set<Long> posted = run.timeline().of(rank).stream()
                    .filter(e -> e.kind() == EventKind.P2P && e.flowId() != 0)
                    .map(e -> e.flowId()).collect(Collectors.toSet());
            assertEquals(posted, planned, example + " rank " + r);
        }
    }
}
