package org.hostir.studio.engine;

import java.util.Optional;

import org.hostir.studio.exec.launch.LauncherEnv;
import org.hostir.studio.lower.LoweringOptions;

/**
 * What a front end asks of a run: the backend it wants ({@link BackendChoice}), the devices (ranks), the lowering
 * options, timing (iterations after warm-ups), validation, the input seed, how long a run may make no progress,
 * and the CUDA variants (ranks sharing GPUs, one rank of a launcher's processes, host timing only).
 */
public record RunRequest(BackendChoice backend, int devices, LoweringOptions options, int iterations, int warmup,
                         boolean validate, long seed, long timeoutMillis, boolean shareGpus,
                         Optional<LauncherEnv> launcher, boolean hostTimingOnly, long timedBudgetMillis) {
    public enum BackendChoice { AUTO, CPU, CUDA }

    /** Timing exactly {@code iterations} (no time budget, {@link org.hostir.studio.exec.RunConfig}). */
    public RunRequest(BackendChoice backend, int devices, LoweringOptions options, int iterations, int warmup,
                      boolean validate, long seed, long timeoutMillis, boolean shareGpus,
                      Optional<LauncherEnv> launcher, boolean hostTimingOnly) {
        this(backend, devices, options, iterations, warmup, validate, seed, timeoutMillis, shareGpus, launcher,
                hostTimingOnly, 0);
    }

    public static final long DEFAULT_TIMEOUT_MILLIS = 20_000;
    public static final long DEFAULT_SEED = 42;

    /** One validated iteration on the CPU backend: what the Studio's "Run on CPU" does. */
    public static RunRequest cpu(int devices, LoweringOptions options) {
        return new RunRequest(BackendChoice.CPU, devices, options, 1, 0, true, DEFAULT_SEED,
                DEFAULT_TIMEOUT_MILLIS, false, Optional.empty(), false);
    }
}
