package org.hostir.studio.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    /** The link {@code us = steps x alpha + share x bytes / B} that fits the points best (least squares). */
    public static HardwareProfile.Link alphaBeta(List<Point> points, double steps, double share) {
        int n = points.size();
        if (n < 2) throw new IllegalArgumentException("an alpha-beta fit needs at least two sizes");
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (Point p : points) {
            sx += p.x();
            sy += p.us();
            sxx += p.x() * p.x();
            sxy += p.x() * p.us();
        }
        double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx); // us per byte
        double intercept = (sy - slope * sx) / n;
        if (!(slope > 0)) throw new IllegalArgumentException("times do not grow with size: no bandwidth to fit");
        return new HardwareProfile.Link(Math.max(0, intercept / steps), share / slope / 1e3);
    }

    /** GEMM efficiency points: square GEMMs of edge {@code s} took the given microseconds, against {@code peak}. */
    public static List<double[]> efficiency(Map<Long, Double> usBySize, double peakTflops, double launchUs) {
        List<double[]> curve = new ArrayList<>();
        usBySize.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            double s = e.getKey();
            double computeUs = Math.max(1e-3, e.getValue() - launchUs);
            curve.add(new double[] {s, Math.min(1, 2 * s * s * s / (computeUs * peakTflops * 1e6))});
        });
        return curve;
    }

    /** What was measured, over the base profile; null fields keep the base's constants. */
    public record Measured(String name, String description, List<double[]> efficiency,
                          Map<DataType, Double> peakTflops, Double memoryGBps, Double launchUs,
                          HardwareProfile.Link nvlink, HardwareProfile.Link copyEngine,
                          Map<String, Double> dispatchUs, String source) {}

    public static HardwareProfile apply(HardwareProfile base, Measured m) {
        HardwareProfile.Gemm g = base.gemm();
        Map<DataType, Double> peaks = new HashMap<>(g.peakTflops());
        if (m.peakTflops() != null) peaks.putAll(m.peakTflops());
        HardwareProfile.Gemm gemm = new HardwareProfile.Gemm(peaks,
                m.memoryGBps() != null ? m.memoryGBps() : g.memoryGBps(),
                m.launchUs() != null ? m.launchUs() : g.launchUs(),
                m.efficiency() != null ? m.efficiency() : g.efficiency());
        Map<String, Double> dispatch = new HashMap<>(base.dispatch().byNode());
        double defaultUs = base.dispatch().defaultUs();
        if (m.dispatchUs() != null) {
            dispatch.putAll(m.dispatchUs());
            defaultUs = m.dispatchUs().getOrDefault("default", defaultUs);
            dispatch.remove("default");
        }
        return new HardwareProfile(m.name(), m.description(), m.source() + "; not measured, from " + base.name()
                + ": " + base.source(), base.gpusPerNode(), gemm, m.nvlink() != null ? m.nvlink() : base.nvlink(),
                base.network(), m.copyEngine() != null ? m.copyEngine() : base.copyEngine(), base.contention(),
                new HardwareProfile.Dispatch(defaultUs, dispatch), base.ncclP2p());
    }
}
