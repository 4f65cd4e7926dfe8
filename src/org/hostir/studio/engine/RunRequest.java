package org.hostir.studio.engine;

import java.util.Optional;

import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.exec.launch.LauncherEnv;
import org.hostir.studio.lower.LoweringOptions;

/**
 * What a front end asks of a run: the backend it wants ({@link BackendChoice}), the devices (ranks), the lowering
 * options, timing (iterations after warm-ups), validation, the input seed, how long a run may make no progress,
 * the CUDA variants (ranks sharing GPUs, one rank of a launcher's processes, host timing only), and the hardware
 * profile a simulation predicts for ({@code sim}: a built-in profile's name or a profile file).
 */
public record RunRequest(BackendChoice backend, int devices, LoweringOptions options, int iterations, int warmup,
                         ValidationMode validation, long seed, long timeoutMillis, boolean shareGpus,
                         Optional<LauncherEnv> launcher, boolean hostTimingOnly, String profile) {
    public enum BackendChoice { AUTO, CPU, CUDA, SIM }

    /** The profile {@code --backend sim} uses when none is named. */
    public static final String DEFAULT_PROFILE = "h200x8-nvlink";

    /** A request on a real backend (no simulation profile). */
    public RunRequest(BackendChoice backend, int devices, LoweringOptions options, int iterations, int warmup,
                      ValidationMode validation, long seed, long timeoutMillis, boolean shareGpus,
                      Optional<LauncherEnv> launcher, boolean hostTimingOnly) {
        this(backend, devices, options, iterations, warmup, validation, seed, timeoutMillis, shareGpus, launcher,
                hostTimingOnly, DEFAULT_PROFILE);
    }

    public static final long DEFAULT_TIMEOUT_MILLIS = 20_000;
    public static final long DEFAULT_SEED = 42;

    /** {@code validate}: the default validation, else none. */
    public RunRequest(BackendChoice backend, int devices, LoweringOptions options, int iterations, int warmup,
                      boolean validate, long seed, long timeoutMillis, boolean shareGpus,
                      Optional<LauncherEnv> launcher, boolean hostTimingOnly) {
        this(backend, devices, options, iterations, warmup, validate ? ValidationMode.AUTO : ValidationMode.OFF, seed,
                timeoutMillis, shareGpus, launcher, hostTimingOnly);
    }

    public boolean validate() { return validation != ValidationMode.OFF; }

    /** One validated iteration on the CPU backend: what the Studio's "Run on CPU" does. */
    public static RunRequest cpu(int devices, LoweringOptions options) {
        return new RunRequest(BackendChoice.CPU, devices, options, 1, 0, true, DEFAULT_SEED,
                DEFAULT_TIMEOUT_MILLIS, false, Optional.empty(), false);
    }
}
