package org.hostir.studio.exec.cpu;

import java.util.concurrent.LinkedBlockingQueue;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.exec.BackendStream;
import org.hostir.studio.exec.Blockage;

/**
 * A stream: one worker thread taking tasks in order, so work on one stream is ordered and different streams (and
 * devices) really run at the same time. A task failing fails the run; later tasks are skipped. The worker is a
 * virtual thread: a stream spends most of its life blocked in a collective or a wait, and 1,024 devices of five
 * streams each would otherwise need 5,000 platform threads (24,595 threads and 4.2 GB at 4,096 devices before).
 */
final class CpuStream implements BackendStream {
    private static final Runnable STOP = () -> { };

    private final int index;
    private final LinkedBlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
    private final Blocking blocking;
    private final Thread worker;
    private final Object progress = new Object();
    private long enqueued;
    private long completed;

    CpuStream(int rank, int index, Blocking blocking) {
        this.index = index;
        this.blocking = blocking;
        this.worker = Thread.ofVirtual().name("rank " + rank + " stream " + index).start(this::loop);
    }

    @Override
    public int index() { return index; }

    /** Enqueues a task; returns its ticket, the number of tasks up to and including it. */
    long enqueue(Runnable task) {
        synchronized (progress) {
            queue.add(task);
            return ++enqueued;
        }
    }

    long enqueuedSoFar() {
        synchronized (progress) {
            return enqueued;
        }
    }

    long completedSoFar() {
        synchronized (progress) {
            return completed;
        }
    }

    /** Blocks the caller until the task with this ticket has run (or the run failed). */
    void awaitTicket(long ticket, Blockage what) {
        blocking.await(progress, () -> completed >= ticket, what);
    }

    boolean done(long ticket) {
        synchronized (progress) {
            return completed >= ticket;
        }
    }

    Object progressMonitor() { return progress; }

    /** Whether every task enqueued so far has run. */
    boolean idle() {
        synchronized (progress) {
            return completed == enqueued;
        }
    }

    Thread worker() { return worker; }

    void stop() { queue.add(STOP); }

    private void loop() {
        while (true) {
            Runnable task;
            try {
                task = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (task == STOP) return;
            if (blocking.failure() == null) {
                blocking.taskStarted();
                try {
                    task.run();
                } catch (Blocking.Aborted aborted) {
                    // the failure is already recorded
                } catch (RunFailure e) { // a failure of the run (a kernel's, typed)
                    blocking.fail(e.within(Thread.currentThread().getName()));
                } catch (RuntimeException | Error e) { // a bug: not a message for the user but an internal error
                    blocking.failWithBug(Thread.currentThread().getName(), e);
                } finally {
                    blocking.taskEnded();
                }
            }
            synchronized (progress) {
                completed++;
                progress.notifyAll();
            }
        }
    }
}
