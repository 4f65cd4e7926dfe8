package org.hostir.studio.ui.timeline;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.ScrollBar;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.timeline.model.RankGroups;
import org.hostir.studio.ui.timeline.model.TimelineRows;

/**
 * The timeline's mouse and keys, as in Perfetto and Nsight Systems: the wheel scrolls the rows, Ctrl+wheel zooms
 * around the pointer, Shift+wheel pans; dragging pans in time and rows, Shift+drag chooses a time range, a click
 * selects a bar, a click on a rank's triangle folds it; + - 0, the arrows, W/A/S/D (W zooms in, S out, A pans left,
 * D right) and C (folds the selected bar's rank, or the rank under the pointer).
 */
final class TimelineInput {
    private final TimelineCanvas timeline;
    private final Canvas canvas;
    /** A plain drag: where it started, the window and scroll then, whether it has moved. */
    private int dragX = -1, dragY;
    private double dragStart;
    private int dragScroll;
    private boolean dragged;
    /** A Shift+drag: the range being dragged out, or null. */
    private long[] ranging;

    TimelineInput(TimelineCanvas timeline) {
        this.timeline = timeline;
        this.canvas = timeline.canvas();
        canvas.addListener(SWT.MouseVerticalWheel, this::wheel);
        canvas.addListener(SWT.MouseDown, this::mouseDown);
        canvas.addListener(SWT.MouseMove, this::mouseMove);
        canvas.addListener(SWT.MouseUp, this::mouseUp);
        canvas.addListener(SWT.KeyDown, this::key);
    }

    private void wheel(Event e) {
        e.doit = false;
        if ((e.stateMask & SWT.CTRL) != 0) {
            timeline.zoom(e.count > 0 ? 0.8 : 1.25, Math.max(TimelineCanvas.LABEL_WIDTH, e.x));
        } else if ((e.stateMask & SWT.SHIFT) != 0) {
            timeline.pan(e.count > 0 ? -60 : 60);
        } else {
            ScrollBar bar = canvas.getVerticalBar();
            bar.setSelection(bar.getSelection() - Integer.signum(e.count) * TimelineCanvas.ROW_HEIGHT * 2);
            canvas.redraw();
        }
    }

    /** C: the selected bar's rank, else the rank of the row at canvas pixel {@code y}. */
    private void toggleRankAt(int y) {
        TimelineRows rows = timeline.rows();
        if (rows == null) return;
        if (timeline.selected() != null) {
            timeline.toggleRank(timeline.selected().rank());
            return;
        }
        int r = timeline.rowAtCanvasY(y);
        if (r >= 0) timeline.toggleRank(rows.rows().get(r).rank());
    }

    private void mouseDown(Event e) {
        // a right click selects the bar under it first, as in Eclipse's lists, so its context menu is about that bar
        if (e.button == 3 && timeline.eventAt(e.x, e.y) instanceof TimelineEvent hit && hit != timeline.selected()) {
            timeline.select(hit);
        }
        if (e.button != 1) return;
        if (e.x < TimelineCanvas.TOGGLE_WIDTH + 2 && foldedRankAt(e.y)) {
            canvas.setFocus();
            return;
        }
        if ((e.stateMask & SWT.SHIFT) != 0 && e.x > TimelineCanvas.LABEL_WIDTH) {
            ranging = new long[] {(long) timeline.timeAt(e.x), (long) timeline.timeAt(e.x)};
            timeline.dragRange(ranging);
            canvas.setFocus();
            return;
        }
        dragX = e.x;
        dragY = e.y;
        dragStart = timeline.viewStartNs();
        dragScroll = canvas.getVerticalBar().getSelection();
        dragged = false;
        canvas.setFocus();
    }

    /** Folds or unfolds the rank whose header row (with more rows) is at canvas pixel {@code y}; false if none. */
    private boolean foldedRankAt(int y) {
        TimelineRows rows = timeline.rows();
        int r = rows == null ? -1 : timeline.rowAtCanvasY(y);
        if (r < 0) return false;
        int rank = rows.rows().get(r).rank();
        if (!RankGroups.header(rows.rows(), r) || RankGroups.rowsOf(rows.rows(), rank) < 2) return false;
        timeline.toggleRank(rank);
        return true;
    }

    private void mouseMove(Event e) {
        if (ranging != null) {
            ranging[1] = (long) timeline.timeAt(Math.max(TimelineCanvas.LABEL_WIDTH, e.x));
            timeline.dragRange(ranging);
            return;
        }
        if (dragX >= 0 && (e.stateMask & SWT.BUTTON1) != 0) {
            if (Math.abs(e.x - dragX) + Math.abs(e.y - dragY) > 3) dragged = true;
            if (dragged) timeline.dragTo(dragStart - (e.x - dragX) * timeline.nsPerPixel(), dragScroll - (e.y - dragY));
        }
    }

    private void mouseUp(Event e) {
        if (ranging != null) {
            long[] r = ranging;
            ranging = null;
            r[1] = (long) timeline.timeAt(Math.max(TimelineCanvas.LABEL_WIDTH, e.x));
            // a Shift+click (under 3 pixels of drag) clears the range
            timeline.selectRange(Math.abs(timeline.xOf(r[1]) - timeline.xOf(r[0])) < 3 ? null : r);
            return;
        }
        if (e.button == 1 && dragX >= 0 && !dragged) timeline.select(timeline.eventAt(e.x, e.y));
        dragX = -1;
    }

    private void key(Event e) {
        int width = canvas.getClientArea().width;
        int mid = TimelineCanvas.LABEL_WIDTH + (width - TimelineCanvas.LABEL_WIDTH) / 2;
        int pointer = canvas.toControl(canvas.getDisplay().getCursorLocation()).x;
        int at = pointer > TimelineCanvas.LABEL_WIDTH && pointer < width ? pointer : mid;
        switch (Character.toLowerCase(e.character)) {
            case '+', '=' -> timeline.zoom(0.8, mid);
            case '-' -> timeline.zoom(1.25, mid);
            case '0' -> timeline.fit();
            case 'w' -> timeline.zoom(0.8, at);
            case 's' -> timeline.zoom(1.25, at);
            case 'a' -> timeline.pan(-80);
            case 'd' -> timeline.pan(80);
            case 'c' -> toggleRankAt(canvas.toControl(canvas.getDisplay().getCursorLocation()).y);
            default -> {
                if (e.keyCode == SWT.ARROW_LEFT) timeline.pan(-50);
                else if (e.keyCode == SWT.ARROW_RIGHT) timeline.pan(50);
            }
        }
    }
}
