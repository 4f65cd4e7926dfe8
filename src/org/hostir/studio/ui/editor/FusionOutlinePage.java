package org.hostir.studio.ui.editor;

import org.eclipse.draw2d.LightweightSystem;
import org.eclipse.draw2d.parts.ScrollableThumbnail;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.ISelectionChangedListener;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.part.Page;
import org.eclipse.ui.views.contentoutline.IContentOutlinePage;

/** The Outline view: an overview of the whole graph (a Draw2d Thumbnail of the graph's figures). */
public final class FusionOutlinePage extends Page implements IContentOutlinePage {
    private final GraphViewer graph;
    private Canvas canvas;
    private ScrollableThumbnail thumbnail;

    FusionOutlinePage(GraphViewer graph) { this.graph = graph; }

    @Override
    public void createControl(Composite parent) {
        canvas = new Canvas(parent, SWT.DOUBLE_BUFFERED);
        LightweightSystem lws = new LightweightSystem(canvas);
        thumbnail = new ScrollableThumbnail(graph.canvas().getViewport());
        thumbnail.setSource(graph.rootFigure());
        lws.setContents(thumbnail);
    }

    void refresh() {
        if (thumbnail != null && canvas != null && !canvas.isDisposed()) {
            thumbnail.setSource(graph.rootFigure());
            thumbnail.repaint();
        }
    }

    /** The thumbnail's painted size in the Outline ({width, height}): the graph's shape shrunk to fit. */
    public int[] thumbnailSize() {
        var d = thumbnail.getPreferredSize();
        return new int[] { d.width, d.height };
    }

    /** The viewport rectangle over the thumbnail ({x, y, width, height} on the Outline's canvas), or null. */
    public int[] viewportBox() {
        for (Object child : thumbnail.getChildren()) {
            var b = ((org.eclipse.draw2d.IFigure) child).getBounds();
            return new int[] { b.x, b.y, b.width, b.height };
        }
        return null;
    }

    @Override
    public Control getControl() { return canvas; }

    @Override
    public void setFocus() { if (canvas != null) canvas.setFocus(); }

    @Override
    public void dispose() {
        if (thumbnail != null) thumbnail.deactivate();
        super.dispose();
    }

    @Override
    public void addSelectionChangedListener(ISelectionChangedListener listener) {}

    @Override
    public void removeSelectionChangedListener(ISelectionChangedListener listener) {}

    @Override
    public ISelection getSelection() { return StructuredSelection.EMPTY; }

    @Override
    public void setSelection(ISelection selection) {}
}
