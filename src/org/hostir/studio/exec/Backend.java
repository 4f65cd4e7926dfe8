package org.hostir.studio.exec;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.trace.Timeline;

/**
 * A way to run Host IR programs: the CPU backend (threads as devices) or CUDA. One instance serves one run of
 * every rank; the evaluator sees it only through {@link Device}.
 */
public interface Backend extends AutoCloseable {

    String name();

    int deviceCount();

    Device device(int rank);

    /** Whether this process runs {@code rank} (false in launcher mode for the other processes' ranks). */
    default boolean runsRank(int rank) { return rank < deviceCount(); }

    /**
     * The kind of thread each rank's host program runs on. Platform threads by default: a GPU backend's libraries
     * keep per-thread state (see {@link RankThreads}); a simulated backend may use virtual threads.
     */
    default Thread.Builder hostThreads() { return Thread.ofPlatform().daemon(true); }

    /**
     * Whether double and int64 results carry float64 precision (the CPU backend, like the reference), so that
     * validation holds double outputs to double's unit roundoff; a backend whose results do not is held to
     * float32's (docs/validation.md). False by default: the CUDA kernels compute double in double, but its
     * upload and download still pass each value through a float ({@code CudaDevice}), until they move doubles.
     */
    default boolean computesWideInFloat64() { return false; }

    /**
     * The tasks every device's streams have run and been given so far, for progress lines; empty where the backend
     * cannot count them cheaply (only the CPU backend counts).
     */
    default java.util.Optional<StreamWork> streamWork() { return java.util.Optional.empty(); }

    /** Everything recorded since the last reset. */
    Timeline timeline();

    void resetTimeline();

    /**
     * A failure on any device (a collective that never matched, a kernel error) ends the run: every blocked
     * operation gives up and this reports why, naming what each rank was waiting on, and the tensors it is
     * about where it has them.
     */
    java.util.Optional<RunFailure> failure();

    /**
     * What a backend thread of its own (a stream's worker) threw that is no {@link ExecutionException}: a bug,
     * which the run rethrows as such (an internal error) rather than reporting it as a failed run.
     */
    default java.util.Optional<Throwable> bug() { return java.util.Optional.empty(); }

    /**
     * A rank's host program threw: the other ranks may be blocked in a collective that waits for it (or, on a GPU,
     * in a call that cannot return while such a kernel runs), so end their waits now, with {@code why} as the
     * failure. A backend whose waits all time out on their own may ignore it.
     */
    default void abort(RunFailure why) {}

    /**
     * For a debugger: whether the backend is at rest, no stream able to go on without something its host has not
     * posted yet, and then what each blocked stream waits for (an idle stream is not listed). Empty while some
     * stream still moves, or where the backend cannot tell (only the CPU backend can).
     */
    default java.util.Optional<java.util.List<BlockedStream>> atRest() { return java.util.Optional.empty(); }

    @Override
    void close();
}
