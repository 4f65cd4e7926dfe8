package org.hostir.studio.trace;

import java.util.List;
import java.util.Optional;

/**
 * How a bar's work splits over its parts, declared once for every backend, the Chrome trace file and the
 * timeline's details panel: the bytes a rank sends to each rank in one exchange of an AllToAllv, MoeDispatch or
 * MoeCombine ({@link Unit#BYTES_TO_RANK}: {@code counts[r]} to rank r, its own rank's entry the local copy), or
 * the rows of each group (expert) of a grouped_mm ({@link Unit#ROWS_PER_GROUP}: {@code counts[g]} rows of group
 * g along the axis the offsets split). {@code exchange} names the exchange a bar belongs to ("Dispatch 5 x"), so
 * that the bars of one exchange on every rank make one rank x rank matrix; empty for a grouped_mm.
 */
public record Breakdown(Unit unit, String exchange, List<Long> counts) {
    /** What the counts count; {@link #key()} is the Chrome trace's arg name. */
    public enum Unit {
        BYTES_TO_RANK("bytes_to_rank"), ROWS_PER_GROUP("rows_per_group");

        private final String key;

        Unit(String key) { this.key = key; }

        public String key() { return key; }

        public static Optional<Unit> ofKey(String key) {
            for (Unit u : values()) if (u.key.equals(key)) return Optional.of(u);
            return Optional.empty();
        }
    }

    public Breakdown {
        java.util.Objects.requireNonNull(unit);
        java.util.Objects.requireNonNull(exchange);
        counts = List.copyOf(counts);
    }

    public static Breakdown bytesToRank(String exchange, long[] bytes) {
        return new Breakdown(Unit.BYTES_TO_RANK, exchange, boxed(bytes));
    }

    /** The rows of each group from grouped_mm's offsets, the end of each group (GroupedMmaOp's fallback). */
    public static Breakdown rowsPerGroup(long[] ends) {
        long[] rows = new long[ends.length];
        for (int g = 0; g < ends.length; g++) rows[g] = ends[g] - (g == 0 ? 0 : ends[g - 1]);
        return new Breakdown(Unit.ROWS_PER_GROUP, "", boxed(rows));
    }

    public long total() { return counts.stream().mapToLong(Long::longValue).sum(); }

    private static List<Long> boxed(long[] values) { return java.util.Arrays.stream(values).boxed().toList(); }
}
