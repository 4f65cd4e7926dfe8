package org.hostir.studio.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.hostir.studio.exec.sim.HardwareProfile;
import org.hostir.studio.ir.DataType;

/**
 * Turning measurements into a profile's constants ({@code hirstudio calibrate}, docs/simulation.md
 * "Calibration"): alpha-beta lines by least squares, GEMM efficiency points against a peak, and the profile that
 * takes the measured constants over a base profile's (what was not measured stays the base's, and its source says
 * which is which).
 */
public final class ProfileFit {
    private ProfileFit() {}

    /** A measurement: {@code x} bytes (or flops) took {@code us} microseconds. */
    public record Point(double x, double us) {}

    /**
     * The link {@code us = steps x alpha + share x bytes / B} that fits the points best in relative error (least
     * squares weighted by 1 / us^2): the sweep spans 1 MiB to 1 GiB, and a plain fit is the largest message's alone,
     * its alpha whatever the small ones leave over (the 2 x H200 Allgather column: 122 us plain, 66 us relative).
     */
    public static HardwareProfile.Link alphaBeta(List<Point> points, double steps, double share) {
        if (points.size() < 2) throw new IllegalArgumentException("an alpha-beta fit needs at least two sizes");
        double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (Point p : points) {
            double w = 1 / (p.us() * p.us());
            sw += w;
            sx += w * p.x();
            sy += w * p.us();
            sxx += w * p.x() * p.x();
            sxy += w * p.x() * p.us();
        }
        double slope = (sw * sxy - sx * sy) / (sw * sxx - sx * sx); // us per byte
        double intercept = (sy - slope * sx) / sw;
        if (!(slope > 0)) throw new IllegalArgumentException("times do not grow with size: no bandwidth to fit");
        return new HardwareProfile.Link(Math.max(0, intercept / steps), share / slope / 1e3);
    }

    /**
     * What a kernel launch costs, from N device copies of {@code bytes} each queued back to back, timed for several N
     * ({@link #launch}). {@code hostUs}: the intercept of the series timed from an idle stream (the first copy waits
     * for the host's launch, then the synchronisation: what one timed copy measured alone, and what the simulator
     * already counts as the node's dispatch); {@code perCopyUs}: the slope of the series queued behind a long copy,
     * so that the events time the device alone; {@code launchUs}: that slope less the copy's bytes at the memory
     * bandwidth, what the device adds per kernel ({@code gemm.launchUs}).
     */
    public record LaunchFit(double hostUs, double perCopyUs, double launchUs) {}

    /**
     * Fits {@link LaunchFit}: {@code idle} and {@code queued} are (N copies, us) series, {@code bytes} one copy's size
     * (read and written once each), {@code memoryGBps} the fitted memory bandwidth. A plain least-squares line each:
     * the counts are small integers and every point is a median.
     */
    public static LaunchFit launch(List<Point> idle, List<Point> queued, double bytes, double memoryGBps) {
        double[] host = line(idle), device = line(queued);
        if (!(device[1] > 0)) {
            throw new IllegalArgumentException("queued copies take no time per copy: no launch to fit");
        }
        return new LaunchFit(Math.max(0, host[0]), device[1], Math.max(0, device[1] - 2 * bytes / (memoryGBps * 1e3)));
    }

    /** {intercept, slope} of the least-squares line through the points. */
    static double[] line(List<Point> points) {
        if (points.size() < 2) throw new IllegalArgumentException("a line needs at least two points");
        double n = points.size(), sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (Point p : points) {
            sx += p.x();
            sy += p.us();
            sxx += p.x() * p.x();
            sxy += p.x() * p.us();
        }
        double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
        return new double[] {(sy - slope * sx) / n, slope};
    }

    /**
     * The NVLink link as the simulation prices collectives, from the lone Allgather's fitted line ({@code perStep},
     * its latency spread evenly over its {@code steps} ring steps): NCCL's latency is a base once per call plus one
     * per ring step (NVIDIA/nccl src/graph/tuning.cc, ncclTopoTuneModel), 3.4 us per step on NVLink
     * ({@link HardwareProfile#NCCL_NVLINK_RING_STEP_US}); the rest of the fitted latency is paid once per call. The
     * fitted Allgather keeps its time; an Allreduce, twice the steps, pays the per-call part once, not twice.
     */
    public static HardwareProfile.Link ncclRing(HardwareProfile.Link perStep, double steps) {
        double total = perStep.latencyUs(steps);
        double step = Math.min(HardwareProfile.NCCL_NVLINK_RING_STEP_US, total / steps);
        return new HardwareProfile.Link(step, perStep.busGBps(), total - steps * step);
    }

    /** GEMM efficiency points: square GEMMs of edge {@code s} took the given microseconds, against {@code peak}. */
    public static List<double[]> efficiency(Map<Long, Double> usBySize, double peakTflops, double launchUs) {
        List<GemmTime> times = new ArrayList<>();
        usBySize.forEach((s, us) -> times.add(new GemmTime(DataType.BFLOAT16, s, s, s, us)));
        return efficiency(times, peakTflops, launchUs);
    }

    /** One GEMM alone: {@code m x k} times {@code k x n} in {@code dtype} took {@code us} microseconds. */
    public record GemmTime(DataType dtype, long m, long k, long n, double us) {
        double size() { return Math.cbrt((double) m * k * n); }

