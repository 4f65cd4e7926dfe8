package org.hostir.studio.ui.editor;

import org.eclipse.draw2d.ChopboxAnchor;
import org.eclipse.draw2d.ConnectionAnchor;
import org.eclipse.draw2d.ConnectionEndpointLocator;
import org.eclipse.draw2d.EllipseAnchor;
import org.eclipse.draw2d.Label;
import org.eclipse.draw2d.PolygonDecoration;
import org.eclipse.draw2d.PolylineConnection;
import org.hostir.studio.ui.editor.model.GraphElements;
import org.hostir.studio.ui.editor.model.Layout;

/**
 * The controller of one arrow (GEF's connection edit part): an operand into its op or an op into its output. Its
 * element is its identity (ends and slot), so an edge is made when its element appears and removed when it goes;
 * it follows its nodes' figures by their anchors.
 */
final class EdgePart {
    final GraphElements.Edge edge;
    final PolylineConnection figure = new PolylineConnection();

    EdgePart(GraphElements.Edge edge, NodeFigures.Node from, NodeFigures.Node to) {
        this.edge = edge;
        figure.setSourceAnchor(anchor(from));
        figure.setTargetAnchor(anchor(to));
        figure.setForegroundColor(EditorColors.edge());
        figure.setTargetDecoration(new PolygonDecoration());
        if (!edge.slot().isEmpty()) figure.add(new Label(edge.slot()), new ConnectionEndpointLocator(figure, true));
    }

    private static ConnectionAnchor anchor(NodeFigures.Node node) {
        return node.key.startsWith(Layout.OP_PREFIX) ? new EllipseAnchor(node) : new ChopboxAnchor(node);
    }
}
