package org.hostir.studio.exec.cpu;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * Every wait of the CPU backend goes through here, so a run whose ranks disagree (collectives in different
 * orders, uncoalesced send/recv that would deadlock NCCL) ends after a bounded time with one diagnostic naming
 * what each rank and stream was waiting for, and every other wait gives up at once.
 */
final class Blocking {
    /** Thrown in a waiting thread when the run has failed; the failure itself is in {@link #failure()}. */
    static final class Aborted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Aborted() { super("run aborted", null, false, false); }
    }

    private final long timeoutNanos;
    private final Map<Thread, String> waiting = new ConcurrentHashMap<>();
    private final AtomicReference<String> failure = new AtomicReference<>();

    Blocking(long timeoutMillis) { this.timeoutNanos = timeoutMillis * 1_000_000L; }

    String failure() { return failure.get(); }

    void fail(String why) { failure.compareAndSet(null, why); }

    /**
     * Waits until {@code done} holds, re-checking when {@code monitor} is notified (callers notifyAll on change)
     * and at least every 20 ms. Gives up with a diagnostic after the timeout.
     */
    void await(Object monitor, BooleanSupplier done, String what) {
        long start = System.nanoTime();
        waiting.put(Thread.currentThread(), what);
        try {
            synchronized (monitor) {
                while (!done.getAsBoolean()) {
                    if (failure.get() != null) throw new Aborted();
                    if (System.nanoTime() - start > timeoutNanos) {
                        fail(deadlock());
                        throw new Aborted();
                    }
                    monitor.wait(20);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted while " + what);
            throw new Aborted();
        } finally {
            waiting.remove(Thread.currentThread());
        }
    }

    private String deadlock() {
        Map<String, String> byThread = new TreeMap<>();
        waiting.forEach((t, what) -> byThread.put(t.getName(), what));
        StringBuilder sb = new StringBuilder("no progress for " + timeoutNanos / 1_000_000 + " ms; waiting:");
        byThread.forEach((thread, what) -> sb.append("\n  ").append(thread).append(": ").append(what));
        return sb.toString();
    }
}
