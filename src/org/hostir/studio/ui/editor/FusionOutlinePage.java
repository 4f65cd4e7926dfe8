package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.draw2d.IFigure;
import org.eclipse.draw2d.LightweightSystem;
import org.eclipse.draw2d.parts.ScrollableThumbnail;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.ISelectionChangedListener;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.ITreeContentProvider;
import org.eclipse.jface.viewers.LabelProvider;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.ui.part.Page;
import org.eclipse.ui.views.contentoutline.IContentOutlinePage;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ui.FusionElement;
import org.hostir.studio.ui.ThemeColors;
import org.hostir.studio.ui.editor.model.AxisText;

/**
 * The Outline view, as GEF Logic's: a tree of the fusion's tensors and ops (selecting there selects on the graph, and
 * the graph's selection shows there), above an overview of the whole graph (a Draw2d thumbnail of its figures with
 * the visible part as a rectangle to drag).
 */
public final class FusionOutlinePage extends Page implements IContentOutlinePage {
    private static final String TENSORS = "Tensors";
    private static final String OPS = "Ops";

    private final FusionEditor editor;
    private final GraphViewer graph;
    private SashForm control;
    private TreeViewer tree;
    private Canvas canvas;
    private ScrollableThumbnail thumbnail;
    private boolean overviewShown;
    /** What draws the overview again once the graph rests. */
    private IdleThumbnail idle;

    FusionOutlinePage(FusionEditor editor, GraphViewer graph) {
        this.editor = editor;
        this.graph = graph;
    }

    @Override
    public void createControl(Composite parent) {
        control = new SashForm(parent, SWT.VERTICAL);
        tree = new TreeViewer(control, SWT.MULTI | SWT.H_SCROLL | SWT.V_SCROLL);
        tree.setContentProvider(new Content());
        tree.setLabelProvider(new LabelProvider() {
            @Override
            public String getText(Object element) { return label(element); }
        });
        tree.setAutoExpandLevel(2);
        canvas = new Canvas(control, SWT.DOUBLE_BUFFERED);
        // before the lightweight system's own paint listener (added by its constructor): its paint then shows the
        // whole new picture, not Draw2d's blank one (after a theme switch: issue 35, round 16)
        canvas.addListener(SWT.Paint, e -> { if (overviewShown) ThumbnailCatchUp.beforePaint(thumbnail); });
        LightweightSystem lws = new LightweightSystem(canvas);
        lws.setEventDispatcher(new OverviewDispatcher());
        thumbnail = new ScrollableThumbnail(graph.canvas().getViewport());
        showOnceDrawn(lws);
        control.setWeights(60, 40);
    }

    /**
     * The tree and the overview are filled once the graph's layout has arrived and its picture is painted (the
     * asyncExec comes after the paint Draw2d queued). Issue 35: the tree's 2,002 rows of a 1,000-op fusion were made
     * before the graph's first picture, and Draw2d's thumbnail paints every figure again, tile by tile on the UI
     * thread, at each change of the graph (while a 1,000-op fusion opened it repainted the figures being placed
     * over and over, a third of the opening's UI time).
     */
    private void showOnceDrawn(LightweightSystem lws) {
        graph.whenLaidOut(() -> canvas.getDisplay().asyncExec(() -> {
            if (canvas.isDisposed() || overviewShown || editor.isDisposed()) return;
            overviewShown = true;
            tree.setInput(editor);
            showSelection(editor.graphSelection());
            thumbnail.setSource(graph.rootFigure());
            idle = new IdleThumbnail(thumbnail, graph.rootFigure().getUpdateManager(), canvas.getDisplay());
            // the overview in the new theme's colours after a switch; not at the first picture (follow's own two
            // calls now and queued): Draw2d's tiles draw it, a 1,000-op graph's in slices of the UI thread
            boolean[] opening = { true };
            ThemeColors.follow(canvas, () -> { if (!opening[0]) idle.themeChanged(); });
            canvas.getDisplay().asyncExec(() -> opening[0] = false);
            lws.setContents(thumbnail);   // not before: a thumbnail without its source cannot paint
        }));
    }

    void refresh() {
        if (control == null || control.isDisposed() || !overviewShown) return;
        tree.refresh();
        // the overview follows once the graph shows the edit's layout (after the graph's own queued repaint)
        graph.whenLaidOut(() -> canvas.getDisplay().asyncExec(() -> {
            if (idle != null && !canvas.isDisposed()) idle.renderNow();
        }));
    }

