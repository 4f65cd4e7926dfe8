package org.hostir.studio.ui.editor;

import org.hostir.studio.ui.editor.model.GraphElements;

/**
 * The controller of one tensor or op of the graph (an edit part of GEF's Shapes example): it owns the node's
 * figure and redraws it only when its element changed, so one edit touches the figures of what it changed.
 */
final class NodePart {
    private GraphElements.Node element;
    final NodeFigures.Node figure;

    NodePart(GraphElements.Node element) {
        this.element = element;
        this.figure = NodeFigures.of(element);
    }

    GraphElements.Node element() { return element; }

    /** Brings the figure up to {@code next} (same key); returns whether the figure had to be redrawn. */
    boolean update(GraphElements.Node next) {
        if (next.equals(element)) return false;
        element = next;
        figure.show(next);
        return true;
    }
}
