package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import org.hostir.studio.exec.RankThreads;
import org.junit.jupiter.api.Test;

/** The ranks' host threads: one per rank, the same one for every step of a run, failures reported by rank. */
class RankThreadsTest {
    @Test
    void everyStepOfARankRunsOnThatRanksOwnThread() throws Exception {
        Map<Integer, Thread> first = new ConcurrentHashMap<>();
        try (RankThreads hosts = new RankThreads(List.of(0, 1, 2))) {
            // all three at once: the barrier opens only if the ranks run side by side
            CyclicBarrier together = new CyclicBarrier(3);
            assertEquals(Map.of(), hosts.onEveryRank(r -> {
                first.put(r, Thread.currentThread());
                try {
                    together.await(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException("ranks did not run at once", e);
                }
            }));
            for (int step = 0; step < 5; step++) {
                assertEquals(Map.of(), hosts.onEveryRank(r -> {
                    if (Thread.currentThread() != first.get(r)) throw new IllegalStateException("rank " + r + " moved");
                }));
            }
        }
        assertEquals(3, first.values().stream().distinct().count());
        assertNotEquals(Thread.currentThread(), first.get(0));
        assertTrue(first.values().stream().allMatch(Thread::isDaemon));
        assertEquals("rank 1 host", first.get(1).getName());
        for (Thread t : first.values()) {
            t.join(10_000);
            assertFalse(t.isAlive(), t.getName() + " outlived close()");
        }
    }

    @Test
    void failuresComeBackByRankAndTheOthersFinish() throws Exception {
        Map<Integer, Boolean> finished = new ConcurrentHashMap<>();
        try (RankThreads hosts = new RankThreads(List.of(0, 1, 2, 3))) {
            Map<Integer, Throwable> errors = hosts.onEveryRank(r -> {
                if (r % 2 == 1) throw new IllegalArgumentException("rank " + r + " fails");
                finished.put(r, true);
            });
            assertEquals(List.of(1, 3), List.copyOf(errors.keySet()));
            assertEquals("rank 3 fails", errors.get(3).getMessage());
            assertEquals(Map.of(0, true, 2, true), finished);
            // an error does not cost the rank its thread
            assertEquals(Map.of(), hosts.onEveryRank(r -> { }));
        }
    }
}
