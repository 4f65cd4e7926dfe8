package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.draw2d.ColorConstants;
import org.eclipse.draw2d.Figure;
import org.eclipse.draw2d.Graphics;
import org.eclipse.draw2d.IFigure;
import org.eclipse.draw2d.Label;
import org.eclipse.draw2d.geometry.Dimension;
import org.eclipse.draw2d.geometry.Rectangle;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.Font;
import org.eclipse.swt.graphics.FontData;
import org.eclipse.swt.widgets.Display;
import org.hostir.studio.engine.ShardingReport.AxisSharding;
import org.hostir.studio.engine.ShardingReport.Origin;
import org.hostir.studio.engine.ShardingReport.TensorSharding;
import org.hostir.studio.file.AxisSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ui.editor.model.AxisText;
import org.hostir.studio.ui.editor.model.GraphElements;
import org.hostir.studio.ui.editor.model.Shardings;

/**
 * The graph's node figures, painted by hand so that a node is one figure (cheap for 200-op fusions). A figure
 * keeps its identity while its element changes ({@link Node#show}), so the edges anchored on it stay.
 */
final class NodeFigures {
    private NodeFigures() {}

    /** A new figure showing {@code element}. */
    static Node of(GraphElements.Node element) {
        return switch (element) {
            case GraphElements.TensorNode t -> new TensorNode(t);
            case GraphElements.OpNode o -> new OpNode(o);
        };
    }

    private static Font bold;
    private static Font italic;

    static Font boldFont() { return bold = bold != null ? bold : systemFont(org.eclipse.swt.SWT.BOLD); }

    /** The font of an inferred sharding's badge: italic, as nvFuser's propagation wrote nothing there. */
    static Font italicFont() { return italic = italic != null ? italic : systemFont(org.eclipse.swt.SWT.ITALIC); }

    /** The system font in {@code style} (made once per style: the graph's fonts live as long as the display). */
    private static Font systemFont(int style) {
        FontData fd = Display.getCurrent().getSystemFont().getFontData()[0];
        return new Font(Display.getCurrent(), fd.getName(), fd.getHeight(), style);
    }

    /** A node: its key ("tv0" or "op:tv2"), selection and error state. */
    abstract static class Node extends Figure {
        final String key;
        boolean selected;
        String error;
        /** Whether {@link #setState} was called once (the first call always applies). */
        private boolean stateSet;
        /** The tooltip, made when first asked for (a hover): a 1,000-op fusion made 2,002 at each opening (issue 35). */
        private Label tip;

        Node(String key) {
            this.key = key;
            setOpaque(false);
        }

        void setState(boolean selected, String error) {
            if (selected == this.selected && java.util.Objects.equals(error, this.error) && stateSet) return;
            stateSet = true;
            this.selected = selected;
            this.error = error;
            tip = null;
            repaint();
        }

        /**
         * The tooltip in the theme's colours, given again at each hover: Draw2d's tooltip shell keeps the colours of
         * the theme it was first shown under (its system colours and the CSS engine's styling of a hidden shell are
         * not redone at a switch), and stayed dark after Dark to Light (issue 35). The label is opaque and fills
         * the shell, so what it paints is what is seen.
         */
        @Override
        public IFigure getToolTip() {
            if (tip == null) {
                tip = error == null ? tooltip() : new Label(error);
                tip.setOpaque(true);
                tip.setBorder(new org.eclipse.draw2d.MarginBorder(2, 4, 2, 4));
            }
            tip.setBackgroundColor(EditorColors.tooltip());
            tip.setForegroundColor(EditorColors.tooltipText());
            return tip;
        }

        abstract Label tooltip();

        /** Redraws the figure for its element's new value (same key): size, text and tooltip. */
        final void show(GraphElements.Node element) {
            take(element);
            tip = null;
            repaint();
        }

        /** Takes the element's values and sizes the figure for them. */
        abstract void take(GraphElements.Node element);

        Color borderColor() {
            return error != null ? EditorColors.error() : selected ? EditorColors.selection() : EditorColors.border();
        }

