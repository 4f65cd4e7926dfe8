package org.hostir.studio.lower;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.host.HostIrContainer;

/**
 * One fusion lowered for a device count and options, the one product every reader of a lowering shares (check,
 * the run's up-front checks, every backend's run, the simulator, the views): the fusion passes run once, on first
 * need ({@link Pipeline#fusionStage}: they are the same on every rank); each rank's Host IR program is lowered
 * on demand from their result and kept, and so is a refusal. The pass trace is made only when asked: for the
 * ranks in {@code traced}, whose lowering keeps its trace, or by {@link #trace} for any rank. Built by the
 * engine; safe to share between threads (a view's job and the display).
 */
public final class Compilation {
    private final Pipeline pipeline;
    private final Fusion fusion;
    private final int devices;
    private final LoweringOptions options;
    private final Set<Integer> traced;
    private Pipeline.FusionStage stage;
    private LoweringException stageRefused;
    private int stageRuns;
    private final Map<Integer, HostIrContainer> programs = new HashMap<>();
    /**
     * One instance of each distinct program: ranks whose programs are equal (every rank of most fusions) share it,
     * so that what a 16,384-rank simulation keeps does not grow with the ranks (issue 38: ag_matmul's 16,384 ranks
     * run in a 24 MiB heap, as its 64 do; more than 40 MiB with a program kept per rank).
     */
    private final Map<HostIrContainer, HostIrContainer> distinct = new HashMap<>();
    private final Map<Integer, LoweringException> refused = new HashMap<>();
    private final Map<Integer, PassTrace.RankTrace> traces = new HashMap<>();
    private final Map<Integer, Integer> lowerings = new HashMap<>();

    private Compilation(Pipeline pipeline, Fusion fusion, int devices, LoweringOptions options, Set<Integer> traced) {
        if (devices < 1) throw new IllegalArgumentException("devices must be >= 1");
        this.pipeline = pipeline;
        this.fusion = fusion;
        this.devices = devices;
        this.options = options;
        this.traced = Set.copyOf(traced);
    }

    /** {@code fusion} on {@code devices} with {@code options}; nothing is lowered yet. */
    public static Compilation of(Pipeline pipeline, Fusion fusion, int devices, LoweringOptions options,
                                 Set<Integer> traced) {
        return new Compilation(pipeline, fusion, devices, options, traced);
    }

    /** As above with the pipeline the options choose ({@link Pipeline#of(LoweringOptions)}). */
    public static Compilation of(Fusion fusion, int devices, LoweringOptions options, Set<Integer> traced) {
        return of(Pipeline.of(options), fusion, devices, options, traced);
    }

    public Fusion fusion() { return fusion; }

    public int devices() { return devices; }

    public LoweringOptions options() { return options; }

    /** The fusion after the fusion passes (their refusal, if they refuse). */
    public synchronized Fusion fused() { return stage().fused(); }

    /** Rank {@code rank}'s final program (its refusal, if it refuses), lowered the first time it is asked for. */
    public synchronized HostIrContainer program(int rank) {
        HostIrContainer program = programs.get(rank);
        if (program != null) return program;
        if (refused.containsKey(rank)) throw refused.get(rank);
        if (traced.contains(rank)) {
            trace(rank);
            return programs.get(rank);
        }
        return lowered(rank, () -> pipeline.lower(stage(), context(rank)));
    }

    /** The programs of the ranks {@code which} accepts, in rank order, each lowered at most once. */
    public Map<Integer, HostIrContainer> programs(IntPredicate which) {
        Map<Integer, HostIrContainer> out = new LinkedHashMap<>();
        for (int rank = 0; rank < devices; rank++) if (which.test(rank)) out.put(rank, program(rank));
        return out;
    }

    /**
     * Rank {@code rank}'s pass trace: kept for a traced rank; for another rank made now and not kept (every rank's
     * snapshots at once need not fit), lowering it again if its program was lowered without one.
     */
    public synchronized PassTrace.RankTrace trace(int rank) {
        PassTrace.RankTrace kept = traces.get(rank);
        if (kept != null) return kept;
        if (refused.containsKey(rank)) throw refused.get(rank);
        PassTrace.RankTrace[] made = new PassTrace.RankTrace[1];
        lowered(rank, () -> {
            made[0] = pipeline.trace(stage(), context(rank));
            return ((Snapshot.OfHost) made[0].result()).container();
        });
        if (traced.contains(rank)) traces.put(rank, made[0]);
        return made[0];
    }

    /** How many times the fusion passes ran (at most once). */
    public synchronized int fusionStageRuns() { return stageRuns; }

    /** How many times rank {@code rank} was lowered (its passes after the fusion passes). */
    public synchronized int lowerings(int rank) { return lowerings.getOrDefault(rank, 0); }

    private LoweringContext context(int rank) { return new LoweringContext(rank, devices, options); }

    private Pipeline.FusionStage stage() {
        if (stageRefused != null) throw stageRefused;
        if (stage == null) {
            stageRuns++;
            try {
                stage = pipeline.fusionStage(fusion, devices, options);
            } catch (LoweringException e) {
                stageRefused = e;
                throw e;
            }
        }
        return stage;
    }

    /** Lowers {@code rank} once with {@code lower}, keeping the program or the refusal. */
    private HostIrContainer lowered(int rank, Supplier<HostIrContainer> lower) {
        stage(); // a refusal of the fusion passes is every rank's, and lowers no rank
        lowerings.merge(rank, 1, Integer::sum);
        try {
            HostIrContainer program = distinct.computeIfAbsent(lower.get(), p -> p);
            programs.putIfAbsent(rank, program); // a trace asked for later leaves the first program
            return programs.get(rank);
        } catch (LoweringException e) {
            refused.put(rank, e);
            throw e;
        }
    }
}
