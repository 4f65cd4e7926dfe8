package org.hostir.studio.exec.cpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.exec.Blockage;

/**
 * Every wait of the CPU backend goes through here, so a run whose ranks disagree (collectives in different
 * orders, uncoalesced send/recv that would deadlock NCCL) ends after a bounded time with one diagnostic naming
 * what each rank and stream was waiting for, and every other wait gives up at once.
 * <p>
 * "No progress" is judged for the whole backend, not per wait: a watchdog fails the run when no wait has ended,
 * no stream task has finished and no stream is computing for the timeout. With 1,024 simulated devices on two
 * cores a single collective legitimately waits longer than the timeout for the last rank to arrive; what matters
 * is that some rank still moves. Waiters sleep on their own monitor (no polling of every thread): the watchdog
 * wakes them when the run fails.
 */
final class Blocking {
    /** Thrown in a waiting thread when the run has failed; the failure itself is in {@link #failure()}. */
    static final class Aborted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Aborted() { super("run aborted", null, false, false); }
    }

    /** What a blocked thread waits for, the monitor to wake it on, and the condition it waits for. */
    record Waiter(String thread, Blockage what, Object monitor, BooleanSupplier done) {
        /** Whether the condition holds already (the thread is about to go on). */
        boolean satisfied() {
            synchronized (monitor) {
                return done.getAsBoolean();
            }
        }
    }

    /** A fallback re-check, in case a wake-up is ever missed; not how failures or progress are noticed. */
    private static final long RECHECK_MILLIS = 1_000;

    private final long timeoutNanos;
    /** Each thread's current wait, in a slot only that thread writes (a shared map was the hot spot at 1,024). */
    private static final class Slot {
        final Thread thread = Thread.currentThread();
        volatile Waiter current;
        boolean streamWorker;
    }

    private final Queue<Slot> slots = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<Slot> mine = ThreadLocal.withInitial(() -> {
        Slot slot = new Slot();
        slots.add(slot);
        return slot;
    });
    private final AtomicReference<RunFailure> failure = new AtomicReference<>();
    private final AtomicReference<Throwable> bug = new AtomicReference<>();
    private final AtomicLong lastProgress = new AtomicLong(System.nanoTime());
    private final AtomicInteger computing = new AtomicInteger();
    /** Counts every start and end of a task or a wait: unchanged across a look at every stream, nothing moved. */
    private final AtomicLong transitions = new AtomicLong();
    private final Thread watchdog;

    Blocking(long timeoutMillis) {
        this.timeoutNanos = timeoutMillis * 1_000_000L;
        this.watchdog = Thread.ofPlatform().daemon().name("cpu backend watchdog").start(this::watch);
    }

    RunFailure failure() { return failure.get(); }

    /** What a stream task threw that is not a failure of the run but a bug (null when none). */
    Throwable bug() { return bug.get(); }

    void fail(String why) { fail(new RunFailure(why)); }

    /** The first failure ends the run; it keeps what it is about. */
    void fail(RunFailure why) {
        if (failure.compareAndSet(null, why)) wakeAll();
    }

    /** A stream task threw what no run failure throws: the run ends, and the bug is rethrown as one. */
    void failWithBug(String where, Throwable e) {
        bug.compareAndSet(null, e);
        fail(where + ": an internal error ended the run");
    }

    /** Called by a stream's worker around each task: a computing stream is progress even before it finishes. */
    void taskStarted() {
        mine.get().streamWorker = true;
        computing.incrementAndGet();
        transitions.incrementAndGet();
    }

    void taskEnded() {
        computing.decrementAndGet();
        transitions.incrementAndGet();
        progressed();
    }

    long transitions() { return transitions.get(); }

    /** The wait {@code thread} is in now, or null. */
    Waiter waiterOf(Thread thread) {
        for (Slot slot : slots) {
            if (slot.thread == thread) return slot.current;
        }
        return null;
    }

    void progressed() { lastProgress.set(System.nanoTime()); }

    void stop() { watchdog.interrupt(); }

    /**
     * Waits until {@code done} holds, re-checking when {@code monitor} is notified (callers notifyAll on change).
     * Gives up when the run fails (the watchdog's diagnostic, or any other failure).
     */
    void await(Object monitor, BooleanSupplier done, Blockage what) {
        Slot slot = mine.get();
        boolean worker = slot.streamWorker;
        slot.current = new Waiter(Thread.currentThread().getName(), what, monitor, done);
        transitions.incrementAndGet();
        if (worker) computing.decrementAndGet();
        try {
            synchronized (monitor) {
                while (!done.getAsBoolean()) {
                    if (failure.get() != null) throw new Aborted();
                    monitor.wait(RECHECK_MILLIS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted while " + what.text());
            throw new Aborted();
        } finally {
            slot.current = null;
            transitions.incrementAndGet();
            if (worker) computing.incrementAndGet();
            progressed();
        }
    }

    private void watch() {
        long tick = Math.max(10, Math.min(200, timeoutNanos / 4_000_000L));
        while (failure.get() == null) {
            try {
                Thread.sleep(tick);
            } catch (InterruptedException e) {
                return;
            }
            List<Waiter> waiting = waiting();
            if (waiting.isEmpty() || computing.get() > 0) {
                if (computing.get() > 0) progressed();
                continue;
            }
            if (System.nanoTime() - lastProgress.get() > timeoutNanos) {
                fail("no progress for " + timeoutNanos / 1_000_000 + " ms; waiting:"
                        + WaitReport.of(waiting));
            }
        }
    }

    private List<Waiter> waiting() {
        List<Waiter> waiting = new ArrayList<>();
        for (Slot slot : slots) {
            Waiter w = slot.current;
            if (w != null) waiting.add(w);
        }
        return waiting;
    }

    private void wakeAll() {
        for (Waiter w : waiting()) {
            synchronized (w.monitor()) {
                w.monitor().notifyAll();
            }
        }
    }
}
