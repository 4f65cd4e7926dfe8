package org.hostir.studio.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;


import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.RunStrategy;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.exec.sim.SimBackend;
import org.hostir.studio.exec.sim.SimRun;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.lower.LoweringOptions;

/**
 * How much heap a simulation holds as the rank count grows ({@code hirstudio bench sim-memory}, issue 38): runs
 * {@code --backend sim --no-validate} of one seed at each rank count and reports the live heap, the most the heap
 * held at full collections during the run (what decides whether it fits; garbage not counted), beside the heap
 * after the run.
 */
public final class SimulationMemory {
    private SimulationMemory() {}

    /** One run's figures. */
    public record Figures(double spanMs, double seconds, long liveBytes, long retainedBytes) {}

    /**
     * One rank count's figures: every rank walked first, then simulated (the simulator before 2026-11-29, null when
     * not run), and the ranks walked in step with the simulation ({@code SimRun.WINDOW}), which holds the ops in
     * flight only.
     */
    public record Row(int devices, Figures walkedFirst, Figures inStep) {}

    /**
     * Runs {@code seed} (a path under {@code examples} without .fusion) at each rank count, both ways where it is at
     * most {@code walkedFirstUpTo} ranks, else in step only; prints one line each.
     */
    public static List<Row> run(Path examples, String seed, Map<String, String> options, List<Integer> devices,
                                int walkedFirstUpTo, HardwareProfile profile, PrintStream out)
            throws IOException, EngineFailure {
        out.printf(Locale.ROOT, "%s %s on %s: live heap = the most the heap held at a full collection"
                + " (one every quarter second or more during the run); retained = after the run, collected;"
                + " walked first = every rank's ops built, then simulated (before); in step = ranks walked with the"
                + " simulation (after)%n", seed, options, profile.name());
        List<Row> rows = new ArrayList<>();
        for (int d : devices) {
            Figures first = d <= walkedFirstUpTo ? one(examples, seed, options, d, profile, "0") : null;
            Figures step = one(examples, seed, options, d, profile, null);
            out.printf(Locale.ROOT, "D = %d: predicted %s; live heap %s -> %.1f MiB; wall %s -> %.1f s;"
                    + " retained %.1f MiB%n", d, first == null ? String.format(Locale.ROOT, "%.3f ms", step.spanMs())
                    : first.spanMs() == step.spanMs() ? String.format(Locale.ROOT, "%.3f ms both ways", step.spanMs())
                    : String.format(Locale.ROOT, "DIFFERENT %.3f vs %.3f ms", first.spanMs(), step.spanMs()),
                    first == null ? "(not run)" : String.format(Locale.ROOT, "%.1f MiB", first.liveBytes() / 1048576.0),
                    step.liveBytes() / 1048576.0,
                    first == null ? "(not run)" : String.format(Locale.ROOT, "%.1f s", first.seconds()),
                    step.seconds(), step.retainedBytes() / 1048576.0);
            rows.add(new Row(d, first, step));
        }
        return rows;
    }

    /** {@code window}: the value of {@code SimRun.WINDOW} for this run, or null for the default. */
    private static Figures one(Path examples, String seed, Map<String, String> options, int devices,
                               HardwareProfile profile, String window) throws IOException, EngineFailure {
        String text = Files.readString(examples.resolve(seed + ".fusion"));
        LoadedFusion loaded = Engine.load(new FusionSource.Text(text, seed), devices, Map.of());
        LoweringOptions lo = LoweringOptions.parse(new HashMap<>(options));
        RunConfig config = new RunConfig(devices, loaded.bindings().asMap(), lo.numberOfStreams(), 1, 0, false, 42,
                20_000);
        String before = System.getProperty(SimRun.WINDOW);
        if (window != null) System.setProperty(SimRun.WINDOW, window);
        System.gc();
        AtomicLong live = new AtomicLong(heapUsed());
        List<Runnable> stop = listen(live);
        long t0 = System.nanoTime();
        RunResult r;
        try (RunStrategy sim = RunStrategy.simulated(new SimBackend(devices, profile, false, rank -> rank < 8))) {
            r = Engine.run(loaded, Engine.compile(loaded, lo), config, sim, line -> { });
        } finally {
            stop.forEach(Runnable::run);
            if (before == null) System.clearProperty(SimRun.WINDOW); else System.setProperty(SimRun.WINDOW, before);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.gc();
        long retained = heapUsed(); // r is still reachable here: the run's result, programs and bars
        return new Figures(r.medianMillis(), seconds, live.get(), retained);
    }

    private static long heapUsed() { return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(); }

    /**
     * Keeps in {@code max}, until the returned action stops it, the largest live heap: a full collection
     * ({@code System.gc()}), then the heap's use, again and again (at most a fifth of the time collecting), so that
     * garbage is never counted. The ops in flight grow and shrink slowly (walked first: they grow steadily to every
     * rank's every op), so a sample every fraction of a second finds the peak; the run takes longer so.
     */
    private static List<Runnable> listen(AtomicLong max) {
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                long t0 = System.nanoTime();
                System.gc();
                max.accumulateAndGet(heapUsed(), Math::max);
                try {
                    Thread.sleep(Math.max(250, 4 * (System.nanoTime() - t0) / 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        return List.of(sampler::interrupt);
    }
}
