package org.hostir.studio.ui.tests.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;

import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.timeline.model.TimelineRows;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: a click on a pixel picks the bar painted there. At 150 us a pixel, pixel 10 spans [1500, 1650) us; the
 * hit test is given that span, as the canvas passes a pixel's, with 2 pixels of slack.
 */
public class TimelineRowsHitTest {
    private static final long US = 1000, PX = 150 * US, SLACK = 2 * PX;
    private static final double FROM = 10 * PX, TO = 11 * PX;

    private static TimelineEvent bar(EventKind kind, String name, long startUs, long endUs) {
        return new TimelineEvent(0, 0, kind, name, -1, 0, startUs * US, endUs * US, 0, 0, -1, -1);
    }

    private static TimelineRows.Row row(TimelineEvent... bars) {
        return new TimelineRows(new Timeline(List.of(bars), Map.of())).rows().get(0);
    }

    /** A 112 us matmul starting inside the pixel, a 40 us copy after it in the next: the matmul is painted here. */
    @Test
    public void aSubPixelBarPaintedInThePixelBeatsAShorterNeighbour() {
        TimelineEvent matmul = bar(EventKind.MATMUL, "matmul", 1560, 1672);
        TimelineEvent copy = bar(EventKind.COPY, "copy", 1680, 1720);
        assertEquals(matmul, row(matmul, copy).at(FROM, TO, SLACK, -1));
    }

    /** Two sub-pixel bars both starting in the pixel: the first is the one painted on it. */
    @Test
    public void theFirstOfTwoBarsInThePixelIsTheOnePainted() {
        TimelineEvent first = bar(EventKind.MATMUL, "first", 1510, 1600);
        TimelineEvent second = bar(EventKind.COPY, "second", 1610, 1620);
        assertEquals(first, row(first, second).at(FROM, TO, SLACK, -1));
    }

    /** A wide bar that ends in the pixel is not painted in it (its end pixel is not): the bar starting there is. */
    @Test
    public void aBarEndingInThePixelGivesWayToTheOneStartingThere() {
        TimelineEvent wide = bar(EventKind.MATMUL, "wide", 0, 1520);
        TimelineEvent thin = bar(EventKind.COPY, "thin", 1530, 1540);
        assertEquals(thin, row(wide, thin).at(FROM, TO, SLACK, -1));
    }

    /** A wide bar under the pointer beats a sub-pixel neighbour a pixel away. */
    @Test
    public void aWideBarUnderThePointerBeatsASubPixelNeighbour() {
        TimelineEvent wide = bar(EventKind.MATMUL, "wide", 0, 1700);
        TimelineEvent thin = bar(EventKind.COPY, "thin", 1710, 1715);
        assertEquals(wide, row(wide, thin).at(FROM, TO, SLACK, -1));
    }

    /** Nested bars (a second lane): the inner one wins in any lane, each lane gives its own. */
    @Test
    public void theInnerOfNestedBarsWins() {
        TimelineEvent outer = bar(EventKind.MATMUL, "outer", 0, 3000);
        TimelineEvent inner = bar(EventKind.COPY, "inner", 1520, 1530);
        TimelineRows.Row row = row(outer, inner);
        assertEquals(inner, row.at(FROM, TO, SLACK, -1));
        assertEquals(outer, row.at(FROM, TO, SLACK, 0));
        assertEquals(inner, row.at(FROM, TO, SLACK, 1));
    }

    /** Nothing painted in the pixel: the bar nearest its middle within the slack, else none. */
    @Test
    public void inAGapTheNearestBarWithinTheSlack() {
        TimelineEvent shortFar = bar(EventKind.COPY, "short", 1300, 1310);   // 265 us from the middle (1575)
        TimelineEvent longNear = bar(EventKind.MATMUL, "long", 1800, 1900);  // 225 us
        assertEquals(longNear, row(shortFar, longNear).at(FROM, TO, SLACK, -1));
        TimelineEvent far = bar(EventKind.MATMUL, "far", 1900, 2000);        // 325 us: past 2 pixels
        assertNull(row(far).at(FROM, TO, SLACK, -1));
    }
}
