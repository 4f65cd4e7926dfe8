package org.hostir.studio.ui.timeline.model;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The timeline's rank groups, as Perfetto groups a process's tracks: the first row of each rank is its header,
 * and a collapsed rank shows only that header. Which ranks are collapsed, and which rows that hides. Free of SWT.
 */
public final class RankGroups {
    private final Set<Integer> collapsed = new HashSet<>();

    public boolean collapsed(int rank) { return collapsed.contains(rank); }

    /** Collapses an expanded rank, expands a collapsed one. */
    public void toggle(int rank) {
        if (!collapsed.remove(rank)) collapsed.add(rank);
    }

    public void expand(int rank) { collapsed.remove(rank); }

    public void clear() { collapsed.clear(); }

    /** Whether row {@code r} is the first row of its rank (the one with the triangle). */
    public static boolean header(List<TimelineRows.Row> rows, int r) {
        return r == 0 || rows.get(r - 1).rank() != rows.get(r).rank();
    }

    /** Whether row {@code r} is hidden: its rank is collapsed and it is not the rank's header. */
    public boolean hidden(List<TimelineRows.Row> rows, int r) {
        return !header(rows, r) && collapsed.contains(rows.get(r).rank());
    }

    /** How many rows {@code rank} has (a header with one row has nothing to fold). */
    public static int rowsOf(List<TimelineRows.Row> rows, int rank) {
        int n = 0;
        for (TimelineRows.Row row : rows) if (row.rank() == rank) n++;
        return n;
    }

    /** The header row of row {@code r}'s rank (where a hidden row's arrows end). */
    public static int headerOf(List<TimelineRows.Row> rows, int r) {
        int h = r;
        while (!header(rows, h)) h--;
        return h;
    }
}
