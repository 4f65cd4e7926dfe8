package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.compare.rangedifferencer.IRangeComparator;
import org.eclipse.compare.rangedifferencer.RangeDifference;
import org.eclipse.compare.rangedifferencer.RangeDifferencer;

/**
 * A stretch in which a source text and its rewrite differ: what a graph edit replaces in the Source page's document.
 * Setting the whole text sent the Source page's caret to the first line and its view to the top (issue 35: back from
 * a graph edit, the place one was reading was gone); replacing only the changed stretches moves the caret with the
 * text around it, as Eclipse's multi-page editors keep their source's caret through an edit on another page.
 */
public record ChangedRegion(int offset, int length, String text) {
    /**
     * The stretches of {@code was} to replace, first to last, to give {@code now}: the changed lines (Eclipse
     * Compare's line differencer, the one its text compare uses), then the characters that differ within them.
     */
    public static List<ChangedRegion> between(String was, String now) {
        List<String> a = lines(was), b = lines(now);
        int[] aAt = starts(a), bAt = starts(b);
        List<ChangedRegion> out = new ArrayList<>();
        for (RangeDifference d : RangeDifferencer.findDifferences(new Lines(a), new Lines(b))) {
            addLines(out, was, now, aAt, bAt, d.leftStart(), d.leftEnd(), d.rightStart(), d.rightEnd());
        }
        return out;
    }

    /** A text's lines as the differencer compares them: equal when their characters, line break included, are. */
    private record Lines(List<String> lines) implements IRangeComparator {
        @Override public int getRangeCount() { return lines.size(); }

        @Override public boolean rangesEqual(int i, IRangeComparator other, int j) {
            return lines.get(i).equals(((Lines) other).lines.get(j));
        }

        @Override public boolean skipRangeComparison(int length, int maxLength, IRangeComparator other) { return false; }
    }

    /**
     * Adds the replacement of was's lines [i0, i1) by now's lines [j0, j1), line by line in pairs (the lines left over
     * go with the last pair), so that a caret on a line the edit changes (a comma added at its end) stays on it.
     */
    private static void addLines(List<ChangedRegion> out, String was, String now, int[] aAt, int[] bAt,
            int i0, int i1, int j0, int j1) {
        int pairs = Math.min(i1 - i0, j1 - j0);
        if (pairs == 0) add(out, was, now, aAt[i0], aAt[i1], bAt[j0], bAt[j1]);
        for (int k = 0; k < pairs; k++) {
            boolean last = k == pairs - 1;
            add(out, was, now, aAt[i0 + k], last ? aAt[i1] : aAt[i0 + k + 1],
                    bAt[j0 + k], last ? bAt[j1] : bAt[j0 + k + 1]);
        }
    }

    /** Adds the replacement of was[from, to) by now[nowFrom, nowTo), narrowed to the characters that differ. */
    private static void add(List<ChangedRegion> out, String was, String now, int from, int to, int nowFrom, int nowTo) {
        int head = 0;
        while (from + head < to && nowFrom + head < nowTo && was.charAt(from + head) == now.charAt(nowFrom + head)) head++;
        int tail = 0;
        while (to - tail > from + head && nowTo - tail > nowFrom + head
                && was.charAt(to - 1 - tail) == now.charAt(nowTo - 1 - tail)) tail++;
        if (to - tail == from + head && nowTo - tail == nowFrom + head) return;   // nothing differs
        out.add(new ChangedRegion(from + head, to - tail - from - head, now.substring(nowFrom + head, nowTo - tail)));
    }

    /** The text's lines, each with its line break. */
    private static List<String> lines(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int k = 0; k < text.length(); k++) {
            if (text.charAt(k) == '\n') {
                out.add(text.substring(start, k + 1));
                start = k + 1;
            }
        }
        if (start < text.length()) out.add(text.substring(start));
        return out;
    }

    /** Where each line starts, and the text's length last. */
    private static int[] starts(List<String> lines) {
        int[] at = new int[lines.size() + 1];
        for (int k = 0; k < lines.size(); k++) at[k + 1] = at[k] + lines.get(k).length();
        return at;
    }
}
