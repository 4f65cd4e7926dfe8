package org.hostir.studio.ui.editor;

import org.eclipse.draw2d.MouseEvent;
import org.eclipse.draw2d.MouseListener;
import org.eclipse.draw2d.MouseMotionListener;
import org.eclipse.draw2d.geometry.Point;
import org.eclipse.draw2d.geometry.Rectangle;
import org.eclipse.swt.SWT;
import org.hostir.studio.ui.editor.model.Layout;

/**
 * The mouse on one node (GEF's selection and drag tools): a click selects (Ctrl or Shift toggles), a drag moves the
 * node and makes one move edit on release, a click in Connect mode connects, a double-click on a tensor renames.
 */
final class NodeDragger extends MouseMotionListener.Stub implements MouseListener {
    private final GraphPage page;
    private final GraphViewer viewer;
    private final NodeFigures.Node figure;
    private Point start;
    private Rectangle startBounds;
    private boolean moved;

    NodeDragger(GraphPage page, GraphViewer viewer, NodeFigures.Node figure) {
        this.page = page;
        this.viewer = viewer;
        this.figure = figure;
        figure.addMouseListener(this);
        figure.addMouseMotionListener(this);
    }

    @Override
    public void mousePressed(MouseEvent me) {
        me.consume();
        page.finishRename(true);
        viewer.canvas().setFocus();
        var selection = viewer.selection();
        if (page.connectMode()) {
            // the clicked node is also the selection, so that Delete and Properties act on what was clicked
            selection.clear();
            selection.add(figure.key);
            connect();
            viewer.updateStates();
            page.selectionChanged();
            return;
        }
        if ((me.getState() & (SWT.CTRL | SWT.SHIFT)) != 0) {
            if (!selection.remove(figure.key)) selection.add(figure.key);
        } else if (!selection.contains(figure.key)) {
            selection.clear();
            selection.add(figure.key);
        }
        start = me.getLocation();
        startBounds = figure.getBounds().getCopy();
        moved = false;
        viewer.updateStates();
        page.selectionChanged();
    }

    private void connect() {
        if (!figure.key.startsWith(Layout.OP_PREFIX)) {
            viewer.setConnectSource(figure.key);
        } else if (viewer.connectSource() != null) {
            String tensor = viewer.connectSource();
            viewer.setConnectSource(null);
            page.commands().connect(tensor, figure.key.substring(Layout.OP_PREFIX.length()), -1);
        }
    }

    @Override
    public void mouseDragged(MouseEvent me) {
        if (start == null) return;
        Point p = me.getLocation();
        double scale = viewer.zoom();
        int dx = (int) ((p.x - start.x) / scale), dy = (int) ((p.y - start.y) / scale);
        if (Math.abs(dx) + Math.abs(dy) < 3 && !moved) return;
        moved = true;
        figure.setLocation(new Point(GraphGestures.snap(startBounds.x + dx), GraphGestures.snap(startBounds.y + dy)));
    }

    @Override
    public void mouseReleased(MouseEvent me) {
        if (start != null && moved) page.moveNodes(viewer.positions());
        start = null;
        moved = false;
    }

    @Override
    public void mouseDoubleClicked(MouseEvent me) {
        if (!figure.key.startsWith(Layout.OP_PREFIX)) page.startRename();
    }
}
