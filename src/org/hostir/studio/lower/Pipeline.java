package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.host.HostIrContainer;

/**
 * The lowering pipeline of DESIGN 2.2, run per rank (MLIR's pass manager is the model): one loop runs the passes
 * with the instrumentations around each, and {@link #trace} is that loop plus timing, change detection and
 * snapshot collection. The pipeline also collects the options its passes declare.
 */
public final class Pipeline {
    /**
     * The options of the first release print in their first order (in {@code run} output, pass traces, the
     * "known:" list of an unknown key), which is not pipeline order; options added since follow in pipeline order.
     */
    private static final List<LoweringOption<?>> FIRST_RELEASE_ORDER = List.of(StreamParallelTypePass.NUMBER_OF_STREAMS,
            ConvertToCommunicationPass.BACKEND, StreamParallelTypePass.ALLGATHER,
            StreamParallelTypePass.OFFSET_STREAM_INDEXING_BY_RANK, InsertDeallocationsPass.INSERT_DEALLOCATIONS,
            ForwardLocalShardPass.FORWARD_LOCAL_SHARD);

    private final List<Pass> passes;
    private final List<PassInstrumentation> instrumentations = new ArrayList<>();

    public Pipeline(List<Pass> passes) { this.passes = List.copyOf(passes); }

    /** The default pipeline: the seeds' MultiDeviceExecutor path. A new pass goes here. */
    public static Pipeline standard() {
        return new Pipeline(List.of(new ValidatePass(), new DecomposeReshardingsPass(), new ReorderShardedAxisPass(),
                new SegmentPass(), new StreamParallelTypePass(), new ConvertToCommunicationPass(),
                new ForwardLocalShardPass(), new InsertDeallocationsPass()));
    }

    public List<Pass> passes() { return passes; }

    /** Every option the passes declare; a key declared twice is an error. */
    public List<LoweringOption<?>> options() {
        Map<String, LoweringOption<?>> byKey = new LinkedHashMap<>();
        for (Pass p : passes) {
            for (LoweringOption<?> o : p.options()) {
                if (byKey.putIfAbsent(o.key(), o) != null) {
                    throw new IllegalStateException("option " + o.key() + " declared twice (" + p.name() + ")");
                }
            }
        }
        List<LoweringOption<?>> ordered = new ArrayList<>();
        for (LoweringOption<?> o : FIRST_RELEASE_ORDER) {
            if (byKey.remove(o.key()) != null) ordered.add(o);
        }
        ordered.addAll(byKey.values());
        return List.copyOf(ordered);
    }

    /** Adds an instrumentation to every later run of this pipeline. */
    public Pipeline instrument(PassInstrumentation instrumentation) {
        instrumentations.add(instrumentation);
        return this;
    }

    /** The final program of one rank. */
    public HostIrContainer lower(Fusion fusion, LoweringContext context) {
        Snapshot s = run(new Snapshot.OfFusion(fusion), context, List.of());
        if (!(s instanceof Snapshot.OfHost(var program))) {
            throw new IllegalStateException("the pipeline ended before segmentation");
        }
        return program;
    }

    /** Every pass's snapshot, whether it changed the program, and its time, for each of the given ranks. */
    public PassTrace trace(Fusion fusion, int devices, LoweringOptions options, List<Integer> ranks) {
        List<PassTrace.RankTrace> traces = new ArrayList<>();
        for (int rank : ranks) {
            var snapshots = new SnapshotCollection();
            var changes = new ChangeDetection();
            var timing = new PassTiming();
            run(new Snapshot.OfFusion(fusion), new LoweringContext(rank, devices, options),
                    List.of(snapshots, changes, timing));
            List<String> names = snapshots.passes();
            List<Snapshot> after = snapshots.after();
            List<Boolean> changed = changes.changed();
            List<Long> nanos = timing.nanos();
            List<PassTrace.Step> steps = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                steps.add(new PassTrace.Step(names.get(i), after.get(i), changed.get(i), nanos.get(i)));
            }
            traces.add(new PassTrace.RankTrace(rank, snapshots.input(), steps));
        }
        return new PassTrace(devices, options, traces);
    }

    /** The one pipeline loop: every pass in order, this pipeline's and the run's own instrumentations around it. */
    private Snapshot run(Snapshot input, LoweringContext context, List<PassInstrumentation> own) {
        List<PassInstrumentation> all = new ArrayList<>(instrumentations);
        all.addAll(own);
        List<PassInstrumentation> reversed = all.reversed();
        for (PassInstrumentation i : all) i.beforePipeline(input, context);
        Snapshot s = input;
        List<Snapshot> seen = new ArrayList<>(List.of(input));
        LoweringContext passContext = context;
        for (Pass pass : passes) {
            // the passes on one rank's program see the whole fusion they came from (LoweringContext.fusion)
            if (s instanceof Snapshot.OfFusion(var whole)) passContext = context.withFusion(whole);
            for (PassInstrumentation i : all) i.beforePass(pass, s, passContext);
            Snapshot after;
            try {
                after = pass.apply(s, passContext);
            } catch (LoweringException refused) {
                // a refusal about a tensor a pass made is reported at the file tensor it stands for
                LoweringException located = FileOrigins.relocate(refused, input, seen);
                for (PassInstrumentation i : reversed) i.afterPassFailed(pass, s, passContext, located);
                throw located;
            } catch (RuntimeException failure) {
                for (PassInstrumentation i : reversed) i.afterPassFailed(pass, s, passContext, failure);
                throw failure;
            }
            for (PassInstrumentation i : reversed) i.afterPass(pass, s, after, passContext);
            seen.add(after);
            s = after;
        }
        for (PassInstrumentation i : reversed) i.afterPipeline(s, context);
        return s;
    }
}
