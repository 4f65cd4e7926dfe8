package org.hostir.studio.ui.tests;

import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;

/**
 * What the screen shows, read back as pixels: the tests judge what a person sees (a widget's own model can say
 * otherwise), so they copy the display's area rather than ask the widget to paint itself.
 */
public final class ScreenPixels {
    private ScreenPixels() {}

    /** The control's whole area as the screen shows it. */
    public static ImageData of(Control c) {
        var size = c.getSize();
        return of(c, new Rectangle(0, 0, size.x, size.y));
    }

    /** The part {@code r} (in the control's coordinates) of the control as the screen shows it. */
    public static ImageData of(Control c, Rectangle r) {
        var origin = c.toDisplay(r.x, r.y);
        return ofDisplay(c.getDisplay(), new Rectangle(origin.x, origin.y, r.width, r.height));
    }

    /** The display's area {@code r} (in display coordinates). */
    public static ImageData ofDisplay(Display display, Rectangle r) {
        Image image = new Image(display, Math.max(1, r.width), Math.max(1, r.height));
        GC gc = new GC(display);
        try {
            gc.copyArea(image, r.x, r.y);
            return image.getImageData();
        } finally {
            gc.dispose();
            image.dispose();
        }
    }
}
