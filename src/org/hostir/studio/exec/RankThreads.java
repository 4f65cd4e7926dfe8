package org.hostir.studio.exec;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;

/**
 * One long-lived host thread per rank, kept for a whole run (upload, every iteration, download), as a process per
 * GPU keeps its main thread. A fresh thread per iteration paid for its first calls into the driver and the
 * libraries again each time (their per-thread state, new stack pages): on one H200, an iteration of the P2P
 * AG+GEMM schedule at 256 x 256 x 256 in bf16 took 0.24-0.38 ms with a fresh thread and 0.06-0.07 ms on a kept one,
 * its op nodes 49-85 us of host time against 12-26 us.
 * Threads are daemons, so a rank stuck in a native call cannot keep the process alive. The CPU backend asks for
 * virtual threads instead ({@link Backend#hostThreads()}), so 1,024 simulated ranks need no platform thread each.
 */
public final class RankThreads implements AutoCloseable {
    private final Map<Integer, ExecutorService> threads = new TreeMap<>();

    public RankThreads(Collection<Integer> ranks) { this(ranks, Thread.ofPlatform().daemon(true)); }

    /** Threads of the given kind ({@link Backend#hostThreads()}): virtual ones for the CPU backend's ranks. */
    public RankThreads(Collection<Integer> ranks, Thread.Builder kind) {
        for (int r : ranks) {
            threads.put(r, Executors.newSingleThreadExecutor(kind.name("rank " + r + " host").factory()));
        }
    }

    /**
     * Runs {@code body} for every rank on that rank's thread, all at once, waits for all of them and returns
     * what each failing rank threw, by rank (empty when all succeeded). An interrupted wait keeps the interrupt
     * and ends in an {@link ExecutionException}.
     */
    public Map<Integer, Throwable> onEveryRank(IntConsumer body) {
        Map<Integer, Future<?>> running = new TreeMap<>();
        threads.forEach((rank, thread) -> running.put(rank, thread.submit(() -> body.accept(rank))));
        Map<Integer, Throwable> errors = new TreeMap<>();
        for (var e : running.entrySet()) {
            try {
                e.getValue().get();
            } catch (java.util.concurrent.ExecutionException failed) {
                errors.put(e.getKey(), failed.getCause());
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new ExecutionException("interrupted while waiting for the ranks");
            }
        }
        return errors;
    }

    @Override
    public void close() {
        threads.values().forEach(ExecutorService::shutdownNow);
    }
}
