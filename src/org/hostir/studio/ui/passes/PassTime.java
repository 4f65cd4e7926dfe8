package org.hostir.studio.ui.passes;

import java.util.Locale;

/**
 * A pass's time as the pass list shows it: milliseconds with three significant figures at most ({@code 0.04},
 * {@code 3.58}, {@code 14.6}, {@code 358}), so that the column keeps one width whether a lowering ran cold or warm.
 * In microseconds the first lowering after start read six digits (115704) where later ones read four (drive 17,
 * finding 10), widening the list; the exact microseconds are in each cell's tooltip.
 */
final class PassTime {
    private PassTime() {}

    /**
     * The widest figure written below ten seconds, what the column is sized for: the digits are as wide as each other
     * in the fonts used, and the four of {@code 9999} are wider than the three and the point of {@code 9.99}.
     */
    static final String WIDEST = "9999";

    /**
     * Said in the column's tooltips: the first lowering after the Studio starts also loads and compiles the lowering's
     * code (the JVM's warm-up), so its passes read up to a hundred times slower than the same passes later.
     */
    static final String NOTE = "Times in ms; the first lowering after the Studio starts includes the JVM's warm-up "
            + "(loading and compiling the lowering's code) and can read up to 100 times slower than later ones.";

    /** {@code nanos} in milliseconds, three significant figures at most, no more than two decimals. */
    static String shown(long nanos) {
        double ms = nanos / 1e6;
        if (ms < 9.995) return String.format(Locale.ROOT, "%.2f", ms);
        if (ms < 99.95) return String.format(Locale.ROOT, "%.1f", ms);
        return String.format(Locale.ROOT, "%.0f", ms);
    }
}
