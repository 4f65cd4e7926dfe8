package org.hostir.studio.exec.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.Evaluator;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.ScalarEnv;
import org.hostir.studio.ir.RankRanges;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.HostIrContainer;

/**
 * A run on the {@link SimBackend}: every rank's program (lowered by the engine) is evaluated as on a real backend,
 * one rank after the other on the calling thread (the host never waits inside a program, so no thread per rank is
 * needed),
 * then the discrete-event simulation times all of it. One simulated iteration stands for every iteration: the
 * model is deterministic. The result's iteration time is the predicted span; it has no tensors.
 */
public final class SimRun {
    private SimRun() {}

    /**
     * Simulates given per-rank programs (all ranks of the run): under a {@link Symmetry} of the profile, ranks
     * 0 .. period-1 for all, every other rank's work checked against theirs; every rank when the check fails or the
     * property {@value #EVERY_RANK} is true.
     */
    public static RunResult run(Map<Integer, HostIrContainer> programs, RunConfig config, SimBackend backend,
                                Consumer<String> progress) {
        return run(programs, config, backend, progress, !Boolean.getBoolean(EVERY_RANK));
    }

    /** As above; {@code symmetric}: use a symmetry where the check allows it, else simulate every rank. */
    public static RunResult run(Map<Integer, HostIrContainer> programs, RunConfig config, SimBackend backend,
                                Consumer<String> progress, boolean symmetric) {
        long t0 = System.nanoTime();
        int period = symmetric ? Symmetry.period(backend.profile(), config.devices()) : config.devices();
        Map<Integer, Long> peaks = new HashMap<>();
        String shortcut = "";
        if (period < config.devices()) {
            try {
                backend.reset(period);
                Proof proof = Proof.of(programs, config, period, backend);
                walk(programs, config, backend, peaks, proof);
                if (backend.simulate() >= 0 && backend.failure().isEmpty()) {
                    shortcut = String.format(Locale.ROOT, "; %s simulated for all %d, %s", representatives(period),
                            config.devices(), proof.said(period));
                }
            } catch (Symmetry.Broken e) {
                // said in the user's terms: which op of which rank differed is the simulator's business
                progress.accept(String.format(Locale.ROOT, "simulating all %d ranks one by one: their programs are"
                        + " not those of %s repeated", config.devices(), representatives(period)));
                if (Boolean.getBoolean(DEBUG)) progress.accept("  (the symmetry's check: " + e.getMessage() + ")");
            }
        }
        if (shortcut.isEmpty()) {
            backend.reset(config.devices());
            walk(programs, config, backend, peaks, Proof.NONE);
            backend.simulate();
        }
        Optional<RunFailure> failure = backend.failure();
        if (failure.isPresent()) throw new ExecutionException(failure.get());
        double ms = backend.spanUs() / 1000;
        progress.accept(String.format(Locale.ROOT, "simulated: %.3f ms predicted on %s (%.1f s%s)", ms,
                backend.profile().name(), (System.nanoTime() - t0) / 1e9, shortcut));
        backend.routingSummary().ifPresent(progress);
        return new RunResult(backend.name(), programs, List.of(ms), backend.timeline(), peaks, Optional.empty(),
                Map.of(), Map.of());
    }

    /** {@code rank 0} or {@code ranks 0-7}: the ranks simulated for all under a period. */
    private static String representatives(int period) {
        return RankRanges.ranks(IntStream.range(0, period).boxed().toList());
    }

    /** Property: simulate every rank, even where a {@link Symmetry} allows fewer (to compare the two). */
    public static final String EVERY_RANK = "hirstudio.sim.everyRank";

    /**
     * Property: the host time, in microseconds, that the ranks walk between two steps of the simulation when every
     * rank is simulated ({@link RankLockstep}; default 10000); 0: every rank walked first, then simulated (as before
     * 2026-11-29: every op held at once).
     */
    public static final String WINDOW = "hirstudio.sim.windowUs";

    /**
     * Property: also say which op of which rank broke the symmetry, in the simulator's terms, under the plain note
     * that every rank is simulated (for whoever works on the simulator; a user needs only the note).
     */
    public static final String DEBUG = "hirstudio.sim.debug";

    /**
     * Property: no rank's walk parked while all it could issue waits for its own unfinished work ({@link
     * RankLockstep}): every rank walked to each horizon, as before 2026-11-29 evening (to compare).
     */
    public static final String NO_PARKING = "hirstudio.sim.noParking";

    /** Property: the ops a rank must have in flight before it is parked ({@link RankLockstep}; default 64). */
    public static final String PARK_AT_OPS = "hirstudio.sim.parkAtOps";