        int borderWidth() { return error != null || selected ? 3 : 1; }

        /**
         * A selected node with an error keeps its red frame and gets a ring of the selection's colour inside it:
         * the red frame alone hid the selection, so a double-click on its problem in the Problems view seemed to do
         * nothing on the graph (issue 35, found driving the Studio by hand).
         */
        void paintSelectionInsideError(Graphics g, Rectangle r, boolean oval) {
            if (!selected || error == null) return;
            g.setForegroundColor(EditorColors.selection());
            g.setLineWidth(2);
            Rectangle ring = r.getCopy().shrink(4, 4);
            if (oval) g.drawOval(ring);
            else g.drawRoundRectangle(ring, 8, 8);
            g.setLineWidth(1);
        }
    }

    /** One axis's badge: its text, and whether propagation inferred it (drawn outlined and italic) or it is written. */
    record Badge(String text, boolean inferred) {}

    /**
     * A tensor: name and role, dtype and shape, one badge per axis; filled by mesh. Sharding propagation's part is
     * drawn apart: an inferred axis's badge is outlined in its colour with italic text (a written one is filled),
     * and a tensor whose mesh is inferred has a dashed frame.
     */
    static final class TensorNode extends Node {
        TensorSpec tensor;
        String role;
        String shape;
        /** The mesh's place among the graph's meshes (its fill is looked up at each paint, so it follows the theme). */
        int mesh;
        TensorSharding sharding;

        TensorNode(GraphElements.TensorNode element) {
            super(element.key());
            show(element);
        }

        @Override
        void take(GraphElements.Node element) {
            GraphElements.TensorNode e = (GraphElements.TensorNode) element;
            tensor = e.tensor();
            role = e.role();
            shape = AxisText.withLoop(e.tensor());
            mesh = e.mesh();
            sharding = e.sharding();
            Font f = Display.getCurrent().getSystemFont();
            Dimension title = TextExtents.of(title(), boldFont());
            Dimension line = TextExtents.of(line(), f);
            int badges = 8;
            for (Badge b : badges()) badges += TextExtents.of(b.text(), font(b)).width + 10;
            int w = Math.max(110, Math.max(title.width, Math.max(line.width, badges)) + 16);
            setSize(w, title.height + line.height * 2 + 22);
        }

        String title() { return tensor.name() + (role.isEmpty() ? "" : "  (" + role + ")"); }

        String line() { return tensor.dtype().fileName() + " [" + shape + "]"; }

        /**
         * One badge per logical axis: its parallel type after propagation (loop steps included), else its iter type,
         * else "S"; without a report (the document does not load), the types the file writes.
         */
        List<Badge> badges() {
            List<Badge> out = new ArrayList<>();
            List<ParallelType> parallel = AxisText.shownParallel(tensor);
            for (int i = 0; i < tensor.axes().size(); i++) {
                AxisSharding a = sharding != null && i < sharding.axes().size() ? sharding.axes().get(i) : null;
                boolean inferred = a != null && a.origin() == Origin.INFERRED;
                out.add(new Badge(badge(tensor.axes().get(i), inferred ? a.type() : parallel.get(i)), inferred));
            }
            return out;
        }

        static Font font(Badge b) { return b.inferred() ? italicFont() : Display.getCurrent().getSystemFont(); }

        boolean meshInferred() { return sharding != null && sharding.meshOrigin() == Origin.INFERRED; }

        static String badge(AxisSpec a, ParallelType parallel) {
            if (parallel != ParallelType.SERIAL) return parallel.fileName();
            if (a.iter() == IterType.REDUCTION) return "reduction";
            if (a.iter() == IterType.BROADCAST) return "broadcast";
            return "S";
        }

        /** The tensor's line, then where its sharding came from: its mesh and each parallel axis, written or inferred. */
        @Override
        Label tooltip() {
            if (sharding == null) return new Label(tensor.name() + ": " + line() + ", mesh " + meshText());
            return new Label(tensor.name() + ": " + line() + "\n" + String.join("\n", Shardings.tooltipLines(sharding)));
        }

