package org.hostir.studio.ui.editor;

import org.eclipse.draw2d.IFigure;
import org.eclipse.draw2d.Label;
import org.eclipse.draw2d.MarginBorder;
import org.eclipse.draw2d.PositionConstants;
import org.eclipse.draw2d.geometry.Point;
import org.eclipse.draw2d.geometry.Rectangle;

/**
 * What an empty graph shows: how to add its first tensor and op, with the palette's and the context menu's own
 * entries (issue 35: an empty canvas gave no hint). Drawn on the canvas in the theme's graph text colour while the
 * graph has no node; never hit, so that clicks and drops reach the canvas under it.
 */
final class EmptyHint extends Label {
    static final String TEXT = String.join("\n",
            "This fusion is empty.",
            "Drag \"Input tensor\" from the palette onto the graph (or click it) to add an input tensor,",
            "then select tensors and click an op in the palette (add, matmul, ...) to add the op that reads them.",
            "Right-click the graph for \"Add input tensor\" and \"Add op\", or write the fusion on the Source page.");

    EmptyHint() {
        super(TEXT);
        setLabelAlignment(PositionConstants.LEFT);
        setBorder(new MarginBorder(GraphViewer.MARGIN));
        setForegroundColor(EditorColors.text());
    }

    @Override
    public boolean containsPoint(int x, int y) { return false; }

    /**
     * In {@code layer} at the canvas's top left, sized to its text, while the graph is empty; out of it otherwise,
     * so that it adds nothing to the graph's extent (scrolling, Fit).
     */
    void showIn(IFigure layer, boolean empty) {
        if (empty == (getParent() == layer)) return;
        if (empty) {
            layer.add(this);
            setBounds(new Rectangle(new Point(0, 0), getPreferredSize()));
        } else {
            layer.remove(this);
        }
    }
}
