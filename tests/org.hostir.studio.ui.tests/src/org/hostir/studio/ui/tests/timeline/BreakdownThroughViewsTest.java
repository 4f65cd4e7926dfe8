package org.hostir.studio.ui.tests.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.hostir.studio.trace.Breakdown;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.timeline.model.BreakdownTable;
import org.hostir.studio.ui.timeline.model.RangeFigures;
import org.hostir.studio.ui.timeline.model.StackedRuns;
import org.junit.jupiter.api.Test;

/**
 * A bar shown through a range cut ({@link RangeFigures#cut}) or a prediction stacked above its run
 * ({@link StackedRuns#of}) keeps its breakdown, so the details panel still shows an exchange's bytes matrix and a
 * grouped_mm's rows per expert; the stacked exchange's matrix is gathered from its own run only. Both rebuilt the
 * bars without the breakdown, and the details panel showed no table.
 */
public class BreakdownThroughViewsTest {
    private static final String EXCHANGE = "Dispatch 5 x";

    /** Two ranks' bars of one exchange (node 5, iteration 0), rank r sending {@code bytes[r]}, and a grouped_mm. */
    private static Timeline run(long[][] bytes, long[] groupEnds) {
        return new Timeline(List.of(
                bar(0, EventKind.P2P, EXCHANGE, 5, 1_000, 2_000, Breakdown.bytesToRank(EXCHANGE, bytes[0])),
                bar(1, EventKind.P2P, EXCHANGE, 5, 1_000, 2_500, Breakdown.bytesToRank(EXCHANGE, bytes[1])),
                bar(0, EventKind.MATMUL, "grouped_mm", 6, 2_000, 4_000, Breakdown.rowsPerGroup(groupEnds))),
                Map.of());
    }

    private static TimelineEvent bar(int rank, EventKind kind, String name, int node, long from, long to, Breakdown b) {
        return new TimelineEvent(rank, 0, kind, name, node, 0, from, to, 1024, 1_000_000, -1, 0, Optional.of(b));
    }

    private static TimelineEvent find(Timeline t, int rank, String name, boolean predicted) {
        return t.events().stream().filter(e -> e.rank() == rank && e.name().equals(name)
                && StackedRuns.predicted(e.stream()) == predicted).findFirst().orElseThrow();
    }

    private static String table(Timeline t, TimelineEvent e) {
        return BreakdownTable.of(t, e).map(BreakdownTable::text).orElse("no table for " + e);
    }

    @Test
    public void aRangeCutKeepsTheMatrixAndTheExperts() {
        Timeline whole = run(new long[][] {{10, 20}, {30, 40}}, new long[] {3, 3, 8});
        Timeline cut = RangeFigures.cut(whole, 1_500, 3_000);
        assertEquals(table(whole, find(whole, 0, EXCHANGE, false)), table(cut, find(cut, 0, EXCHANGE, false)));
        // the cut's flops are the part inside the range, so the experts' flops are halved; their rows are the bar's
        assertTrue(table(cut, find(cut, 0, "grouped_mm", false)).contains("expert 2  5  62.5 %  312,500"),
                table(cut, find(cut, 0, "grouped_mm", false)));
        assertTrue(table(cut, find(cut, 0, EXCHANGE, false)).contains("rank 1  30 B  40 B  70 B"),
                table(cut, find(cut, 0, EXCHANGE, false)));
        assertTrue(table(cut, find(cut, 0, "grouped_mm", false)).contains("busiest: expert 2, 5 of 8 rows"),
                table(cut, find(cut, 0, "grouped_mm", false)));
    }

    @Test
    public void aStackedPredictionKeepsEachRunsOwnMatrix() {
        Timeline measured = run(new long[][] {{10, 20}, {30, 40}}, new long[] {3, 3, 8});
        Timeline predicted = run(new long[][] {{1, 2}, {3, 4}}, new long[] {4, 8, 8});
        Timeline stacked = StackedRuns.of(predicted, measured);
        assertEquals(table(measured, find(measured, 1, EXCHANGE, false)), table(stacked, find(stacked, 1, EXCHANGE, false)));
        assertEquals(table(predicted, find(predicted, 1, EXCHANGE, false)),
                table(stacked, find(stacked, 1, EXCHANGE, true)));
        assertEquals(table(measured, find(measured, 0, "grouped_mm", false)),
                table(stacked, find(stacked, 0, "grouped_mm", false)));
        assertEquals(table(predicted, find(predicted, 0, "grouped_mm", false)),
                table(stacked, find(stacked, 0, "grouped_mm", true)));
        assertTrue(table(stacked, find(stacked, 0, EXCHANGE, true)).contains("rank 0  1 B  2 B  3 B"),
                table(stacked, find(stacked, 0, EXCHANGE, true)));
    }
}
