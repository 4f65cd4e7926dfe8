package org.hostir.studio.exec.cpu;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.hostir.studio.exec.Blockage;

/**
 * Where the ranks of a collective meet. A collective is identified as NCCL identifies it: its communicator (the
 * team) and its position in the order that communicator's calls were posted on each rank. The last rank to
 * arrive computes every rank's result; each rank then takes its own. Each meeting is its own monitor, so an
 * arrival wakes only the ranks of that collective (one shared monitor woke every waiting rank at every arrival:
 * a million wake-ups per collective of 1,024 ranks).
 */
final class Rendezvous {
    record Key(List<Integer> team, long sequence) {}

    private static final class Meeting {
        final Map<Integer, Object> contributions = new HashMap<>();
        Map<Integer, Object> results;
        int collected;
    }

    private final Blocking blocking;
    private final Map<Key, Meeting> meetings = new HashMap<>();

    Rendezvous(Blocking blocking) { this.blocking = blocking; }

    /**
     * Contributes to the collective {@code key} and waits for everyone; {@code combine} maps all contributions
     * (by rank) to all results (by rank) and may throw {@link IllegalStateException} when the ranks disagree.
     */
    /** The ranks that have contributed to {@code key} so far (none when it has not met or is over). */
    java.util.Set<Integer> arrived(Key key) {
        Meeting m;
        synchronized (this) {
            m = meetings.get(key);
        }
        if (m == null) return java.util.Set.of();
        synchronized (m) {
            return java.util.Set.copyOf(m.contributions.keySet());
        }
    }

    Object meet(Key key, int rank, Object contribution, Function<Map<Integer, Object>, Map<Integer, Object>> combine,
                Blockage what) {
        Meeting m;
        synchronized (this) {
            m = meetings.computeIfAbsent(key, k -> new Meeting());
        }
        synchronized (m) {
            m.contributions.put(rank, contribution);
            if (m.contributions.size() == key.team().size()) {
                try {
                    m.results = combine.apply(m.contributions);
                } catch (IllegalStateException mismatch) {
                    blocking.fail("collective #" + key.sequence() + " of team " + key.team() + ": "
                            + mismatch.getMessage());
                    throw new Blocking.Aborted();
                } finally {
                    m.notifyAll();
                }
            }
        }
        blocking.await(m, () -> m.results != null, what);
        synchronized (m) {
            Object mine = m.results.get(rank);
            if (++m.collected == key.team().size()) {
                synchronized (this) {
                    meetings.remove(key);
                }
            }
            return mine;
        }
    }
}
