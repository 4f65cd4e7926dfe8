package org.hostir.studio.exec;

import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Progress during a long phase of a run, for the console and the Studio's Progress view: while the phase lasts,
 * every {@value #DEFAULT_PERIOD_MS} ms a line says how many ranks (and stream tasks) are done and how long it has taken (issue 35: a
 * long CPU run printed nothing for 11 s). A phase shorter than the period prints nothing.
 */
public final class Heartbeat implements AutoCloseable {
    /** Property: the period in milliseconds (the tests make it short to see the lines). */
    public static final String PERIOD = "hirstudio.progressMillis";
    static final long DEFAULT_PERIOD_MS = 2_000;
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "hirstudio progress");
        t.setDaemon(true);
        return t;
    });
    private final AtomicInteger done = new AtomicInteger();
    private final ScheduledFuture<?> beat;

    /** {@code ranks}: how many ranks the phase runs (0: a phase not counted in ranks). */
    public Heartbeat(String phase, int ranks, Consumer<String> progress) {
        this(phase, ranks, Optional::empty, progress);
    }

    /**
     * Also how many of the tasks given to the streams since the phase began have run ({@code work}: the backend's
     * count, empty where it has none): ranks tied by a collective finish together at the end, so their count alone
     * stays at 0 for most of the phase (AG+GEMM on 8 CPU devices: 0 of 8 for 2.5 of 6.7 s).
     */
    public Heartbeat(String phase, int ranks, Supplier<Optional<StreamWork>> work, Consumer<String> progress) {
        long period = Math.max(1, Long.getLong(PERIOD, DEFAULT_PERIOD_MS));
        long t0 = System.nanoTime();
        Optional<StreamWork> start = work.get();
        beat = TIMER.scheduleAtFixedRate(() -> progress.accept(line(phase, ranks,
                start.flatMap(s -> work.get().map(w -> w.since(s))), (System.nanoTime() - t0) / 1e9)),
                period, period, TimeUnit.MILLISECONDS);
    }

    /** One more rank is done. */
    public void rankDone() { done.incrementAndGet(); }

    String line(String phase, int ranks, Optional<StreamWork> work, double seconds) {
        // after the time: the line's start stays what readers of the progress match ("... ranks done (")
        String tasks = work.map(w -> String.format(Locale.ROOT, ", %d of %d stream tasks run", w.run(), w.posted()))
                .orElse("");
        return ranks > 0
                ? String.format(Locale.ROOT, "%s: %d of %d ranks done (%.1f s)%s", phase, done.get(), ranks, seconds,
                        tasks)
                : String.format(Locale.ROOT, "%s (%.1f s)", phase, seconds);
    }

    @Override
    public void close() { beat.cancel(false); }
}