        String meshText() {
            String m = AxisText.format(tensor.mesh());
            return m.isEmpty() ? "none" : m;
        }

        @Override
        protected void paintFigure(Graphics g) {
            Rectangle r = getBounds().getCopy().shrink(2, 2);
            g.setBackgroundColor(EditorColors.mesh(mesh));
            g.fillRoundRectangle(r, 10, 10);
            g.setForegroundColor(borderColor());
            g.setLineWidth(borderWidth());
            if (meshInferred()) g.setLineStyle(org.eclipse.swt.SWT.LINE_DASH);
            g.drawRoundRectangle(r, 10, 10);
            g.setLineStyle(org.eclipse.swt.SWT.LINE_SOLID);
            if (!role.isEmpty()) {   // inputs and outputs get a double frame, as fusion boundaries
                g.setLineWidth(1);
                g.drawRoundRectangle(r.getCopy().shrink(3, 3), 8, 8);
            }
            paintSelectionInsideError(g, r, false);
            g.setForegroundColor(EditorColors.text());
            int y = r.y + 5;
            g.setFont(boldFont());
            g.drawText(title(), r.x + 8, y);
            y += TextExtents.of(title(), boldFont()).height + 2;
            Font f = Display.getCurrent().getSystemFont();
            g.setFont(f);
            g.drawText(line(), r.x + 8, y);
            y += TextExtents.of(line(), f).height + 3;
            int x = r.x + 8;
            for (Badge b : badges()) x += paintBadge(g, b, x, y);
        }

        /** A written badge is filled with its colour; an inferred one is outlined in it, its text italic. */
        private static int paintBadge(Graphics g, Badge b, int x, int y) {
            Font f = font(b);
            g.setFont(f);
            Dimension d = TextExtents.of(b.text(), f);
            Rectangle box = new Rectangle(x, y, d.width + 8, d.height + 2);
            Color colour = EditorColors.badge(b.text());
            if (b.inferred()) {
                g.setForegroundColor(colour);
                g.setLineWidth(2);
                g.drawRoundRectangle(box.getCopy().shrink(1, 1), 6, 6);
                g.setLineWidth(1);
                g.setForegroundColor(EditorColors.inferredText(b.text()));
            } else {
                g.setBackgroundColor(colour);
                g.fillRoundRectangle(box, 6, 6);
                g.setForegroundColor(b.text().equals("S") ? EditorColors.text() : ColorConstants.white);
            }
            g.drawText(b.text(), x + 4, y + 1);
            return d.width + 10;
        }
    }

    /** An op: an ellipse with its kind and operand count. */
    static final class OpNode extends Node {
        String kind;
        String output;
        int index;

        OpNode(GraphElements.OpNode element) {
            super(element.key());
            show(element);
        }

        @Override
        void take(GraphElements.Node element) {
            GraphElements.OpNode e = (GraphElements.OpNode) element;
            kind = e.kind();
            output = e.output();
            index = e.index();
            Dimension d = TextExtents.of(kind, boldFont());
            setSize(Math.max(80, d.width + 30), d.height + 20);
        }

        @Override
        Label tooltip() { return new Label("op " + index + ": " + output + " = " + kind + "(...)"); }

        @Override
        protected void paintFigure(Graphics g) {
            Rectangle r = getBounds().getCopy().shrink(2, 2);
            g.setBackgroundColor(EditorColors.op());
            g.fillOval(r);
            g.setForegroundColor(borderColor());
            g.setLineWidth(borderWidth());
            g.drawOval(r);
            paintSelectionInsideError(g, r, true);
            g.setFont(boldFont());
            g.setForegroundColor(EditorColors.text());
            Dimension d = TextExtents.of(kind, boldFont());
            g.drawText(kind, r.x + (r.width - d.width) / 2, r.y + (r.height - d.height) / 2);
        }
    }
}
