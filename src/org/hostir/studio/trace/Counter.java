package org.hostir.studio.trace;

import java.util.List;
import java.util.Objects;

/**
 * A value of one rank over time, drawn as Perfetto draws counters and written as Chrome-trace {@code C} events:
 * memory in use, bytes in flight. Each sample holds from its time until the next one.
 */
public record Counter(int rank, String name, String unit, List<Sample> samples) {
    /** The counter's value from {@code timeNs} on. */
    public record Sample(long timeNs, long value) {
    }

    public Counter {
        Objects.requireNonNull(name);
        Objects.requireNonNull(unit);
        samples = List.copyOf(samples);
    }

    /** The largest value the counter reaches (0 when it has no samples). */
    public long peak() {
        return samples.stream().mapToLong(Sample::value).max().orElse(0);
    }
}
