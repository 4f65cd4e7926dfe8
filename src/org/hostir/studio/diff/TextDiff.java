package org.hostir.studio.diff;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Unified diff of two texts by lines (for the pass inspector's text tab and {@code hirstudio lower --passes}),
 * with a shortest edit script from {@link LineMatcher}. At each change, removed lines come before added ones.
 */
public final class TextDiff {
    public static final int CONTEXT = 3;

    private TextDiff() {}

    /** The unified diff with headers {@code --- before} and {@code +++ after}; empty when the texts are equal. */
    public static String unified(String before, String after) {
        return unified(before, after, "before", "after");
    }

    public static String unified(String before, String after, String beforeLabel, String afterLabel) {
        List<Hunk> hunks = hunks(before, after, CONTEXT);
        if (hunks.isEmpty()) return "";
        StringBuilder out = new StringBuilder();
        out.append("--- ").append(beforeLabel).append('\n').append("+++ ").append(afterLabel).append('\n');
        for (Hunk h : hunks) h.appendTo(out);
        return out.toString();
    }

    /**
     * The hunks, with up to {@code context} unchanged lines around each change; changes at most
     * {@code 2 * context} unchanged lines apart share a hunk. None when the texts are equal.
     */
    public static List<Hunk> hunks(String before, String after, int context) {
        if (context < 0) throw new IllegalArgumentException("context must be >= 0");
        List<String> a = split(before);
        List<String> b = split(after);
        // Lines become small ints so the matcher compares ints, not strings; the raw line, newline included, is
        // the key, so a last line that lacks its newline differs from the same line with one.
        Map<String, Integer> keys = new HashMap<>();
        int[] aKeys = keysOf(a, keys);
        int[] bKeys = keysOf(b, keys);
        return group(script(LineMatcher.match(aKeys, bKeys, keys.size())), a, b, context);
    }

    /** Edit operations in output order, as Kind ordinals. */
    private static byte[] script(LineMatcher.Flags m) {
        int n = m.deleted().length, mm = m.inserted().length;
        byte[] ops = new byte[n + mm];
        int size = 0, i = 0, j = 0;
        while (i < n || j < mm) {
            if (i < n && m.deleted()[i]) {
                ops[size++] = (byte) Hunk.Kind.REMOVED.ordinal();
                i++;
            } else if (j < mm && m.inserted()[j]) {
                ops[size++] = (byte) Hunk.Kind.ADDED.ordinal();
                j++;
            } else {
                ops[size++] = (byte) Hunk.Kind.CONTEXT.ordinal();
                i++;
                j++;
            }
        }
        return Arrays.copyOf(ops, size);
    }

    private static List<Hunk> group(byte[] ops, List<String> a, List<String> b, int context) {
        int same = Hunk.Kind.CONTEXT.ordinal();
        // aAt[p], bAt[p]: the lines of a and b consumed before op p.
        int[] aAt = new int[ops.length + 1];
        int[] bAt = new int[ops.length + 1];
        for (int p = 0; p < ops.length; p++) {
            aAt[p + 1] = aAt[p] + (ops[p] == Hunk.Kind.ADDED.ordinal() ? 0 : 1);
            bAt[p + 1] = bAt[p] + (ops[p] == Hunk.Kind.REMOVED.ordinal() ? 0 : 1);
        }
        List<Hunk> hunks = new ArrayList<>();
        int p = 0;
        while (p < ops.length) {
            if (ops[p] == same) {
                p++;
                continue;
            }
            int first = p;
            int last = p; // last change op of this hunk
            for (int q = p + 1; q < ops.length && q - last <= 2 * context + 1; q++) {
                if (ops[q] != same) last = q;
            }
            int from = Math.max(0, first - context);
            int to = Math.min(ops.length, last + 1 + context);
            hunks.add(hunk(ops, from, to, aAt, bAt, a, b));
            p = to;
        }
        return List.copyOf(hunks);
    }

    private static Hunk hunk(byte[] ops, int from, int to, int[] aAt, int[] bAt, List<String> a, List<String> b) {
        List<Hunk.Line> lines = new ArrayList<>(to - from);
        for (int p = from; p < to; p++) {
            Hunk.Kind kind = Hunk.Kind.values()[ops[p]];
            String raw = kind == Hunk.Kind.ADDED ? b.get(bAt[p]) : a.get(aAt[p]);
            boolean terminated = raw.endsWith("\n");
            lines.add(new Hunk.Line(kind, terminated ? raw.substring(0, raw.length() - 1) : raw, terminated));
        }
        int aCount = aAt[to] - aAt[from];
        int bCount = bAt[to] - bAt[from];
        return new Hunk(aCount == 0 ? aAt[from] : aAt[from] + 1, aCount,
                bCount == 0 ? bAt[from] : bAt[from] + 1, bCount, lines);
    }

    /** Lines with their newline kept; a text ending in a newline has no empty last line. */
    private static List<String> split(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf('\n', start);
            end = end < 0 ? text.length() : end + 1;
            lines.add(text.substring(start, end));
            start = end;
        }
        return lines;
    }

    private static int[] keysOf(List<String> lines, Map<String, Integer> keys) {
        int[] out = new int[lines.size()];
        for (int i = 0; i < out.length; i++) {
            Integer fresh = keys.size();
            Integer key = keys.putIfAbsent(lines.get(i), fresh);
            out[i] = key == null ? fresh : key;
        }
        return out;
    }
}
