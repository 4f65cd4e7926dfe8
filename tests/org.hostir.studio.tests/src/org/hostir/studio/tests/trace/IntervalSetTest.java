package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.hostir.studio.trace.IntervalSet;
import org.hostir.studio.trace.IntervalSet.Interval;
import org.junit.jupiter.api.Test;

class IntervalSetTest {
    private static IntervalSet set(long... bounds) {
        List<Interval> list = new ArrayList<>();
        for (int i = 0; i < bounds.length; i += 2) list.add(new Interval(bounds[i], bounds[i + 1]));
        return IntervalSet.union(list);
    }

    @Test
    void unionMergesOverlappingAndTouchingAndDropsEmpty() {
        assertEquals(set(0, 30), set(10, 20, 0, 10, 15, 30));
        assertEquals(List.of(new Interval(0, 5), new Interval(6, 8)), set(6, 8, 0, 5, 7, 7, 9, 9).intervals());
        assertEquals(IntervalSet.EMPTY, set(4, 4));
        assertEquals(13, set(0, 5, 6, 8, 2, 4, 10, 16).totalNs());
    }

    @Test
    void intersectAndMinus() {
        IntervalSet a = set(0, 10, 20, 30), b = set(5, 25);
        assertEquals(set(5, 10, 20, 25), a.intersect(b));
        assertEquals(set(0, 5, 25, 30), a.minus(b));
        assertEquals(set(10, 20), b.minus(a));
        assertEquals(a, a.minus(IntervalSet.EMPTY));
        assertEquals(IntervalSet.EMPTY, IntervalSet.EMPTY.minus(a));
        assertEquals(IntervalSet.EMPTY, a.intersect(IntervalSet.EMPTY));
    }

    @Test
    void constructorRefusesUnnormalisedLists() {
        assertThrows(IllegalArgumentException.class, () -> new IntervalSet(List.of(new Interval(0, 5),
                new Interval(5, 6))));
        assertThrows(IllegalArgumentException.class, () -> new IntervalSet(List.of(new Interval(3, 3))));
        assertThrows(IllegalArgumentException.class, () -> new Interval(2, 1));
    }

    /** Against a per-nanosecond reference on small random sets. */
    @Test
    void agreesWithABruteForceReference() {
        Random random = new Random(7);
        for (int round = 0; round < 500; round++) {
            boolean[] inA = new boolean[60], inB = new boolean[60];
            IntervalSet a = randomSet(random, inA), b = randomSet(random, inB);
            long union = 0, both = 0, onlyA = 0;
            for (int t = 0; t < 60; t++) {
                if (inA[t]) union++;
                if (inA[t] && inB[t]) both++;
                if (inA[t] && !inB[t]) onlyA++;
            }
            assertEquals(union, a.totalNs());
            assertEquals(both, a.intersect(b).totalNs());
            assertEquals(both, b.intersect(a).totalNs());
            assertEquals(onlyA, a.minus(b).totalNs());
            assertEquals(a.minus(b), a.minus(a.intersect(b)));
        }
    }

    private static IntervalSet randomSet(Random random, boolean[] covered) {
        List<Interval> list = new ArrayList<>();
        for (int i = random.nextInt(6); i > 0; i--) {
            int start = random.nextInt(50), end = start + random.nextInt(10);
            list.add(new Interval(start, end));
            for (int t = start; t < end; t++) covered[t] = true;
        }
        return IntervalSet.union(list);
    }
}
