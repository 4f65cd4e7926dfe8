package org.hostir.studio.ui.timeline;

import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Rectangle;

/**
 * A bar's label, drawn so that each of its pixels contrasts with what lies under it: the part on the bar in the
 * colour chosen against the bar, the parts off it (above and below a thin bar, which is lower than a line of text,
 * or past its end) in the canvas's text colour, chosen against the lane. A host bar's label was black on the grey
 * strip and on the near-black lane in Dark, where most of its glyphs lie (issue 35); light text clipped to the bar
 * would then sit on the grey strip. Where the text fits on the bar (a device bar in a full lane) it is drawn once.
 */
final class BarLabel {
    private BarLabel() {
    }

    /**
     * Draws {@code text}, {@code width} pixels wide in the GC's font, with its top left at {@code x}, {@code y}, a
     * line of {@code lineHeight}, over the bar {@code bar}: in {@code onBar} on it and {@code offBar} off it, within
     * the GC's clipping. The caller measures (and keeps) the width: measuring every label on every paint cost a
     * text layout per bar.
     */
    static void draw(GC gc, String text, int width, int x, int y, int lineHeight, Rectangle bar, Color onBar,
            Color offBar) {
        Rectangle box = new Rectangle(x, y, width, lineHeight);
        if (bar.contains(x, y) && bar.contains(x + width - 1, y + lineHeight - 1)) {
            gc.setForeground(onBar);
            gc.drawString(text, x, y, true);
            return;
        }
        Rectangle clip = gc.getClipping();
        try {
            part(gc, text, x, y, clip, box.intersection(bar), onBar);
            int right = box.x + box.width, bottom = box.y + box.height, barBottom = bar.y + bar.height;
            // above, below, then beside the bar in its rows
            part(gc, text, x, y, clip, new Rectangle(box.x, box.y, box.width, bar.y - box.y), offBar);
            part(gc, text, x, y, clip, new Rectangle(box.x, barBottom, box.width, bottom - barBottom), offBar);
            int top = Math.max(box.y, bar.y), rows = Math.min(bottom, barBottom) - top;
            part(gc, text, x, y, clip, new Rectangle(box.x, top, bar.x - box.x, rows), offBar);
            part(gc, text, x, y, clip, new Rectangle(bar.x + bar.width, top, right - bar.x - bar.width, rows), offBar);
        } finally {
            gc.setClipping(clip);
        }
    }

    /** The text drawn in {@code color} where it lies in {@code region} (and the GC's clipping {@code clip}). */
    private static void part(GC gc, String text, int x, int y, Rectangle clip, Rectangle region, Color color) {
        if (region.width <= 0 || region.height <= 0) return;
        Rectangle r = region.intersection(clip);
        if (r.isEmpty()) return;
        gc.setClipping(r);
        gc.setForeground(color);
        gc.drawString(text, x, y, true);
    }
}