    /** Shows the graph's selection in the tree, without selecting anything back. */
    void showSelection(ISelection selection) {
        if (tree == null || tree.getControl().isDisposed() || !overviewShown) return;
        List<Object> shown = new ArrayList<>();
        if (selection instanceof IStructuredSelection s) {
            for (Object o : s.toList()) if (o instanceof FusionElement e && (e.isTensor() || e.op() >= 0)) shown.add(e);
        }
        if (shown.equals(tree.getStructuredSelection().toList())) return;
        tree.getControl().setRedraw(false);
        try {
            // setSelection would tell the editor again: the tree's own widget selection only
            tree.setSelection(new StructuredSelection(shown), true);
        } finally {
            tree.getControl().setRedraw(true);
        }
    }

    private String label(Object element) {
        FusionDocument doc = editor.model();
        if (element instanceof String group) return group;
        if (!(element instanceof FusionElement e)) return "";
        if (e.isTensor()) {
            TensorSpec t = doc.tensor(e.tensor()).orElse(null);
            if (t == null) return e.tensor();
            String role = doc.inputs().contains(t.name()) ? "  (input)" : doc.outputs().contains(t.name()) ? "  (output)" : "";
            return t.name() + " : " + t.dtype().fileName() + " [" + AxisText.format(t.axes()) + "]" + role;
        }
        if (e.op() < 0 || e.op() >= doc.ops().size()) return "";
        OpSpec op = doc.ops().get(e.op());
        return op.output() + " = " + op.op().fileName() + "(" + String.join(", ", op.inputs()) + ")";
    }

    /** The tree: the groups Tensors and Ops, then the file's tensors and ops in file order. */
    private final class Content implements ITreeContentProvider {
        @Override
        public Object[] getElements(Object input) { return new Object[] { TENSORS, OPS }; }

        @Override
        public Object[] getChildren(Object parent) {
            String file = editor.workspacePath();
            FusionDocument doc = editor.model();
            List<Object> out = new ArrayList<>();
            if (TENSORS.equals(parent)) for (TensorSpec t : doc.tensors()) out.add(FusionElement.tensor(file, t.name()));
            if (OPS.equals(parent)) for (int i = 0; i < doc.ops().size(); i++) out.add(FusionElement.op(file, i));
            return out.toArray();
        }

        @Override
        public Object getParent(Object element) {
            return element instanceof FusionElement e ? (e.isTensor() ? TENSORS : OPS) : null;
        }

        @Override
        public boolean hasChildren(Object element) { return element instanceof String; }
    }

    /** The tree (what a person clicks to select a tensor or op). */
    public Tree tree() { return tree.getTree(); }

    /** The overview's canvas (the thumbnail and its viewport rectangle). */
    public Control overview() { return canvas; }

    /** The thumbnail's painted size in the Outline ({width, height}): the graph's shape shrunk to fit. */
    public int[] thumbnailSize() {
        if (!overviewShown) return new int[2];
        var d = thumbnail.getPreferredSize();
        return new int[] { d.width, d.height };
    }

    /**
     * Where the overview draws a graph node ({x, y, width, height} on the overview's canvas), or null: the node's
     * place on the zoomed graph, shrunk as the thumbnail shrinks the whole graph.
     */
    public int[] overviewBox(String key) {
        int[] b = graph.bounds(key);
        if (!overviewShown || b == null) return null;
        var source = graph.rootFigure().getBounds();
        var at = thumbnail.getClientArea();
        int drawn = thumbnail.getPreferredSize().width - thumbnail.getInsets().getWidth();
        double zoom = graph.zoom(), k = (double) drawn / Math.max(1, source.width);
        return new int[] { at.x + (int) ((b[0] * zoom - source.x) * k), at.y + (int) ((b[1] * zoom - source.y) * k),
                (int) (b[2] * zoom * k), (int) (b[3] * zoom * k) };
    }

    /** The viewport rectangle over the thumbnail ({x, y, width, height} on the overview's canvas), or null. */
    public int[] viewportBox() {
        for (Object child : thumbnail.getChildren()) {
            var b = ((IFigure) child).getBounds();
            return new int[] { b.x, b.y, b.width, b.height };
        }
        return null;
    }

    @Override
    public Control getControl() { return control; }

    @Override
    public void setFocus() { if (tree != null) tree.getControl().setFocus(); }

    @Override
    public void dispose() {
        if (idle != null) idle.stop();
        if (overviewShown) thumbnail.deactivate();   // a thumbnail without its source has nothing to stop
        super.dispose();
    }

    @Override
    public void addSelectionChangedListener(ISelectionChangedListener listener) { tree.addSelectionChangedListener(listener); }

    @Override
    public void removeSelectionChangedListener(ISelectionChangedListener listener) {
        if (tree != null) tree.removeSelectionChangedListener(listener);
    }

    @Override
    public ISelection getSelection() { return tree == null ? StructuredSelection.EMPTY : tree.getSelection(); }

    @Override
    public void setSelection(ISelection selection) { showSelection(selection); }
}
