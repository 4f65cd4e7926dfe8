package org.hostir.studio.tests.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.host.Deallocate;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.GetCurrentStream;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.SetCurrentStream;
import org.hostir.studio.ir.host.Synchronize;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.Pass;
import org.hostir.studio.lower.PassInstrumentation;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.lower.Snapshot;
import org.junit.jupiter.api.Test;

class PipelineTraceTest {

    @Test
    void traceRecordsEveryPassPerRankAndWhichOnesChangedTheProgram() {
        Fusion f = TestFusions.agMatmulP2p(2);
        PassTrace trace = Pipeline.standard().trace(f, 2, LoweringOptions.DEFAULTS, List.of(0, 1));
        assertEquals(2, trace.ranks().size());
        PassTrace.RankTrace r0 = trace.rank(0);
        assertEquals(List.of("Validate", "DecomposeReshardings", "ReorderShardedAxis", "Segment",
                "StreamParallelType", "ConvertToCommunication", "ForwardLocalShard", "InsertDeallocations"),
                r0.steps().stream().map(PassTrace.Step::pass).toList());
        assertEquals(List.of(false, true, false, true, true, false, false, false),
                r0.steps().stream().map(PassTrace.Step::changed).toList());
        assertTrue(r0.result() instanceof Snapshot.OfHost);
        assertEquals(r0.steps().get(2).after(), r0.before(3));
        String text = r0.result().print();
        assertEquals(Pipeline.standard().lower(f, new LoweringContext(0, 2, LoweringOptions.DEFAULTS)),
                ((Snapshot.OfHost) r0.result()).container(), "the trace ends in what lower() returns");
        assertTrue(text.startsWith("%HostIrContainer {"));
    }

    @Test
    void instrumentationSeesEveryPassBeforeAndAfter() {
        List<String> events = new ArrayList<>();
        Pipeline p = Pipeline.standard().instrument(new PassInstrumentation() {
            @Override
            public void beforePass(Pass pass, Snapshot before, LoweringContext c) { events.add("before " + pass.name()); }

            @Override
            public void afterPass(Pass pass, Snapshot before, Snapshot after, LoweringContext c) {
                events.add("after " + pass.name());
            }
        });
        p.lower(TestFusions.agMatmulP2p(2), new LoweringContext(0, 2, LoweringOptions.DEFAULTS));
        assertEquals(16, events.size());
        assertEquals("before Validate", events.get(0));
        assertEquals("after InsertDeallocations", events.get(15));
    }

    @Test
    void everyNodeLoweredFromAnOpKnowsWhichOne() {
        HostIrContainer c = Pipeline.standard().lower(TestFusions.agMatmulP2p(2),
                new LoweringContext(0, 2, LoweringOptions.DEFAULTS));
        for (HostNode n : c.allNodes()) {
            boolean streamManagement = n instanceof GetCurrentStream || n instanceof SetCurrentStream
                    || n instanceof Synchronize || n instanceof ForLoop;
            if (!streamManagement) {
                assertTrue(c.provenance().containsKey(n.id()), () -> "no provenance for " + n);
            }
        }
        // the decomposed matmul gave two fusion ops: the allgathering set (0) and the matmul (1)
        assertEquals(java.util.Set.of(0, 1), new java.util.HashSet<>(c.provenance().values()));
    }

    @Test
    void deallocationsFreeIntermediatesOnlyWhenAskedAndNeverOutputs() {
        Fusion f = TestFusions.agMatmulP2p(2);
        LoweringOptions on = LoweringOptions.parse(java.util.Map.of("insertDeallocations", "true"));
        HostIrContainer c = Pipeline.standard().lower(f, new LoweringContext(0, 2, on));
        List<Deallocate> frees = c.topLevel().stream().filter(n -> n instanceof Deallocate)
                .map(n -> (Deallocate) n).toList();
        assertEquals(1, frees.size(), "only the gathered intermediate T3 is freed: " + frees);
        assertEquals(3, frees.get(0).buffer().id());
        assertEquals(c.topLevel().size() - 1, c.topLevel().indexOf(frees.get(0)), "after the loop that uses it");
        HostIrContainer off = Pipeline.standard().lower(f, new LoweringContext(0, 2, LoweringOptions.DEFAULTS));
        assertTrue(off.allNodes().stream().noneMatch(n -> n instanceof Deallocate));
    }
}
