package org.hostir.studio.trace;

import java.util.Locale;

/**
 * Times in reports, every one of a report in one unit chosen from its largest (so columns compare at a glance):
 * {@code TimeText.of(span).format(ns)}.
 */
public enum TimeText {
    S("s", 1e9), MS("ms", 1e6), US("us", 1e3), NS("ns", 1);

    private final String symbol;
    private final double ns;

    TimeText(String symbol, double ns) {
        this.symbol = symbol;
        this.ns = ns;
    }

    /** The unit for a report whose largest time is {@code ns}. */
    public static TimeText of(long ns) {
        for (TimeText u : values()) {
            if (Math.abs(ns) >= u.ns) return u;
        }
        return NS;
    }

    public String format(long value) {
        return this == NS ? value + " ns" : String.format(Locale.ROOT, "%.2f %s", value / ns, symbol);
    }

    public String format(double value) {
        return this == NS ? String.format(Locale.ROOT, "%.0f ns", value)
                : String.format(Locale.ROOT, "%.2f %s", value / ns, symbol);
    }

    /** A fraction as a whole percentage: {@code 0.256 -> "26%"}. */
    public static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.0f%%", fraction * 100);
    }
}
