package org.hostir.studio.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Inputs;
import org.hostir.studio.exec.tensor.Sharding;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.HostIrContainer;

/**
 * Runs every rank's program of a fusion (lowered by the engine's Compilation) together on a backend, one host
 * thread per rank (as one process per GPU would), for warm-ups and timed iterations; then gathers the outputs and compares them with the
 * unsharded reference.
 */
public final class Runner {
    private Runner() {}

    /**
     * Runs given per-rank programs (lowered elsewhere, or edited by hand) of {@code fusion}. Each rank's input
     * shards are uploaded once; an iteration's time is the wall time of all ranks' programs (each ending with its
     * device synchronised); the outputs of the last iteration are downloaded after it, outside the timing.
     */
    public static RunResult run(Fusion fusion, Map<Integer, HostIrContainer> programs, RunConfig config,
                                Backend backend, Consumer<String> progress) {
        Map<Integer, DenseTensor> inputs = Inputs.generate(fusion, config.symbols(), config.seed());
        List<Double> times = new ArrayList<>();
        Map<Integer, Map<Integer, DenseTensor>> outputs = new ConcurrentHashMap<>();
        Map<Integer, Long> peaks = new HashMap<>();
        Map<Integer, Map<Integer, Buffer>> bound = new ConcurrentHashMap<>();
        try (RankThreads hosts = new RankThreads(programs.keySet(), backend.hostThreads())) {
            onEveryRank(hosts, backend, rank -> bound.put(rank, upload(programs.get(rank), inputs, backend.device(rank))));
            int total = config.warmup() + config.iterations();
            boolean adaptive = config.timedBudgetMillis() > 0;
            double previous = 0;
            for (int it = 0; it < total; it++) {
                backend.resetTimeline();
                boolean warm = it < config.warmup();
                boolean last = it == total - 1 || !warm && overBudget(config, times, previous);
                boolean keep = last || warm && adaptive; // a slow warm-up may turn out to be the one timed run
                Map<Integer, Evaluator> kept = new ConcurrentHashMap<>();
                String phase = warm ? "warm-up " + (it + 1) + "/" + config.warmup()
                        : "iteration " + (times.size() + 1) + "/" + config.iterations();
                double ms = iteration(hosts, backend, programs, config, bound, keep ? kept : null, phase, progress);
                previous = ms;
                if (warm && adaptive && ms > config.timedBudgetMillis()) { // not repeated only to warm up
                    warm = false;
                    last = true;
                }
                if (!warm) times.add(ms);
                progress.accept(String.format(java.util.Locale.ROOT, "%s %d/%d: %.2f ms", warm ? "warm-up"
                        : "iteration", warm ? it + 1 : times.size(), warm ? config.warmup() : config.iterations(), ms));
                for (int r : programs.keySet()) peaks.put(r, backend.device(r).peakBytes());
                if (last) {
                    onEveryRank(hosts, backend, rank -> outputs.put(rank, download(programs.get(rank),
                            kept.get(rank), backend.device(rank))));
                    if (times.size() < config.iterations()) stopped(config, times, it < config.warmup(), progress);
                    break;
                }
                if (keep) onEveryRank(hosts, backend, rank -> kept.get(rank).release());
            }
        } finally {
            for (var e : bound.entrySet()) {
                Device device = backend.device(e.getKey());
                e.getValue().values().forEach(b -> device.free(b, device.userStream()));
            }
        }
        Optional<Validation> validation = config.validate()
                ? Optional.of(validate(fusion, inputs, outputs, programs.size() == config.devices(), config, backend,
                        progress))
                : Optional.empty();

        return new RunResult(backend.name(), programs, times, backend.timeline(), peaks, validation, inputs, outputs);
    }

    /**
     * One iteration of every rank's program, its wall time in ms; each rank's evaluator goes to {@code kept} (null:
     * released at once). A long one says how many ranks are done ({@link Heartbeat}).
     */
    private static double iteration(RankThreads hosts, Backend backend, Map<Integer, HostIrContainer> programs,
                                    RunConfig config, Map<Integer, Map<Integer, Buffer>> bound,
                                    Map<Integer, Evaluator> kept, String phase, Consumer<String> progress) {
        long t0 = System.nanoTime();
        try (Heartbeat beat = new Heartbeat(phase, programs.size(), backend::streamWork, progress)) {
            onEveryRank(hosts, backend, rank -> {
                Evaluator evaluator = new Evaluator(programs.get(rank), backend.device(rank),
                        new ScalarEnv(config.symbols(), rank, config.streams()), bound.get(rank));
                evaluator.run();
                if (kept != null) kept.put(rank, evaluator);
                else evaluator.release();
                beat.rankDone();
            });
        }
        return (System.nanoTime() - t0) / 1e6;
    }

