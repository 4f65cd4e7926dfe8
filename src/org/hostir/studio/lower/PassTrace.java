package org.hostir.studio.lower;

import java.util.List;

/** What the pass inspector and {@code lower --passes} show: per rank, the program after each pass. */
public record PassTrace(int devices, LoweringOptions options, List<RankTrace> ranks) {
    public PassTrace {
        ranks = List.copyOf(ranks);
    }

    /** One pass's result: its name, the snapshot after it, whether it changed anything, and its time. */
    public record Step(String pass, Snapshot after, boolean changed, long nanos) {}

    /** The input fusion and every step, for one rank. */
    public record RankTrace(int rank, Snapshot input, List<Step> steps) {
        public RankTrace {
            steps = List.copyOf(steps);
        }

        public Snapshot result() { return steps.isEmpty() ? input : steps.get(steps.size() - 1).after(); }

        /** The snapshot before step {@code i}. */
        public Snapshot before(int i) { return i == 0 ? input : steps.get(i - 1).after(); }
    }

    public RankTrace rank(int rank) {
        return ranks.stream().filter(r -> r.rank() == rank).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no trace for rank " + rank));
    }
}
