package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.host.HostIrContainer;

/**
 * The lowering pipeline of DESIGN 2.2, run per rank with instrumentation around every pass (MLIR's pass
 * manager is the model): the trace records each pass's snapshot and whether it changed anything.
 */
public final class Pipeline {
    private final List<Pass> passes;
    private final List<PassInstrumentation> instrumentations = new ArrayList<>();

    public Pipeline(List<Pass> passes) { this.passes = List.copyOf(passes); }

    /** The default pipeline: the seeds' MultiDeviceExecutor path. */
    public static Pipeline standard() {
        return new Pipeline(List.of(new ValidatePass(), new DecomposeReshardingsPass(), new ReorderShardedAxisPass(),
                new SegmentPass(), new StreamParallelTypePass(), new ConvertToCommunicationPass(),
                new ForwardLocalShardPass(), new InsertDeallocationsPass()));
    }

    public List<Pass> passes() { return passes; }

    public Pipeline instrument(PassInstrumentation instrumentation) {
        instrumentations.add(instrumentation);
        return this;
    }

    /** The final program of one rank. */
    public HostIrContainer lower(Fusion fusion, LoweringContext context) {
        Snapshot s = new Snapshot.OfFusion(fusion);
        for (Pass pass : passes) s = run(pass, s, context);
        if (!(s instanceof Snapshot.OfHost(var program))) {
            throw new IllegalStateException("the pipeline ended before segmentation");
        }
        return program;
    }

    /** Every pass's snapshot, for each of the given ranks. */
    public PassTrace trace(Fusion fusion, int devices, LoweringOptions options, List<Integer> ranks) {
        List<PassTrace.RankTrace> traces = new ArrayList<>();
        for (int rank : ranks) {
            LoweringContext context = new LoweringContext(rank, devices, options);
            Snapshot input = new Snapshot.OfFusion(fusion);
            Snapshot s = input;
            List<PassTrace.Step> steps = new ArrayList<>();
            for (Pass pass : passes) {
                long t0 = System.nanoTime();
                Snapshot after = run(pass, s, context);
                long nanos = System.nanoTime() - t0;
                boolean changed = after.getClass() != s.getClass() || after.fingerprint() != s.fingerprint()
                        || !after.equals(s);
                steps.add(new PassTrace.Step(pass.name(), after, changed, nanos));
                s = after;
            }
            traces.add(new PassTrace.RankTrace(rank, input, steps));
        }
        return new PassTrace(devices, options, traces);
    }

    private Snapshot run(Pass pass, Snapshot before, LoweringContext context) {
        for (PassInstrumentation i : instrumentations) i.beforePass(pass, before, context);
        Snapshot after = pass.apply(before, context);
        for (PassInstrumentation i : instrumentations) i.afterPass(pass, before, after, context);
        return after;
    }
}
