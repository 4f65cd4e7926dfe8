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

    /** One rank count's figures. */
    public record Row(int devices, double spanMs, double seconds, long liveBytes, long retainedBytes) {}

    /** Runs {@code seed} (a path under {@code examples} without .fusion) at each rank count; prints one line each. */
    public static List<Row> run(Path examples, String seed, Map<String, String> options, List<Integer> devices,
                                HardwareProfile profile, PrintStream out) throws IOException, EngineFailure {
        out.printf(Locale.ROOT, "%s %s on %s: live heap = the most the heap held at a full collection"
                + " (one every quarter second or more during the run); retained = after the run, collected%n", seed, options, profile.name());
        List<Row> rows = new ArrayList<>();
        for (int d : devices) {
            Row r = one(examples, seed, options, d, profile);
            out.printf(Locale.ROOT, "D = %d: predicted %.3f ms in %.1f s; live heap %.1f MiB; retained %.1f MiB%n",
                    r.devices(), r.spanMs(), r.seconds(), r.liveBytes() / 1048576.0,
                    r.retainedBytes() / 1048576.0);
            rows.add(r);
        }
        return rows;
    }

    private static Row one(Path examples, String seed, Map<String, String> options, int devices,
                           HardwareProfile profile) throws IOException, EngineFailure {
        String text = Files.readString(examples.resolve(seed + ".fusion"));
        LoadedFusion loaded = Engine.load(new FusionSource.Text(text, seed), devices, Map.of());
        LoweringOptions lo = LoweringOptions.parse(new HashMap<>(options));
        RunConfig config = new RunConfig(devices, loaded.bindings().asMap(), lo.numberOfStreams(), 1, 0, false, 42,
                20_000);
        System.gc();
        AtomicLong live = new AtomicLong(heapUsed());
        List<Runnable> stop = listen(live);
        long t0 = System.nanoTime();
        RunResult r;
        try (RunStrategy sim = RunStrategy.simulated(new SimBackend(devices, profile, false, rank -> rank < 8))) {
            r = Engine.run(loaded, Engine.compile(loaded, lo), config, sim, line -> { });
        } finally {
            stop.forEach(Runnable::run);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.gc();
        long retained = heapUsed(); // r is still reachable here: the run's result, programs and bars
        return new Row(devices, r.medianMillis(), seconds, live.get(), retained);
    }

    private static long heapUsed() { return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(); }

    /**
     * Keeps in {@code max}, until the returned action stops it, the largest live heap: a full collection
     * ({@code System.gc()}), then the heap's use, again and again (at most a fifth of the time collecting), so that
     * garbage is never counted. The walk builds the simulation's ops for all ranks before it times them, so the live
     * heap grows steadily to its peak and a sample every fraction of a second finds it; the run takes longer so.
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