    /** Property: no {@link RankShift} proof, every rank walked and checked (the shortcut as it was, to compare). */
    public static final String NO_PROOF = "hirstudio.sim.noProof";

    /**
     * Which ranks need no walk under a symmetry: those whose program is their representative's, proved to be
     * walked alike on every rank a multiple of the period apart ({@link RankShift}), and whose bars the timeline
     * does not keep (a traced rank is walked and checked by its {@link Symmetry.Mirror}, so that its host row is its
     * own). {@code why}: the representatives' first reason against the proof, or null.
     */
    private record Proof(IntPredicate skipped, String why) {
        static final Proof NONE = new Proof(r -> false, "not tried");

        static Proof of(Map<Integer, HostIrContainer> programs, RunConfig config, int period, SimBackend backend) {
            if (Boolean.getBoolean(NO_PROOF)) return new Proof(r -> false, "-D" + NO_PROOF + "=true");
            String why = null;
            for (int r = 0; r < period && why == null; r++) {
                why = RankShift.whyNot(programs.get(r), config.devices(), period, config.symbols(), config.streams());
            }
            if (why != null) return new Proof(r -> false, why);
            return new Proof(r -> r >= period && !backend.traced(r)
                    && programs.get(r).equals(programs.get(r % period)), null);
        }

        String said(int period) {
            return why == null ? "the others proved to be theirs shifted by a multiple of " + period
                    + " (the traced ones checked)" : "the others checked to be theirs shifted by a multiple of " + period
                    + " (no proof: " + why + ")";
        }
    }

    /**
     * Walks every rank's program on its simulated device: representatives first, then the ranks they stand for.
     * Every rank simulated (no proof, no representatives): the ranks walked in step with the simulation
     * ({@link RankLockstep}), which then holds only the ops in flight, unless its window is infinite.
     */
    private static void walk(Map<Integer, HostIrContainer> programs, RunConfig config, SimBackend backend,
                             Map<Integer, Long> peaks, Proof proof) {
        int period = backend.period();
        if (period == config.devices() && RankLockstep.windowUs() < Double.POSITIVE_INFINITY) {
            RankLockstep lockstep = new RankLockstep(backend, config.devices());
            List<Integer> ranks = new ArrayList<>();
            Map<HostIrContainer, Integer> bounds = new java.util.IdentityHashMap<>(); // equal programs: one copy
            for (int rank = 0; rank < config.devices(); rank++) {
                SimDevice device = (SimDevice) backend.device(rank);
                device.lockstep(lockstep);
                if (!Boolean.getBoolean(NO_PARKING)) {
                    device.streamBound(bounds.computeIfAbsent(programs.get(rank),
                            p -> StreamBound.of(p, config.symbols(), config.streams())));
                }
                ranks.add(rank);
            }
            lockstep.walk(ranks, rank -> walkOne(programs.get(rank), config, backend, rank));
            for (int rank = 0; rank < config.devices(); rank++) peaks.put(rank, backend.device(rank).peakBytes());
            return;
        }
        for (int rank = 0; rank < config.devices(); rank++) {
            if (proof.skipped().test(rank)) {
                peaks.put(rank, peaks.get(rank % period)); // the same allocations, of shapes no rank changes
                continue;
            }
            SimDevice device = (SimDevice) backend.device(rank);
            SimDevice representative = (SimDevice) backend.device(rank % period);
            if (period < config.devices() && rank < period) device.keepOps();
            if (rank >= period) {
                device.mirror(new Symmetry.Mirror(rank, rank - rank % period, config.devices(),
                        representative.keptOps()));
            }
            walkOne(programs.get(rank), config, backend, rank);
            if (rank >= period) device.mirrorDone(representative.hostUs());
            peaks.put(rank, device.peakBytes());
        }
    }

    /** Evaluates {@code rank}'s program on its simulated device to the end. */
    private static void walkOne(HostIrContainer program, RunConfig config, SimBackend backend, int rank) {
        SimDevice device = (SimDevice) backend.device(rank);
        ScalarEnv env = new ScalarEnv(config.symbols(), rank, config.streams());
        Evaluator evaluator = new Evaluator(program, device, env, inputs(program, env, device));
        evaluator.run();
        evaluator.release();
    }

    /** The rank's input shards as shapes, for the inputs whose mesh holds the rank. */
    private static Map<Integer, Buffer> inputs(HostIrContainer program, ScalarEnv env, SimDevice device) {
        Map<Integer, Buffer> bound = new HashMap<>();
        for (TensorView in : program.inputs()) {
            if (in.mesh() != null && !in.mesh().contains(device.rank())) continue;
            bound.put(in.id(), device.allocate(env.localShape(in), in.dtype()));
        }
        return bound;
    }
}
