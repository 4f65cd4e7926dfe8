package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.HostIrContainer;

/**
 * The lowering pipeline of DESIGN 2.2, run per rank (MLIR's pass manager is the model): one loop runs the passes
 * with the instrumentations around each, and {@link #trace} is that loop plus timing, change detection and
 * snapshot collection. The fusion passes, the same on every rank, can run once ({@link #fusionStage}) and each
 * rank continue from their result ({@link Compilation} does). The pipeline also collects the options its passes
 * declare.
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
    private final NvFuserGeneration generation;
    private final List<PassInstrumentation> instrumentations = new ArrayList<>();

    /** A pipeline of nvFuser {@code generation}: its passes run with that generation whatever the options say. */
    public Pipeline(List<Pass> passes, NvFuserGeneration generation) {
        if (!generation.lowerable()) throw new IllegalArgumentException("no lowering of nvFuser " + generation.label());
        this.passes = List.copyOf(passes);
        this.generation = generation;
    }

    /** A pipeline of the seeds' generation (2025-06). */
    public Pipeline(List<Pass> passes) { this(passes, NvFuserGeneration.V2025_06); }

    /**
     * The seeds' pipeline, nvFuser 2025-06's MultiDeviceExecutor path (HostIrLower, then StreamParallelType and
     * ConvertOpToCommunication), after sharding propagation (nvFuser's first preseg pass, which both generations
     * run). A new pass of that path goes here.
     */
    public static Pipeline standard() {
        return new Pipeline(List.of(new PropagateShardingsPass(), new ValidatePass(), new DecomposeReshardingsPass(),
                new ReorderShardedAxisPass(), new SegmentPass(), new StreamParallelTypePass(), new ConvertToCommunicationPass(),
                new ForwardLocalShardPass(), new InsertDeallocationsPass()), NvFuserGeneration.V2025_06);
    }

    /**
     * nvFuser 2026-04's {@code NVFUSER_ENABLE=host_ir_lowering} path (FusionKernelRuntime with host IR lowering at
     * 81c4b22fd): the preseg passes modelled here, one segment per host op or communication
     * (convertSingleOpToCommunication), lowerSegmentedFusionToHostIr (csrc/host_ir/lowering.cpp) and
     * hir::runPasses (csrc/host_ir/passes.cpp:16-19: AllocateAndDeallocate, then AssignStreams).
     */
    public static Pipeline hostIrLowering() {
        return new Pipeline(List.of(new PropagateShardingsPass(), new ValidatePass(), new DecomposeReshardingsPass(),
                new ReorderShardedAxisPass(), new FinalizeMultideviceDomainsPass(), new SegmentPass(), new ConvertToCommunicationPass(),
                new HostIrLoweringPass(),
                new AllocateAndDeallocatePass(), new AssignStreamsPass()), NvFuserGeneration.V2026_04);
    }

    /**
     * nvFuser 2026-04's MultiDeviceExecutor path: the seeds' passes as that revision runs them (StreamParallelType
     * with stream-parallel inputs allowed and {@code inter_stream_synchronization}).
     */
    public static Pipeline multiDeviceExecutor() {
        return new Pipeline(standard().passes(), NvFuserGeneration.V2026_04);
    }

    /** The default pipeline of a generation. */
    public static Pipeline of(NvFuserGeneration generation) {
        return switch (generation) {
            case V2025_06 -> standard();
            case V2026_04 -> hostIrLowering();
            case EARLY_2024, EARLY_2025 -> throw new IllegalArgumentException("nvFuser " + generation.label()
                    + " is read and printed, not lowered to");
        };
    }

    /** The pipeline the options choose ({@link ValidatePass#NVFUSER}, {@link ValidatePass#HOST_IR_LOWERING}). */
    public static Pipeline of(LoweringOptions options) {
        NvFuserGeneration g = options.nvFuser();
        return g == NvFuserGeneration.V2026_04 && !options.get(ValidatePass.HOST_IR_LOWERING) ? multiDeviceExecutor()
                : of(g);
    }

    /** Every option of every generation's pipeline, each once, in the order {@link #options()} gives. */
    public static List<LoweringOption<?>> declaredOptions() {
        Map<String, LoweringOption<?>> byKey = new LinkedHashMap<>();
        for (Pipeline p : List.of(standard(), hostIrLowering(), multiDeviceExecutor())) {
            for (LoweringOption<?> o : p.options()) byKey.putIfAbsent(o.key(), o);
        }
        return List.copyOf(byKey.values());
    }

    public List<Pass> passes() { return passes; }

    public NvFuserGeneration generation() { return generation; }

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
        return hostProgram(run(seenFrom(fusion), passes.size(), ownGeneration(context), List.of()));
    }

    /** Every pass's snapshot, whether it changed the program, and its time, for each of the given ranks. */
    public PassTrace trace(Fusion fusion, int devices, LoweringOptions requested, List<Integer> ranks) {
        LoweringOptions options = requested.with(ValidatePass.NVFUSER, generation);
        List<PassTrace.RankTrace> traces = new ArrayList<>();
        for (int rank : ranks) {
            var recorder = new StepRecorder();
            run(seenFrom(fusion), passes.size(), new LoweringContext(rank, devices, options), recorder.instruments());
            traces.add(new PassTrace.RankTrace(rank, recorder.snapshots.input(), recorder.steps(List.of())));
        }
        return new PassTrace(devices, options, traces);
    }

    /**
     * The fusion passes: the leading passes that rewrite the fusion ({@link FusionPass}es, before segmentation).
     * None reads the rank (the program becomes per rank at segmentation), so they run once for every rank.
     */
    public List<Pass> fusionPasses() { return passes.stream().takeWhile(p -> p instanceof FusionPass).toList(); }

    /**
     * The fusion passes' result, shared by every rank's lowering: the input, each fusion pass's step (snapshot,
     * changed, time) and every snapshot so far (a later refusal is moved to the file tensor it stands for).
     */
    public record FusionStage(Snapshot input, List<PassTrace.Step> steps, List<Snapshot> seen) {
        public FusionStage {
            steps = List.copyOf(steps);
            seen = List.copyOf(seen);
        }

        /** The fusion after the fusion passes. */
        public Fusion fused() { return ((Snapshot.OfFusion) seen.getLast()).fusion(); }
    }

    /** Runs the fusion passes once, in rank 0's context (they do not read the rank). */
    public FusionStage fusionStage(Fusion fusion, int devices, LoweringOptions options) {
        var recorder = new StepRecorder();
        List<Snapshot> seen = seenFrom(fusion);
        run(seen, fusionPasses().size(), ownGeneration(new LoweringContext(0, devices, options)),
                recorder.instruments());
        return new FusionStage(seen.getFirst(), recorder.steps(List.of()), seen);
    }

    /** One rank's final program: the passes after the fusion passes, from their shared result. */
    public HostIrContainer lower(FusionStage stage, LoweringContext context) {
        return hostProgram(run(new ArrayList<>(stage.seen()), passes.size(), ownGeneration(context), List.of()));
    }

    /** One rank's trace: the shared fusion passes' steps, then this rank's. */
    public PassTrace.RankTrace trace(FusionStage stage, LoweringContext context) {
        var recorder = new StepRecorder();
        run(new ArrayList<>(stage.seen()), passes.size(), ownGeneration(context), recorder.instruments());
        return new PassTrace.RankTrace(context.rank(), stage.input(), recorder.steps(stage.steps()));
    }

    private List<Snapshot> seenFrom(Fusion fusion) {
        return new ArrayList<>(List.of(new Snapshot.OfFusion(fusion, generation)));
    }

    private static HostIrContainer hostProgram(Snapshot s) {
        if (!(s instanceof Snapshot.OfHost(var program, _))) {
            throw new IllegalStateException("the pipeline ended before segmentation");
        }
        return program;
    }

    /** Snapshots, change detection and timing of the passes one run of the loop runs, as trace steps. */
    private static final class StepRecorder {
        final SnapshotCollection snapshots = new SnapshotCollection();
        final ChangeDetection changes = new ChangeDetection();
        final PassTiming timing = new PassTiming();

        List<PassInstrumentation> instruments() { return List.of(snapshots, changes, timing); }

        /** {@code before} (the shared fusion passes' steps), then this run's. */
        List<PassTrace.Step> steps(List<PassTrace.Step> before) {
            List<PassTrace.Step> steps = new ArrayList<>(before);
            List<String> names = snapshots.passes();
            for (int i = 0; i < names.size(); i++) {
                steps.add(new PassTrace.Step(names.get(i), snapshots.after().get(i), changes.changed().get(i),
                        timing.nanos().get(i)));
            }
            return steps;
        }
    }

    /** {@code context} with this pipeline's generation, which its passes and snapshots follow. */
    private LoweringContext ownGeneration(LoweringContext context) {
        LoweringOptions options = context.options();
        if (!options.declared().contains(ValidatePass.NVFUSER)) return context;
        return new LoweringContext(context.rank(), context.devices(), options.with(ValidatePass.NVFUSER, generation),
                context.fusion());
    }

    /**
     * The one pipeline loop: the passes after the snapshots in {@code seen} (the input first) up to {@code to}, this
     * pipeline's and the run's own instrumentations around each. {@code seen} grows by each pass's result; the
     * pipeline hooks fire where the run starts at the input and where it ends after the last pass.
     */
    private Snapshot run(List<Snapshot> seen, int to, LoweringContext context, List<PassInstrumentation> own) {
        List<PassInstrumentation> all = new ArrayList<>(instrumentations);
        all.addAll(own);
        List<PassInstrumentation> reversed = all.reversed();
        Snapshot input = seen.getFirst();
        int from = seen.size() - 1;
        if (from == 0) for (PassInstrumentation i : all) i.beforePipeline(input, context);
        Snapshot s = seen.getLast();
        LoweringContext passContext = context;
        for (Pass pass : passes.subList(from, to)) {
            // the passes on one rank's program see the whole fusion they came from (LoweringContext.fusion)
            if (s instanceof Snapshot.OfFusion(var whole, _)) passContext = context.withFusion(whole);
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
        if (to == passes.size()) for (PassInstrumentation i : reversed) i.afterPipeline(s, context);
        return s;
    }
}
