package org.hostir.studio.exec.cuda;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.hostir.studio.exec.ExecutionException;

/**
 * Point-to-point transfers without NCCL (Host IR's {@code backend=cuda}): the receiver's stream waits for the
 * sender's "data ready" event and pulls the bytes with cuMemcpyPeerAsync (the copy engine, no SMs), and the
 * sender's stream waits for the receiver's "copy done" event, so the sender may reuse or free its buffer in
 * stream order (nvFuser's Get protocol; under Put the roles swap, {@link PeerCopies}). Sends and receives meet by (from, to, sequence), the sequence counted per peer in posting order
 * as NCCL matches them; a host that waits longer than the timeout for its peer fails the run.
 */
final class CopyEngine {
    record Key(int from, int to, long sequence) {}

    /** A posted send: where its bytes are and the event after which they are ready. */
    record Posted(long address, long context, long readyEvent, long bytes) {}

    /** One rank's step of a copy-engine collective: the team, its call number on the team, the phase, the rank. */
    record Meet(java.util.List<Integer> team, long sequence, int phase, int rank) {}

    private final Map<Key, CompletableFuture<Posted>> sends = new ConcurrentHashMap<>();
    private final Map<Meet, CompletableFuture<Posted>> meets = new ConcurrentHashMap<>();
    private final Map<Meet, java.util.concurrent.atomic.AtomicInteger> reads = new ConcurrentHashMap<>();
    private final Map<Key, CompletableFuture<Long>> copied = new ConcurrentHashMap<>();
    private final long timeoutMillis;
    /** How long a host spins for its peer before it parks (each rank has a core of its own, as NCCL assumes). */
    private static final long SPIN_NANOS = 200_000;

    CopyEngine(long timeoutMillis) { this.timeoutMillis = timeoutMillis; }

    void post(Key k, Posted p) { sends.computeIfAbsent(k, x -> new CompletableFuture<>()).complete(p); }

    Posted awaitSend(Key k, CudaBackend backend) {
        return awaitPosted(k, "recv on rank " + k.to() + " waits for send #" + k.sequence() + " from rank "
                + k.from(), backend);
    }

    /**
     * The side posted first under {@code k}: the send under the Get protocol, the receive under Put (the keys do
     * not mix: every rank of a run follows one protocol).
     */
    Posted awaitPosted(Key k, String what, CudaBackend backend) {
        Posted p = await(sends.computeIfAbsent(k, x -> new CompletableFuture<>()), what, backend);
        sends.remove(k);
        return p;
    }

    /** Publishes a rank's step for the {@code readers} other ranks of its team. */
    void publish(Meet m, Posted p) { meets.computeIfAbsent(m, x -> new CompletableFuture<>()).complete(p); }

    /** A peer's published step; forgotten once each of its {@code readers} has read it. */
    Posted read(Meet m, int readers, CudaBackend backend) {
        Posted p = await(meets.computeIfAbsent(m, x -> new CompletableFuture<>()), "rank " + m.rank() + "'s step "
                + m.phase() + " of collective #" + m.sequence() + " on team " + m.team(), backend);
        if (reads.computeIfAbsent(m, x -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet() == readers) {
            meets.remove(m);
            reads.remove(m);
        }
        return p;
    }

    void copied(Key k, long event) { copied.computeIfAbsent(k, x -> new CompletableFuture<>()).complete(event); }

    long awaitCopied(Key k, CudaBackend backend) {
        long e = await(copied.computeIfAbsent(k, x -> new CompletableFuture<>()), "send on rank " + k.from()
                + " waits for recv #" + k.sequence() + " on rank " + k.to(), backend);
        copied.remove(k);
        return e;
    }

    private <T> T await(CompletableFuture<T> f, String what, CudaBackend backend) {
        // the peer's host is usually a few microseconds away: spinning meets it sooner than a park and unpark
        long spinUntil = System.nanoTime() + SPIN_NANOS;
        while (!f.isDone() && System.nanoTime() < spinUntil) Thread.onSpinWait();
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (true) {
            try {
                return f.get(5, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (backend.failure().isPresent()) throw new ExecutionException(backend.failure().get());
                if (System.nanoTime() > deadline) backend.fail(what + ": no match within "
                        + timeoutMillis / 1000.0 + " s");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ExecutionException(what + ": interrupted");
            } catch (java.util.concurrent.ExecutionException e) {
                throw new ExecutionException(what + ": " + e.getCause());
            }
        }
    }
}
