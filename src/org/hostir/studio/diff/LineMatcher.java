package org.hostir.studio.diff;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * A shortest edit script between two sequences of line keys, by Myers' O((N+M)D) algorithm in its linear-space
 * form ("An O(ND) Difference Algorithm and Its Variations", 1986, section 4b): find a point on an optimal path
 * by running the greedy search from both ends until the frontiers overlap, split there, recurse.
 *
 * <p>The result is one flag per line ({@link Flags}); unflagged lines pair up in order.
 *
 * <p>Guard: the searches of one diff may visit {@link #WORK_BUDGET} edit-graph points in all (diagonals tried
 * plus snake steps; a second or so on random text). Once that is spent, each remaining sub-problem is reported as
 * "replace all of it": still a correct script, no longer minimal. Printed programs, whose lines are mostly
 * distinct, stay far below it even at tens of thousands of lines.
 */
final class LineMatcher {
    static final long WORK_BUDGET = 100_000_000L;
    /** Marks a diagonal no path reaches in the current round, so off-grid moves never win. */
    private static final int UNREACHED = -1;

    private final int[] a;
    private final int[] b;
    private final boolean[] deleted;
    private final boolean[] inserted;
    private final int[] forward;  // forward[offset + k]: furthest x on diagonal k = x - y from the start
    private final int[] backward; // backward[offset + c]: furthest x steps back from the end on diagonal c
    private final int offset;
    private long budget = WORK_BUDGET;

    private LineMatcher(int[] a, int[] b) {
        this.a = a;
        this.b = b;
        deleted = new boolean[a.length];
        inserted = new boolean[b.length];
        offset = (a.length + b.length + 1) / 2 + 1;
        forward = new int[2 * offset + 1];
        backward = new int[2 * offset + 1];
    }

    /**
     * Flags for {@code a} and {@code b}, whose equal lines have equal keys, all keys in {@code [0, keyCount)}.
     * Lines whose key the other side lacks cannot be in any common subsequence: they are flagged at once and left
     * out of the search, which keeps it small when a pass renames things (the result stays minimal).
     */
    static Flags match(int[] a, int[] b, int keyCount) {
        boolean[] inA = new boolean[keyCount];
        boolean[] inB = new boolean[keyCount];
        for (int key : a) inA[key] = true;
        for (int key : b) inB[key] = true;
        int[] aKept = kept(a, inB);
        int[] bKept = kept(b, inA);
        LineMatcher m = new LineMatcher(pick(a, aKept), pick(b, bKept));
        m.compare(0, aKept.length, 0, bKept.length);
        return new Flags(spread(m.deleted, aKept, a.length), spread(m.inserted, bKept, b.length));
    }

    /** {@code deleted[i]}: line i of a is not in the common subsequence; {@code inserted[j]} likewise for b. */
    record Flags(boolean[] deleted, boolean[] inserted) {}

    /** Positions of the lines whose key occurs on the other side. */
    private static int[] kept(int[] lines, boolean[] onOtherSide) {
        return IntStream.range(0, lines.length).filter(i -> onOtherSide[lines[i]]).toArray();
    }

    private static int[] pick(int[] lines, int[] positions) {
        return Arrays.stream(positions).map(i -> lines[i]).toArray();
    }

    /** Flags of the full sequence: the searched lines' flags at their positions, every other line flagged. */
    private static boolean[] spread(boolean[] searched, int[] positions, int length) {
        boolean[] out = new boolean[length];
        Arrays.fill(out, true);
        for (int p = 0; p < positions.length; p++) out[positions[p]] = searched[p];
        return out;
    }

    private void compare(int aLo, int aHi, int bLo, int bHi) {
        while (aLo < aHi && bLo < bHi && a[aLo] == b[bLo]) {
            aLo++;
            bLo++;
        }
        while (aLo < aHi && bLo < bHi && a[aHi - 1] == b[bHi - 1]) {
            aHi--;
            bHi--;
        }
        if (aLo == aHi || bLo == bHi) {
            Arrays.fill(deleted, aLo, aHi, true);
            Arrays.fill(inserted, bLo, bHi, true);
            return;
        }
        int[] split = split(aLo, aHi, bLo, bHi);
        if (split == null) {
            Arrays.fill(deleted, aLo, aHi, true);
            Arrays.fill(inserted, bLo, bHi, true);
            return;
        }
        // Both halves cost strictly less than the whole (see split), so the recursion ends.
        compare(aLo, split[0], bLo, split[1]);
        compare(split[0], aHi, split[1], bHi);
    }

    /**
     * A point (x, y), absolute, on a shortest edit path of the sub-problem, or null once the budget is spent.
     * Both ends are trimmed of common lines, so the problem costs D >= 2. The point returned is the forward
     * frontier where the two frontiers first overlap. It is d edits from the start; it lies no earlier on its
     * diagonal than where the backward path entered that diagonal (both snakes are maximal), and the cost to the
     * end never grows along a diagonal, so it is at most D - d edits from the end. With 0 < d < D both halves
     * are smaller problems.
     */
    private int[] split(int aLo, int aHi, int bLo, int bHi) {
        int n = aHi - aLo;
        int m = bHi - bLo;
        int delta = n - m;
        boolean odd = (delta & 1) != 0;
        int maxD = (n + m + 1) / 2;
        for (int d = 0; d <= maxD; d++) {
            budget -= 2L * (d + 1);
            if (budget < 0) return null;
            for (int k = -d; k <= d; k += 2) {
                int x = advance(forward, d, k, n, m);
                if (x == UNREACHED) continue;
                int y = x - k;
                int from = x;
                while (x < n && y < m && a[aLo + x] == b[bLo + y]) {
                    x++;
                    y++;
                }
                budget -= x - from;
                forward[offset + k] = x;
                int c = delta - k;
                if (odd && c >= -(d - 1) && c <= d - 1) {
                    int back = backward[offset + c];
                    if (back != UNREACHED && x + back >= n) return new int[] {aLo + x, bLo + y};
                }
            }
            for (int c = -d; c <= d; c += 2) {
                int x = advance(backward, d, c, n, m);
                if (x == UNREACHED) continue;
                int y = x - c;
                int from = x;
                while (x < n && y < m && a[aHi - 1 - x] == b[bHi - 1 - y]) {
                    x++;
                    y++;
                }
                budget -= x - from;
                backward[offset + c] = x;
                int k = delta - c;
                if (!odd && k >= -d && k <= d) {
                    int front = forward[offset + k];
                    if (front != UNREACHED && front + x >= n) return new int[] {aLo + front, bLo + front - k};
                }
            }
        }
        throw new IllegalStateException("frontiers never met");
    }

    /**
     * The x where diagonal k starts in round d: one edit from diagonal k+1 (y grows) or k-1 (x grows), whichever
     * reaches further and stays on the n x m grid; round d-1's values are still in {@code v}. Stores and returns
     * {@link #UNREACHED} when neither does.
     */
    private int advance(int[] v, int d, int k, int n, int m) {
        if (d == 0) return 0;
        int best = UNREACHED;
        if (k < d) {
            int x = v[offset + k + 1];
            if (x != UNREACHED && x - k <= m) best = x;
        }
        if (k > -d) {
            int x = v[offset + k - 1];
            if (x != UNREACHED && x + 1 <= n) best = Math.max(best, x + 1);
        }
        if (best == UNREACHED) v[offset + k] = UNREACHED;
        return best;
    }
}
