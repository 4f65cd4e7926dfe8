package org.hostir.studio.ir.parse;

import java.util.Arrays;

/** Where a text's lines start, so a log with many containers turns offsets into lines without rescanning it. */
final class LineIndex {
    private final int[] breaks;

    private LineIndex(int[] breaks) { this.breaks = breaks; }

    static LineIndex of(String text) {
        int[] b = new int[16];
        int n = 0;
        for (int i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
            if (n == b.length) b = Arrays.copyOf(b, n * 2);
            b[n++] = i;
        }
        return new LineIndex(Arrays.copyOf(b, n));
    }

    /** The 1-based line of a character offset: one more than the line breaks before it. */
    int lineOf(int offset) {
        int at = Arrays.binarySearch(breaks, offset);
        return (at >= 0 ? at : -at - 1) + 1;
    }
}
