package org.hostir.studio.exec;

import java.util.Map;

/**
 * How to run a fusion's programs: on how many devices, with which symbol values (user names, D included), how
 * many streams the lowering gave a stream loop (its {@code numberOfStreams} option: exec reads no lowering), how
 * many timed iterations after how many warm-ups, how to validate against the unsharded reference, the input seed, how long a run may make no progress before it is declared stuck, and the time budget of the
 * timed iterations.
 *
 * <p>{@code timedBudgetMillis}: 0 times exactly {@code iterations}; more stops timing once the timed iterations,
 * with the next one estimated by the last, would pass it (at least one is timed): the command line's default,
 * so a slow run (1,024 devices) is not repeated five times while a fast one still gets a median of five.
 */
public record RunConfig(int devices, Map<String, Long> symbols, int streams, int iterations, int warmup,
                        ValidationMode validation, long seed, long timeoutMillis, long timedBudgetMillis) {
    public RunConfig {
        if (devices < 1) throw new IllegalArgumentException("devices must be >= 1");
        if (iterations < 1) throw new IllegalArgumentException("iterations must be >= 1");
        if (warmup < 0) throw new IllegalArgumentException("warmup must be >= 0");
        symbols = Map.copyOf(symbols);
    }

    /** Exactly {@code iterations} timed iterations. */
    public RunConfig(int devices, Map<String, Long> symbols, int streams, int iterations, int warmup,
                     ValidationMode validation, long seed, long timeoutMillis) {
        this(devices, symbols, streams, iterations, warmup, validation, seed, timeoutMillis, 0);
    }

    /** {@code validate}: the default validation (whole up to a size, sampled beyond), else none. */
    public RunConfig(int devices, Map<String, Long> symbols, int streams, int iterations, int warmup,
                     boolean validate, long seed, long timeoutMillis) {
        this(devices, symbols, streams, iterations, warmup, validate ? ValidationMode.AUTO : ValidationMode.OFF, seed,
                timeoutMillis);
    }

    public boolean validate() { return validation != ValidationMode.OFF; }

    public static RunConfig of(int devices, Map<String, Long> symbols, int streams) {
        return new RunConfig(devices, symbols, streams, 1, 0, true, 42, 20_000);
    }

    public RunConfig withIterations(int n, int w) {
        return new RunConfig(devices, symbols, streams, n, w, validation, seed, timeoutMillis, timedBudgetMillis);
    }

    public RunConfig withTimeout(long millis) {
        return new RunConfig(devices, symbols, streams, iterations, warmup, validation, seed, millis,
                timedBudgetMillis);
    }
}
