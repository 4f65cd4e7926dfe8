package org.hostir.studio.ui.editor;

import org.eclipse.draw2d.ColorConstants;
import org.eclipse.draw2d.FigureCanvas;
import org.eclipse.draw2d.IFigure;
import org.eclipse.draw2d.MouseEvent;
import org.eclipse.draw2d.MouseListener;
import org.eclipse.draw2d.MouseMotionListener;
import org.eclipse.draw2d.RectangleFigure;
import org.eclipse.draw2d.geometry.Point;
import org.eclipse.draw2d.geometry.Rectangle;
import org.eclipse.swt.SWT;

/**
 * The graph's gestures beyond a click, as GEF's Shapes and Logic editors have them: a marquee drag on the empty
 * canvas selects the nodes wholly inside it (Ctrl adds to the selection), Ctrl+wheel zooms, and moved nodes snap to a
 * grid.
 */
final class GraphGestures {
    /** The grid nodes snap to when moved, in unscaled figure pixels. */
    static final int GRID = 10;

    private GraphGestures() {}

    static int snap(int v) { return Math.max(0, Math.round(v / (float) GRID) * GRID); }

    /** Ctrl+wheel over the canvas zooms (the plain wheel still scrolls). */
    static void installWheelZoom(FigureCanvas canvas, GraphPage page) {
        canvas.addListener(SWT.MouseVerticalWheel, e -> {
            if ((e.stateMask & SWT.CTRL) == 0) return;
            e.doit = false;
            page.zoom(e.count > 0 ? 1.25 : 0.8);
        });
    }

    /** The marquee: listens on the nodes layer (presses on no node land there) and draws on {@code feedback}. */
    static final class Marquee implements MouseListener, MouseMotionListener {
        private final GraphPage page;
        private final IFigure feedback;
        /**
         * The dashed band. It is never hit: Draw2d gives a point to the topmost layer that contains it, and a band
         * that contained the pointer made the feedback layer take the drag and the release (nothing was selected).
         */
        private final RectangleFigure band = new RectangleFigure() {
            @Override
            public boolean containsPoint(int x, int y) { return false; }
        };
        private Point start;
        private boolean add;

        Marquee(GraphPage page, IFigure layer, IFigure feedback) {
            this.page = page;
            this.feedback = feedback;
            band.setFill(false);
            band.setForegroundColor(ColorConstants.gray);
            band.setLineStyle(SWT.LINE_DASH);
            layer.addMouseListener(this);
            layer.addMouseMotionListener(this);
        }

        @Override
        public void mousePressed(MouseEvent me) {
            if (me.button != 1 || page.connectMode()) return;
            start = me.getLocation();
            add = (me.getState() & SWT.CTRL) != 0;
            me.consume();   // Draw2d then sends the drag and the release here, wherever the pointer goes
        }

        @Override
        public void mouseDragged(MouseEvent me) {
            if (start == null) return;
            Rectangle r = new Rectangle(start, me.getLocation());
            if (band.getParent() == null) feedback.add(band);
            band.setBounds(r);
        }

        @Override
        public void mouseReleased(MouseEvent me) {
            if (start == null) return;
            Rectangle r = new Rectangle(start, me.getLocation());
            start = null;
            if (band.getParent() != null) feedback.remove(band);
            if (r.width > 3 || r.height > 3) page.selectArea(r, add);
        }

        @Override
        public void mouseDoubleClicked(MouseEvent me) {}

        @Override
        public void mouseEntered(MouseEvent me) {}

        @Override
        public void mouseExited(MouseEvent me) {}

        @Override
        public void mouseHover(MouseEvent me) {}

        @Override
        public void mouseMoved(MouseEvent me) {}
    }
}
