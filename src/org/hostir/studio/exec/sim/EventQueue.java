package org.hostir.studio.exec.sim;

import java.util.Arrays;

/**
 * The simulation's events in time order, ties in the order they were queued: a binary heap over parallel
 * primitive arrays, so that an event allocates nothing (a record per event in a {@code PriorityQueue} with a
 * comparator was a large share of an all-pairs simulation's garbage). The order is total, so events come out
 * exactly as from any other correct priority queue with the same ordering.
 */
public final class EventQueue<T> {
    private double[] times = new double[64];
    private long[] orders = new long[64];
    private Object[] ops = new Object[64];
    private boolean[] finishes = new boolean[64];
    private int size;
    private long nextOrder;

    public boolean isEmpty() { return size == 0; }

    public double firstTime() { return times[0]; }

    @SuppressWarnings("unchecked")
    public T firstOp() { return (T) ops[0]; }

    public boolean firstFinish() { return finishes[0]; }

    /** Queues an event of {@code op} at {@code t}: its start, or its end when {@code finish}. */
    public void add(double t, T op, boolean finish) {
        if (size == ops.length) grow();
        long order = nextOrder++;
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(t, order, parent)) break;
            move(parent, i);
            i = parent;
        }
        set(i, t, order, op, finish);
    }

    public void removeFirst() {
        int last = --size;
        double t = times[last];
        long order = orders[last];
        Object op = ops[last];
        boolean finish = finishes[last];
        ops[last] = null;
        if (last == 0) return;
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= last) break;
            if (child + 1 < last && earlier(child + 1, child)) child++;
            if (!precedes(times[child], orders[child], t, order)) break;
            move(child, i);
            i = child;
        }
        set(i, t, order, op, finish);
    }

    /** Whether (t, order) comes before the event at {@code j}. */
    private boolean before(double t, long order, int j) { return precedes(t, order, times[j], orders[j]); }

    /** Whether the event at {@code a} comes before the one at {@code b}. */
    private boolean earlier(int a, int b) { return before(times[a], orders[a], b); }

    /** The order the simulation has always used: time ({@link Double#compare}), then the order of queueing. */
    private static boolean precedes(double t, long order, double t2, long order2) {
        return t != t2 ? Double.compare(t, t2) < 0 : order < order2;
    }

    private void move(int from, int to) {
        set(to, times[from], orders[from], ops[from], finishes[from]);
    }

    private void set(int i, double t, long order, Object op, boolean finish) {
        times[i] = t;
        orders[i] = order;
        ops[i] = op;
        finishes[i] = finish;
    }

    private void grow() {
        int n = ops.length * 2;
        times = Arrays.copyOf(times, n);
        orders = Arrays.copyOf(orders, n);
        ops = Arrays.copyOf(ops, n);
        finishes = Arrays.copyOf(finishes, n);
    }
}
