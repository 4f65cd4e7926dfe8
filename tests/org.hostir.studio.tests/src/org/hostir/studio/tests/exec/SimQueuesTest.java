package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;

import org.hostir.studio.exec.sim.EventQueue;
import org.hostir.studio.exec.sim.LongKeyTable;
import org.junit.jupiter.api.Test;

/**
 * The simulation's primitive event queue and transfer table (issue 38, 2026-11-29) against the JDK collections they
 * replaced, on random operations: the same events in the same order (time, then order of queueing, ties and -0.0
 * included) and the same values found and removed, so that no simulation can change by the swap.
 */
class SimQueuesTest {
    private record Event(double time, long order, int id, boolean finish) {}

    @Test
    void eventQueueGivesEventsInThePriorityQueuesOrder() {
        Random random = new Random(38);
        for (int round = 0; round < 50; round++) {
            EventQueue<Integer> queue = new EventQueue<>();
            PriorityQueue<Event> reference = new PriorityQueue<>((a, b) -> a.time() != b.time()
                    ? Double.compare(a.time(), b.time()) : Long.compare(a.order(), b.order()));
            long order = 0;
            List<String> got = new ArrayList<>();
            List<String> want = new ArrayList<>();
            for (int step = 0; step < 2_000; step++) {
                if (random.nextInt(3) > 0 || reference.isEmpty()) {
                    // few distinct times, so that many events tie and the order of queueing decides
                    double t = random.nextInt(8) == 0 ? -0.0 : random.nextInt(20) * 0.5;
                    boolean finish = random.nextBoolean();
                    queue.add(t, step, finish);
                    reference.add(new Event(t, order++, step, finish));
                } else {
                    got.add(queue.firstTime() + " " + queue.firstOp() + " " + queue.firstFinish());
                    queue.removeFirst();
                    Event e = reference.poll();
                    want.add(e.time() + " " + e.id() + " " + e.finish());
                }
            }
            while (!reference.isEmpty()) {
                got.add(queue.firstTime() + " " + queue.firstOp() + " " + queue.firstFinish());
                queue.removeFirst();
                Event e = reference.poll();
                want.add(e.time() + " " + e.id() + " " + e.finish());
            }
            assertEquals(want, got, "round " + round);
            assertEquals(true, queue.isEmpty());
        }
    }

    @Test
    void longKeyTableFindsAndRemovesAsAHashMap() {
        Random random = new Random(29);
        LongKeyTable<String> table = new LongKeyTable<>();
        Map<Long, String> reference = new HashMap<>();
        for (int step = 0; step < 200_000; step++) {
            // packed keys as the simulation makes them: (sender x ranks + receiver) << 32 | sequence
            long key = ((long) random.nextInt(64) * 64 + random.nextInt(64)) << 32 | random.nextInt(3);
            String removed = table.remove(key);
            assertEquals(reference.remove(key), removed, "step " + step);
            if (removed == null) {
                table.put(key, "v" + step);
                reference.put(key, "v" + step);
            }
            assertEquals(reference.size(), table.size());
        }
        for (Map.Entry<Long, String> e : reference.entrySet()) assertEquals(e.getValue(), table.remove(e.getKey()));
        assertEquals(0, table.size());
        assertNull(table.remove(0));
    }
}
