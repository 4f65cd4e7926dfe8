package org.hostir.studio.ui.timeline;

import org.eclipse.jface.window.DefaultToolTip;
import org.eclipse.jface.window.ToolTip;
import org.eclipse.swt.widgets.Event;

/**
 * The bar tooltip: shown beside the pointer (a control's own tooltip text appeared where the pointer first
 * stopped on the canvas, far from later bars), made again for each bar, with the start on the ruler's origin;
 * over a counter track, the counter's value at the pointer; over the label column, the whole label.
 */
final class BarToolTip extends DefaultToolTip {
    private final TimelineCanvas timeline;

    BarToolTip(TimelineCanvas timeline) {
        super(timeline.control(), ToolTip.RECREATE, false);
        this.timeline = timeline;
        setShift(new org.eclipse.swt.graphics.Point(14, 18));
        setPopupDelay(300);
        setHideOnMouseDown(true);
    }

    @Override
    protected Object getToolTipArea(Event event) {
        // over the label column, an area per label: its whole text, which the column may clip
        if (event.x < TimelineCanvas.LABEL_WIDTH) {
            String label = timeline.labelAt(event.y);
            return label == null ? super.getToolTipArea(event) : java.util.List.of("label", label);
        }
        // a new area per bar, so that moving to the next bar makes a new tooltip at the pointer
        Object bar = timeline.eventAt(event.x, event.y);
        if (bar != null) return bar;
        var pair = timeline.differenceAt(event.x, event.y);
        if (pair != null) return pair;
        // over a counter, a new area per step of its value (a sample's text holds until the next sample)
        var counter = timeline.counterAt(event.x, event.y);
        if (counter != null) {
            return java.util.List.of(counter, CounterPainter.index(counter.samples(), (long) timeline.timeAt(event.x)));
        }
        return super.getToolTipArea(event);
    }

    @Override
    protected boolean shouldCreateToolTip(Event event) {
        return timeline.hoverText(event.x, event.y) != null && super.shouldCreateToolTip(event);
    }

    @Override
    protected String getText(Event event) { return timeline.hoverText(event.x, event.y); }
}
