package org.hostir.studio.exec.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.function.IntConsumer;
import java.util.function.IntPredicate;

/**
 * The ranks' programs walked in step, so that the simulation times ops as the hosts issue them and forgets them
 * once done, instead of holding every rank's every op before timing any (docs/simulation.md, "Memory of the
 * all-pairs schedule"). Each rank's walk runs on a virtual thread, but one at a time: a rank runs until its host
 * clock passes the horizon, then hands back. When every rank has reached the horizon (or ended), no op issued from
 * then on can start before the least host clock of the ranks still walking (an op is issued at its rank's host
 * time, and the host clock never goes back), so the simulation runs every event before it; then the horizon moves
 * one window on. The events are the same as when every rank is walked first: only when they are computed changes.
 */
final class RankLockstep {
    /** {@link SimRun#WINDOW}. */
    static final String WINDOW = SimRun.WINDOW;
    /**
     * Each step hands every walking rank over and back (two thread switches, about 40 us of CPU on the 2-core
     * machine, mostly in the kernel): 10 ms of host time a step cut an all-pairs simulation's CPU time at 1,024 ranks
     * by a quarter against 1 ms; the ops held at once grow with it, but an all-pairs schedule holds nearly all anyway.
     */
    private static final double DEFAULT_WINDOW_US = 10_000;
    /**
     * A rank parks only with this many ops in flight: a parked rank must wake as soon as a stream of it may go on,
     * and a rank that parked as soon as it was blocked was handed over about once an op (a hand-over costs about
     * what tens of exchanges cost); with a few dozen ops issued ahead a stream goes on only once the device has
     * nearly caught up with them. The ops held stay at most this many a rank (and a node's), whatever D.
     */
    private static final int PARK_AT_OPS = 64;

    /** Ends a rank's walk abandoned after another rank's failure. */
    private static final class Abandoned extends RuntimeException {
        Abandoned() { super(null, null, false, false); }
    }

    private final SimBackend backend;
    private final double windowUs;
    private final Semaphore back = new Semaphore(0);
    private final Semaphore[] go;
    private final double[] hostUs;
    private final boolean[] ended;
    private final Throwable[] failed;
    /**
     * Ranks whose walk waits while the simulation runs past their host clock: every op they could still issue waits
     * for one of their own ops not yet released ({@link SimDevice#blocked}), so none starts before the first of those
     * is; the simulation stops right after that release and the rank walks on. Without it, a rank of the all-pairs
     * schedule issued its D iterations while its first exchange waited: D^2 ops in flight.
     */
    private final boolean[] parked;

    private final SimDevice[] devices;
    /** {@link #PARK_AT_OPS}, or {@link SimRun#PARK_AT_OPS}. */
    private final int parkAtOps = Integer.getInteger(SimRun.PARK_AT_OPS, PARK_AT_OPS);
    /** A parked rank wakes once one of its streams no longer waits for its own unreleased work. */
    private final IntPredicate wakes = this::wakes;
    private double horizon;
    private boolean abandoned;

    RankLockstep(SimBackend backend, int ranks) {
        this.backend = backend;
        this.windowUs = windowUs();
        this.go = new Semaphore[ranks];
        this.hostUs = new double[ranks];
        this.ended = new boolean[ranks];
        this.failed = new Throwable[ranks];
        this.parked = new boolean[ranks];
        this.devices = new SimDevice[ranks];
        for (int r = 0; r < ranks; r++) devices[r] = (SimDevice) backend.device(r);
    }

    /** The window, from {@value #WINDOW}; infinite (every rank walked to its end first) where it is not positive. */
    static double windowUs() {
        double w = Double.parseDouble(System.getProperty(WINDOW, Double.toString(DEFAULT_WINDOW_US)));
        return w > 0 ? w : Double.POSITIVE_INFINITY;
    }

    /**
     * Walks {@code ranks} with {@code walk} in step, advancing the simulation behind them. A rank's failure is
     * thrown as walking them one after the other would throw it: the lowest failing rank's.
     */
    void walk(List<Integer> ranks, IntConsumer walk) {
        List<Integer> walking = new ArrayList<>(ranks);
        for (int r : walking) {
            go[r] = new Semaphore(0);
            Thread.ofVirtual().name("sim rank " + r).start(() -> run(r, walk));
        }
        horizon = windowUs;
        while (!walking.isEmpty()) {
            for (int r : walking) {
                if (ended[r] || parked[r] || hostUs[r] >= horizon) continue; // ahead already: it waits where it is
                resume(r);
            }
            walking.removeIf(r -> ended[r]);
            int lowestFailed = lowestFailed();
            if (lowestFailed >= 0 && walking.stream().noneMatch(r -> r < lowestFailed)) {
                abandon(walking);
                if (failed[lowestFailed] instanceof Error e) throw e;
                throw (RuntimeException) failed[lowestFailed];
            }
            double safe = advance(walking);
            if (safe == Double.POSITIVE_INFINITY && unparkAll(walking)) continue;
            horizon = safe + windowUs;
        }
    }

    /**
     * Runs the simulation up to the least host clock of the ranks walking and not parked, waking each parked rank
     * that may go on once an op of it is released ({@link #wakes}): it walks until it parks again or reaches the
     * horizon, and then counts; returns that bound.
     */
    private double advance(List<Integer> walking) {
        double safe = Double.POSITIVE_INFINITY;
        for (int r : walking) if (!parked[r]) safe = Math.min(safe, hostUs[r]);
        for (int woke = backend.advance(safe, wakes); woke >= 0; woke = backend.advance(safe, wakes)) {
            parked[woke] = false;
            resume(woke);
            if (!ended[woke] && !parked[woke]) safe = Math.min(safe, hostUs[woke]);
        }
        return safe;
    }

    /**
     * The simulation ran dry with ranks still parked (their ops wait for what no rank issued): they walk on, never
     * parked again, so that the run ends as it would without parking. Whether there were any.
     */
    private boolean unparkAll(List<Integer> walking) {
        boolean any = false;
        for (int r : walking) {
            if (!parked[r]) continue;
            parked[r] = false;
            devices[r].streamBound(-1);
            any = true;
        }
        return any;
    }

    private boolean wakes(int r) { return parked[r] && !devices[r].blocked(); }

    private void resume(int r) {
        go[r].release();
        back.acquireUninterruptibly();
    }

    /** Called by rank {@code rank}'s device when it has issued all its work up to host time {@code us}. */
    void reached(int rank, double us) {
        hostUs[rank] = us;
        if (us < horizon) {
            if (backend.opsInFlight(rank) < parkAtOps || !devices[rank].blocked()) return;
            parked[rank] = true;
        }
        back.release();
        go[rank].acquireUninterruptibly();
        if (abandoned) throw new Abandoned();
    }

    private void run(int rank, IntConsumer walk) {
        go[rank].acquireUninterruptibly();
        try {
            if (!abandoned) walk.accept(rank);
        } catch (Abandoned e) {
            // another rank failed first
        } catch (RuntimeException | Error e) {
            failed[rank] = e;
        } finally {
            ended[rank] = true;
            back.release();
        }
    }

    private int lowestFailed() {
        for (int r = 0; r < failed.length; r++) if (failed[r] != null) return r;
        return -1;
    }

    /** Ends the walks still parked, one at a time, so that none runs on after the caller has gone on. */
    private void abandon(List<Integer> walking) {
        abandoned = true;
        for (int r : walking) {
            go[r].release();
            back.acquireUninterruptibly();
        }
    }
}
