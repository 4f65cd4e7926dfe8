package org.hostir.studio.exec.debug;

import java.util.List;
import java.util.Optional;

/**
 * A stop of a debugged run: the run at rest (every rank's host held, done issuing or ended, and no stream able to
 * move), numbered from 1. {@code ended}: every rank has ended (finished, failed or terminated) and the outputs are
 * in; {@code stuck}: no rank's host can post anything more yet some stream waits, so the run can never end.
 */
public record DebugStop(int number, List<RankStop> ranks, WaitGraph waits, boolean ended, boolean stuck,
                        Optional<String> failure) {
    public DebugStop {
        ranks = List.copyOf(ranks);
    }

    public RankStop rank(int r) {
        return ranks.stream().filter(s -> s.rank() == r).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no rank " + r + " in this run"));
    }
}
