package org.hostir.studio.engine;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntFunction;

import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.Runner;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.sim.SimBackend;
import org.hostir.studio.exec.sim.SimRun;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.host.HostIrContainer;

/**
 * How a run's programs are run, with the backend {@link BackendPlan} opened: on devices (CPU, CUDA, a launcher's
 * one rank: the ranks the backend runs, together) or simulated (every rank walked for the prediction, then with
 * validation the same programs once on the CPU backend with data). The programs come from the engine's
 * {@code Compilation}, rank by rank as the strategy asks; closing the strategy closes its backend.
 */
public sealed interface RunStrategy extends AutoCloseable {

    /** Runs {@code fusion}, asking {@code programs} for each rank's program (lowered once, by the caller). */
    RunResult run(Fusion fusion, IntFunction<HostIrContainer> programs, RunConfig config, Consumer<String> progress);

    @Override
    void close();

    /** Runs on an opened backend's devices (a benchmark opens its own). */
    static RunStrategy on(Backend backend) { return new OnDevices(backend); }

    /** Predicts the run on a simulated machine. */
    static RunStrategy simulated(SimBackend backend) { return new Simulated(backend); }

    record OnDevices(Backend backend) implements RunStrategy {
        @Override
        public RunResult run(Fusion fusion, IntFunction<HostIrContainer> programs, RunConfig config,
                             Consumer<String> progress) {
            Map<Integer, HostIrContainer> ranks = new LinkedHashMap<>();
            for (int rank = 0; rank < config.devices(); rank++) {
                if (backend.runsRank(rank)) ranks.put(rank, programs.apply(rank)); // a launcher's: its own rank
            }
            return Runner.run(fusion, ranks, config, backend, progress);
        }

        @Override
        public void close() { backend.close(); }
    }

    /**
     * A simulated run; with validation, the CPU backend also runs the same programs on data (one iteration) and
     * its validation is the result's, so the prediction is of programs known to compute the right thing.
     */
    record Simulated(SimBackend backend) implements RunStrategy {
        @Override
        public RunResult run(Fusion fusion, IntFunction<HostIrContainer> programs, RunConfig config,
                             Consumer<String> progress) {
            long t0 = System.nanoTime();
            Map<Integer, HostIrContainer> all = new LinkedHashMap<>();
            for (int rank = 0; rank < config.devices(); rank++) all.put(rank, programs.apply(rank));
            progress.accept(String.format(Locale.ROOT, "lowered %d programs in %.1f s", config.devices(),
                    (System.nanoTime() - t0) / 1e9));
            RunResult predicted = SimRun.run(all, config, backend, progress);
            if (!config.validate()) return predicted;
            progress.accept("validating on the CPU backend (one iteration with data)");
            RunResult checked;
            try (CpuBackend cpu = new CpuBackend(config.devices(), config.timeoutMillis())) {
                checked = Runner.run(fusion, predicted.programs(), config.withIterations(1, 0), cpu, s -> { });
            }
            return new RunResult(predicted.backend(), predicted.programs(), predicted.iterationMillis(),
                    predicted.timeline(), predicted.peakBytes(), checked.validation(), checked.inputs(),
                    checked.outputs());
        }

        @Override
        public void close() { backend.close(); }
    }
}
