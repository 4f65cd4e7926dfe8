package org.hostir.studio.ui.timeline.model;

import java.util.Locale;

/** The ruler above the bars: tick steps of 1, 2 or 5 times a power of ten, and labels counted from the run's start. */
public final class TimeRuler {
    private TimeRuler() {}

    /** 1, 2 or 5 times a power of ten, at least {@code minNs}. */
    public static double step(double minNs) {
        double p = Math.pow(10, Math.floor(Math.log10(Math.max(minNs, 1e-3))));
        for (double m : new double[] { 1, 2, 5, 10 }) {
            if (m * p >= minNs) return m * p;
        }
        return 10 * p;
    }

    /** A time with a unit chosen from the ruler step, so neighbouring labels differ. */
    public static String label(double ns, double step) {
        if (Math.abs(ns) < step * 1e-6) ns = 0; // the tick at the start: "0", not "-0"
        if (step >= 1e9) return String.format(Locale.ROOT, "%.0f s", ns / 1e9);
        if (step >= 1e6) return String.format(Locale.ROOT, "%.0f ms", ns / 1e6);
        if (step >= 1e5) return String.format(Locale.ROOT, "%.1f ms", ns / 1e6);
        if (step >= 1e3) return String.format(Locale.ROOT, "%.0f \u00b5s", ns / 1e3);
        if (step >= 1e2) return String.format(Locale.ROOT, "%.1f \u00b5s", ns / 1e3);
        return String.format(Locale.ROOT, "%.0f ns", ns);
    }
}
