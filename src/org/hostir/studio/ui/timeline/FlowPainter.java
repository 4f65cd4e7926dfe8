package org.hostir.studio.ui.timeline;

import java.util.Arrays;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.hostir.studio.ui.timeline.model.RankGroups;
import org.hostir.studio.ui.timeline.model.TimelineRows;

/**
 * The send-to-receive arrows whose span is on screen, from the rows' precomputed arrays. Zoomed out, many arrows
 * between the same two rows land on the same pixels: one is drawn per row pair and few pixels. An arrow to or
 * from a row folded away ends at its rank's header row.
 */
final class FlowPainter {
    private int[] lastArrowX;
    private final int[] arrowHead = new int[6];
    private int arrows;

    /** Arrows the last paint drew (for the benchmark). */
    int arrows() { return arrows; }

    void paint(GC gc, TimelineCanvas.Palette palette, TimelineRows rows, int[] rowTop, int[] rowHeight, BarPainter bars,
               int scroll, int width, int height) {
        long[] flowFrom = rows.flowFrom(), flowTo = rows.flowTo();
        int[] flowFromRow = rows.flowFromRow(), flowToRow = rows.flowToRow();
        int n = flowFrom.length;
        arrows = 0;
        if (n == 0) return;
        int rowCount = rowTop.length;
        if (lastArrowX == null || lastArrowX.length != rowCount * rowCount) lastArrowX = new int[rowCount * rowCount];
        Arrays.fill(lastArrowX, -1_000_000);
        gc.setForeground(palette.arrow());
        gc.setBackground(palette.arrow());
        gc.setAntialias(SWT.ON);
        int top = TimelineCanvas.RULER_HEIGHT, left = TimelineCanvas.LABEL_WIDTH;
        for (int i = 0; i < n; i++) {
            int x1 = bars.x(flowFrom[i]), x2 = bars.x(flowTo[i]);
            if ((x1 < left && x2 < left) || (x1 > width && x2 > width)) continue;
            int r1 = flowFromRow[i], r2 = flowToRow[i];
            if (r1 < 0 || r2 < 0) continue;
            if (rowHeight[r1] == 0) r1 = RankGroups.headerOf(rows.rows(), r1);
            if (rowHeight[r2] == 0) r2 = RankGroups.headerOf(rows.rows(), r2);
            int y1 = top + rowTop[r1] - scroll + rowHeight[r1] / 2;
            int y2 = top + rowTop[r2] - scroll + rowHeight[r2] / 2;
            if ((y1 < top && y2 < top) || (y1 > height && y2 > height)) continue;
            int pair = r1 * rowCount + r2;
            if (Math.abs(lastArrowX[pair] - x1) < 3) continue; // flows are sorted by send: a near twin was drawn
            lastArrowX[pair] = x1;
            arrows++;
            arrow(gc, x1, y1, x2, y2);
        }
        gc.setAntialias(SWT.DEFAULT);
    }

    private void arrow(GC gc, int x1, int y1, int x2, int y2) {
        gc.drawLine(x1, y1, x2, y2);
        double a = Math.atan2(y2 - y1, x2 - x1);
        arrowHead[0] = x2;
        arrowHead[1] = y2;
        arrowHead[2] = (int) (x2 - 8 * Math.cos(a - 0.4));
        arrowHead[3] = (int) (y2 - 8 * Math.sin(a - 0.4));
        arrowHead[4] = (int) (x2 - 8 * Math.cos(a + 0.4));
        arrowHead[5] = (int) (y2 - 8 * Math.sin(a + 0.4));
        gc.fillPolygon(arrowHead);
    }
}
