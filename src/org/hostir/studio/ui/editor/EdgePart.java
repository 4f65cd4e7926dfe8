package org.hostir.studio.ui.editor;

import java.util.List;
import java.util.function.Supplier;

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
            ConnectionRouter fallback, Supplier<List<OperandLabels.Lettered>> lettersIntoTo) {
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
        if (letter != null) figure.add(letter, OperandLabels.locator(lettersIntoTo));
    }

    private static ConnectionAnchor anchor(String key, IFigure figure) {
        return new NodeAnchor(key.startsWith(Layout.OP_PREFIX) ? new EllipseAnchor(figure) : new ChopboxAnchor(figure));
    }
}