        /** TF/s of its compute, the launch (which the simulation adds to every kernel) taken off. */
        double tflops(double launchUs) { return 2.0 * m * k * n / (Math.max(1e-3, us - launchUs) * 1e6); }
    }

    /** Efficiency points of the GEMMs of one dtype against its peak, by increasing size cbrt(M K N). */
    public static List<double[]> efficiency(List<GemmTime> times, double peakTflops, double launchUs) {
        return times.stream().sorted(Comparator.comparingDouble(GemmTime::size))
                .map(t -> new double[] {t.size(), Math.min(1, t.tflops(launchUs) / peakTflops)}).toList();
    }

    /**
     * The profile's GEMM figures from GEMMs alone at the sizes a bench runs: the curve from the bf16 ones (the
     * base's points below the smallest size kept: nothing measured them), and for every other dtype the effective
     * peak that puts its GEMM on that curve (the simulation has one curve for all dtypes; an fp32 GEMM runs on other
     * units, so its datasheet peak would mispredict it). The base curve is used when no bf16 GEMM was timed.
     */
    public static HardwareProfile.Gemm gemm(HardwareProfile.Gemm base, List<GemmTime> times, double launchUs,
                                            double memoryGBps) {
        double peak = base.peakTflops().get(DataType.BFLOAT16);
        List<double[]> measured = efficiency(times.stream().filter(t -> t.dtype() == DataType.BFLOAT16).toList(),
                peak, launchUs);
        List<double[]> curve = new ArrayList<>();
        for (double[] p : base.efficiency()) if (measured.isEmpty() || p[0] < measured.getFirst()[0]) curve.add(p);
        curve.addAll(measured);
        HardwareProfile.Gemm onCurve = new HardwareProfile.Gemm(base.peakTflops(), memoryGBps, launchUs, curve);
        Map<DataType, Double> peaks = new HashMap<>(base.peakTflops());
        for (GemmTime t : times) {
            if (t.dtype() != DataType.BFLOAT16) peaks.put(t.dtype(), t.tflops(launchUs) / onCurve.efficiencyAt(t.size()));
        }
        return new HardwareProfile.Gemm(peaks, memoryGBps, launchUs, curve);
    }

    /**
     * NCCL send/recv within a node from one transfer of {@code bytes} that took {@code us}: NVLink's latency, the
     * rest of the time at the transfer's rate.
     */
    public static HardwareProfile.Link sendRecv(double bytes, double us, HardwareProfile.Link nvlink) {
        double moving = us - nvlink.alphaUs();
        if (!(moving > 0)) throw new IllegalArgumentException("a send/recv of " + bytes + " bytes took " + us
                + " us, no longer than NVLink's latency " + nvlink.alphaUs() + " us: no rate to fit");
        return new HardwareProfile.Link(nvlink.alphaUs(), bytes / moving / 1e3);
    }

    /** What was measured, over the base profile; null fields keep the base's constants. */
    public record Measured(String name, String description, HardwareProfile.Gemm gemm,
                          HardwareProfile.Link nvlink, HardwareProfile.Link copyEngine, HardwareProfile.Link ncclP2p,
                          Map<String, Double> dispatchUs, String source) {}

    public static HardwareProfile apply(HardwareProfile base, Measured m) {
        Map<String, Double> dispatch = new HashMap<>(base.dispatch().byNode());
        double defaultUs = base.dispatch().defaultUs();
        if (m.dispatchUs() != null) {
            dispatch.putAll(m.dispatchUs());
            defaultUs = m.dispatchUs().getOrDefault("default", defaultUs);
            dispatch.remove("default");
        }
        HardwareProfile.Link nvlink = m.nvlink() != null ? m.nvlink() : base.nvlink();
        return new HardwareProfile(m.name(), m.description(), m.source() + "; not measured, from " + base.name()
                + ": " + kept(base, m) + " (its source: " + base.source() + ")", base.gpusPerNode(), m.gemm() != null ? m.gemm() : base.gemm(), nvlink,
                base.network(), m.copyEngine() != null ? m.copyEngine() : base.copyEngine(), base.contention(),
                new HardwareProfile.Dispatch(defaultUs, dispatch), m.ncclP2p() != null ? m.ncclP2p()
                : base.ncclP2p().equals(base.nvlink()) ? nvlink : base.ncclP2p());
    }

    /**
     * The constants {@link #apply} keeps from the base, named: the base's source describes all of its fields, and
     * quoted alone it read as if the measured GEMM and NVLink came from it too (the 2 x H200 calibration of
     * 2026-11-29 16:06).
     */
    private static String kept(HardwareProfile base, Measured m) {
        List<String> kept = new ArrayList<>(List.of("contention", "network"));
        if (m.gemm() == null) kept.add("GEMM");
        if (m.nvlink() == null) kept.add("NVLink");
        if (m.copyEngine() == null) kept.add("copy engine");
        if (m.ncclP2p() == null) kept.add("NCCL send/recv");
        List<String> kinds = new ArrayList<>(new TreeSet<>(base.dispatch().byNode().keySet()));
        if (m.dispatchUs() != null) kinds.removeAll(m.dispatchUs().keySet());
        if (m.dispatchUs() == null) kept.add("dispatch");
        else if (!kinds.isEmpty()) kept.add("dispatch of " + String.join(", ", kinds));
        return String.join(", ", kept);
    }
}
