package org.hostir.studio.ui.editor;

import org.eclipse.draw2d.ChopboxAnchor;
import org.eclipse.draw2d.ConnectionAnchor;
import org.eclipse.draw2d.ConnectionEndpointLocator;
import org.eclipse.draw2d.ConnectionRouter;
import org.eclipse.draw2d.EllipseAnchor;
import org.eclipse.draw2d.IFigure;
import org.eclipse.draw2d.Label;
import org.eclipse.draw2d.PolygonDecoration;
import org.eclipse.draw2d.PolylineConnection;
import org.hostir.studio.ui.editor.model.GraphElements;
import org.hostir.studio.ui.editor.model.Layout;

/**
 * The controller of one arrow (GEF's connection edit part): an operand into its op or an op into its output. Its
 * element is its identity (ends and slot), so an edge is made when its element appears and removed when it goes;
 * it follows its nodes' figures by their anchors, along the layout's route while its nodes stay where the layout
 * put them ({@link LaidOutRouter}). A shared tensor's arrow is a stub at its reader, labelled with the tensor.
 */
final class EdgePart {
    final GraphElements.Edge edge;
    /** The keys the arrow is drawn between: its nodes', or a collapsed group's in place of a node it hides. */
    final String from, to;
    final boolean stub;
    final PolylineConnection figure = new PolylineConnection();
    final LaidOutRouter router;
    /** The operand's letter drawn on the arrow (A, B), or null for an op of one input. */
    final Label letter;

    EdgePart(GraphElements.Edge edge, String from, IFigure fromFigure, String to, IFigure toFigure, boolean stub,
            ConnectionRouter fallback) {
        this.edge = edge;
        this.from = from;
        this.to = to;
        this.stub = stub;
        this.router = new LaidOutRouter(fallback);
        figure.setSourceAnchor(stub ? new NodeAnchor(new StubAnchor(toFigure, edge.slot())) : anchor(from, fromFigure));
        figure.setTargetAnchor(anchor(to, toFigure));
        figure.setForegroundColor(EditorColors.edge());
        figure.setTargetDecoration(new PolygonDecoration());
        if (stub) {
            figure.add(new Label(edge.from()), new ConnectionEndpointLocator(figure, false));
        } else {
            figure.setConnectionRouter(router);
        }
        letter = edge.slot().isEmpty() ? null : new Label(edge.slot());
        if (letter != null) figure.add(letter, slotLocator(figure, edge.slot()));
    }

    /**
     * Where an operand's letter sits: near the arrow's start, each letter on its own row, a letter's height apart
     * (the arrows of an op that reads one tensor twice, add(tv0, tv0), coincide, and their A and B were drawn on top
     * of each other). The height is the letter's own, known once it is drawn in the canvas's font.
     */
    private static ConnectionEndpointLocator slotLocator(PolylineConnection figure, String slot) {
        int row = slot.charAt(0) - 'A';
        return new ConnectionEndpointLocator(figure, true) {
            private final int first = getVDistance();

            @Override
            public void relocate(IFigure letter) {
                setVDistance(first + row * letter.getPreferredSize().height);
                super.relocate(letter);
            }
        };
    }

    private static ConnectionAnchor anchor(String key, IFigure figure) {
        return new NodeAnchor(key.startsWith(Layout.OP_PREFIX) ? new EllipseAnchor(figure) : new ChopboxAnchor(figure));
    }
}
