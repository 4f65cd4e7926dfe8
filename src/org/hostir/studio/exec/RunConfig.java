package org.hostir.studio.exec;

import java.util.Map;

import org.hostir.studio.lower.LoweringOptions;

/**
 * How to run a fusion: on how many devices, with which symbol values (user names, D included), lowering
 * options, how many timed iterations after how many warm-ups, whether to validate against the unsharded
 * reference, the input seed, and how long a run may make no progress before it is declared stuck.
 */
public record RunConfig(int devices, Map<String, Long> symbols, LoweringOptions options, int iterations, int warmup,
                        ValidationMode validation, long seed, long timeoutMillis) {
    public RunConfig {
        if (devices < 1) throw new IllegalArgumentException("devices must be >= 1");
        if (iterations < 1) throw new IllegalArgumentException("iterations must be >= 1");
        if (warmup < 0) throw new IllegalArgumentException("warmup must be >= 0");
        symbols = Map.copyOf(symbols);
    }

    /** {@code validate}: the default validation (whole up to a size, sampled beyond), else none. */
    public RunConfig(int devices, Map<String, Long> symbols, LoweringOptions options, int iterations, int warmup,
                     boolean validate, long seed, long timeoutMillis) {
        this(devices, symbols, options, iterations, warmup, validate ? ValidationMode.AUTO : ValidationMode.OFF, seed,
                timeoutMillis);
    }

    public boolean validate() { return validation != ValidationMode.OFF; }

    public static RunConfig of(int devices, Map<String, Long> symbols, LoweringOptions options) {
        return new RunConfig(devices, symbols, options, 1, 0, true, 42, 20_000);
    }

    public RunConfig withIterations(int n, int w) {
        return new RunConfig(devices, symbols, options, n, w, validation, seed, timeoutMillis);
    }

    public RunConfig withTimeout(long millis) {
        return new RunConfig(devices, symbols, options, iterations, warmup, validation, seed, millis);
    }
}