    /** The outputs against the reference, saying so while it takes long and how long it took. */
    private static Validation validate(Fusion fusion, Map<Integer, DenseTensor> inputs,
                                       Map<Integer, Map<Integer, DenseTensor>> outputs, boolean everyRank,
                                       RunConfig config, Backend backend, Consumer<String> progress) {
        long v0 = System.nanoTime();
        Validation v;
        try (Heartbeat beat = new Heartbeat("validating the outputs against the reference", 0, progress)) {
            v = OutputValidator.validate(fusion, inputs, outputs, everyRank, config.validation(), config.seed(),
                    backend.computesWideInFloat64());
        }
        progress.accept(String.format(java.util.Locale.ROOT, "validated in %.2f s", (System.nanoTime() - v0) / 1e9));
        return v;
    }

    private static void stopped(RunConfig config, List<Double> times, boolean warmUp, Consumer<String> progress) {
        progress.accept(String.format(java.util.Locale.ROOT, "timing stopped after %d of %d iterations: %s %.1f s"
                + " (--iterations N times exactly N)", times.size(), config.iterations(), warmUp
                ? "the warm-up, timed as the one iteration, took more than" : "one more would pass",
                config.timedBudgetMillis() / 1000.0));
    }

    /** Whether one more iteration, as long as the one before, would take the timed ones past the budget. */
    private static boolean overBudget(RunConfig config, List<Double> times, double previous) {
        if (config.timedBudgetMillis() <= 0) return false;
        double timed = times.stream().mapToDouble(Double::doubleValue).sum();
        return timed + 2 * previous > config.timedBudgetMillis();
    }

    /** Runs {@code body} for every rank on its host thread, as one process per GPU would, and waits. */
    private static void onEveryRank(RankThreads hosts, Backend backend, java.util.function.IntConsumer body) {
        AtomicReference<RuntimeException> bug = new AtomicReference<>();
        Map<Integer, Throwable> errors = hosts.onEveryRank(rank -> {
            try {
                body.accept(rank);
            } catch (RuntimeException e) {
                // what a rank throws first that is no run failure is a bug (what the others throw after the abort
                // are its consequences)
                if (!(e instanceof RunFailure) && backend.failure().isEmpty()) bug.compareAndSet(null, e);
                // the others may wait for this rank in a collective: the backend ends their waits (not on an
                // out-of-memory, which the backend survives and reports itself)
                if (!(e instanceof DeviceOutOfMemory)) backend.abort(RunFailure.of(e).within("rank " + rank));
                throw e;
            }
        });
        rethrowBug(bug.get(), backend);
        var first = errors.isEmpty() ? null : new java.util.TreeMap<>(errors).firstEntry();
        if (first != null && first.getValue() instanceof DeviceOutOfMemory oom) throw oom; // it names its rank
        Optional<RunFailure> failure = backend.failure();
        if (failure.isPresent()) throw new ExecutionException(failure.get());
        if (first != null) {
            throw new ExecutionException(RunFailure.of(first.getValue()).within("rank " + first.getKey()));
        }
    }

    /** A bug of a rank or a backend thread is thrown as itself: an internal error, not a failed run in words. */
    private static void rethrowBug(RuntimeException rank, Backend backend) {
        if (rank != null) throw rank;
        Optional<Throwable> bug = backend.bug();
        if (bug.isPresent() && bug.get() instanceof RuntimeException e) throw e;
        if (bug.isPresent() && bug.get() instanceof Error e) throw e;
    }

    /** This rank's shards of the fusion inputs, on its device (the debugger's run uploads them the same way). */
    public static Map<Integer, Buffer> upload(HostIrContainer program, Map<Integer, DenseTensor> inputs,
                                               Device device) {
        Map<Integer, Buffer> bound = new HashMap<>();
        for (TensorView in : program.inputs()) {
            Optional<DenseTensor> shard = Sharding.shard(in, inputs.get(in.id()), device.rank());
            try {
                shard.ifPresent(t -> bound.put(in.id(), device.upload(t)));
            } catch (DeviceOutOfMemory e) {
                throw e.naming("input " + Evaluator.describe(in), in);
            }
        }
        device.synchronize();
        return bound;
    }

    /** The outputs the last iteration left on this rank, by output position; then the evaluator lets them go. */
    public static Map<Integer, DenseTensor> download(HostIrContainer program, Evaluator evaluator, Device device) {
        Map<Integer, DenseTensor> byPosition = new HashMap<>();
        Map<Integer, Buffer> results = evaluator.outputs();
        for (int i = 0; i < program.outputs().size(); i++) {
            Buffer b = results.get(program.outputs().get(i).id());
            if (b != null) byPosition.put(i, device.download(b));
        }
        evaluator.release();
        device.synchronize();
        return byPosition;
    }
}
