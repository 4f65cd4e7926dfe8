package org.hostir.studio.tests.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.Deallocate;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.GetCurrentStream;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.SetCurrentStream;
import org.hostir.studio.ir.host.Synchronize;
import org.hostir.studio.lower.ChangeDetection;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.Pass;
import org.hostir.studio.lower.PassInstrumentation;
import org.hostir.studio.lower.PassTiming;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.lower.Snapshot;
import org.hostir.studio.lower.SnapshotCollection;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

class PipelineTraceTest {

    @Test
    void traceRecordsEveryPassPerRankAndWhichOnesChangedTheProgram() {
        Fusion f = TestFusions.agMatmulP2p(2);
        PassTrace trace = Pipeline.standard().trace(f, 2, SeedGeneration.DEFAULTS, List.of(0, 1));
        assertEquals(2, trace.ranks().size());
        PassTrace.RankTrace r0 = trace.rank(0);
        // PropagateShardings first (issue 34): this fusion writes every mesh, so it changes nothing
        assertEquals(List.of("PropagateShardings", "Validate", "DecomposeReshardings", "ReorderShardedAxis",
                "Segment", "StreamParallelType", "ConvertToCommunication", "ForwardLocalShard", "InsertDeallocations"),
                r0.steps().stream().map(PassTrace.Step::pass).toList());
        assertEquals(List.of(false, false, true, false, true, true, false, false, false),
                r0.steps().stream().map(PassTrace.Step::changed).toList());
        assertTrue(r0.result() instanceof Snapshot.OfHost);
        assertEquals(r0.steps().get(2).after(), r0.before(3));
        String text = r0.result().print();
        assertEquals(Pipeline.standard().lower(f, new LoweringContext(0, 2, SeedGeneration.DEFAULTS)),
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
        p.lower(TestFusions.agMatmulP2p(2), new LoweringContext(0, 2, SeedGeneration.DEFAULTS));
        assertEquals(2 * p.passes().size(), events.size());
        assertEquals("before PropagateShardings", events.get(0));
        assertEquals("after " + p.passes().getLast().name(), events.getLast());
    }

    @Test
    void everyNodeLoweredFromAnOpKnowsWhichOne() {
        HostIrContainer c = Pipeline.standard().lower(TestFusions.agMatmulP2p(2),
                new LoweringContext(0, 2, SeedGeneration.DEFAULTS));
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
        LoweringOptions on = SeedGeneration.options(java.util.Map.of("insertDeallocations", "true"));
        HostIrContainer c = Pipeline.standard().lower(f, new LoweringContext(0, 2, on));
        List<Deallocate> frees = c.topLevel().stream().filter(n -> n instanceof Deallocate)
                .map(n -> (Deallocate) n).toList();
        assertEquals(1, frees.size(), "only the gathered intermediate T3 is freed: " + frees);
        assertEquals(3, frees.get(0).buffer().id());
        assertEquals(c.topLevel().size() - 1, c.topLevel().indexOf(frees.get(0)), "after the loop that uses it");
        HostIrContainer off = Pipeline.standard().lower(f, new LoweringContext(0, 2, SeedGeneration.DEFAULTS));
        assertTrue(off.allNodes().stream().noneMatch(n -> n instanceof Deallocate));
    }

    /** Records every hook as text, so a test can compare the order of calls. */
    private static PassInstrumentation recorder(String who, List<String> events) {
        return new PassInstrumentation() {
            @Override
            public void beforePipeline(Snapshot input, LoweringContext c) { events.add(who + " start " + c.rank()); }

            @Override
            public void beforePass(Pass pass, Snapshot before, LoweringContext c) {
                events.add(who + " before " + pass.name());
            }

            @Override
            public void afterPass(Pass pass, Snapshot before, Snapshot after, LoweringContext c) {
                events.add(who + " after " + pass.name());
            }

            @Override
            public void afterPassFailed(Pass pass, Snapshot before, LoweringContext c, RuntimeException failure) {
                events.add(who + " failed " + pass.name() + ": " + failure.getClass().getSimpleName());
            }

            @Override
            public void afterPipeline(Snapshot result, LoweringContext c) { events.add(who + " end " + c.rank()); }
        };
    }

    @Test
    void afterHooksRunInReverseAndTraceRunsTheSameLoop() {
        List<String> events = new ArrayList<>();
        Pipeline p = Pipeline.standard().instrument(recorder("a", events)).instrument(recorder("b", events));
        PassTrace trace = p.trace(TestFusions.agMatmulP2p(2), 2, SeedGeneration.DEFAULTS, List.of(1));
        assertEquals(List.of("a start 1", "b start 1", "a before PropagateShardings", "b before PropagateShardings",
                "b after PropagateShardings", "a after PropagateShardings"), events.subList(0, 6));
        assertEquals(List.of("b end 1", "a end 1"), events.subList(events.size() - 2, events.size()));
        int passes = p.passes().size();
        assertEquals(2 + passes * 4 + 2, events.size());
        assertEquals(passes, trace.rank(1).steps().size());
    }

    @Test
    void aFailingPassReachesTheFailureHookAndIsRethrown() {
        List<String> events = new ArrayList<>();
        Pipeline p = Pipeline.standard().instrument(recorder("a", events)).instrument(recorder("b", events));
        Fusion bad = TestFusions.setBetween(DeviceMesh.of(0), DeviceMesh.of(5), false, false);
        assertThrows(LoweringException.class, () -> p.lower(bad, new LoweringContext(0, 2, SeedGeneration.DEFAULTS)));
        assertEquals(List.of("a start 0", "b start 0", "a before PropagateShardings", "b before PropagateShardings",
                "b after PropagateShardings", "a after PropagateShardings", "a before Validate", "b before Validate",
                "b failed Validate: LoweringException", "a failed Validate: LoweringException"), events);
        events.clear();
        assertThrows(LoweringException.class, () -> p.trace(bad, 2, SeedGeneration.DEFAULTS, List.of(0)));
        assertEquals("a failed Validate: LoweringException", events.getLast());
    }

    @Test
    void theTraceInstrumentationsEachRecordOnePass() {
        Fusion f = TestFusions.agMatmulP2p(2);
        var snapshots = new SnapshotCollection();
        var changes = new ChangeDetection();
        var timing = new PassTiming();
        HostIrContainer c = Pipeline.standard().instrument(snapshots).instrument(changes).instrument(timing)
                .lower(f, new LoweringContext(0, 2, SeedGeneration.DEFAULTS));
        PassTrace.RankTrace r0 = Pipeline.standard().trace(f, 2, SeedGeneration.DEFAULTS, List.of(0)).rank(0);
        assertEquals(r0.steps().stream().map(PassTrace.Step::pass).toList(), snapshots.passes());
        assertEquals(r0.steps().stream().map(PassTrace.Step::after).toList(), snapshots.after());
        assertEquals(r0.steps().stream().map(PassTrace.Step::changed).toList(), changes.changed());
        assertEquals(r0.input(), snapshots.input());
        assertEquals(Pipeline.standard().passes().size(), timing.nanos().size());
        assertTrue(timing.nanos().stream().allMatch(n -> n >= 0));
        assertEquals(new Snapshot.OfHost(c, NvFuserGeneration.V2025_06), snapshots.after().getLast());
    }
}
