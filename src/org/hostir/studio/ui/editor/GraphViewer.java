package org.hostir.studio.ui.editor;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.eclipse.draw2d.ConnectionLayer;
import org.eclipse.draw2d.FigureCanvas;
import org.eclipse.draw2d.FreeformLayer;
import org.eclipse.draw2d.FreeformViewport;
import org.eclipse.draw2d.IFigure;
import org.eclipse.draw2d.SWTEventDispatcher;
import org.eclipse.draw2d.geometry.Dimension;
import org.eclipse.draw2d.geometry.Point;
import org.eclipse.draw2d.geometry.Rectangle;
import org.eclipse.draw2d.ScalableFreeformLayeredPane;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.ui.editor.model.FusionCheck;
import org.hostir.studio.ui.editor.model.GraphElements;
import org.hostir.studio.ui.editor.model.Layout;
import org.hostir.studio.ui.editor.model.Layout.Position;
import org.hostir.studio.ui.editor.model.Shardings;

/**
 * The graph's viewer (GEF's GraphicalViewer): the Draw2d canvas, one {@link NodePart} per tensor and op and one
 * {@link EdgePart} per arrow, kept by key, and the selection and error state of the nodes. A new document is
 * compared element by element with the one shown: parts come and go with their elements, a part whose element
 * changed redraws its figure, and every other figure is left alone (at most moved).
 */
public final class GraphViewer {
    private final FigureCanvas canvas;
    private final ScalableFreeformLayeredPane root = new ScalableFreeformLayeredPane();
    private final FreeformLayer nodes = new FreeformLayer();
    private final ConnectionLayer connections = new ConnectionLayer();
    private final Dispatcher dispatcher = new Dispatcher();
    private final Consumer<NodeFigures.Node> onNewFigure;
    private Map<String, NodePart> parts = new LinkedHashMap<>();
    private final Map<GraphElements.Edge, EdgePart> edges = new HashMap<>();
    private final Set<String> selection = new LinkedHashSet<>();
    private final Map<String, String> errors = new HashMap<>();
    private String connectSource;
    private int figuresDrawn;

    /** Draw2d's dispatcher, with a way to take down a node's tooltip when the node goes (delete, undo). */
    private static final class Dispatcher extends SWTEventDispatcher {
        void hideToolTip() { getToolTipHelper().updateToolTip(null, null, 0, 0); }
    }

    /** {@code onNewFigure} gets each node figure as it is made (the page hooks its gestures onto it). */
    GraphViewer(Composite parent, Consumer<NodeFigures.Node> onNewFigure) {
        this.onNewFigure = onNewFigure;
        canvas = new FigureCanvas(parent, SWT.DOUBLE_BUFFERED);
        canvas.setBackground(parent.getDisplay().getSystemColor(SWT.COLOR_LIST_BACKGROUND));
        canvas.getLightweightSystem().setEventDispatcher(dispatcher);
        // a node's tooltip goes when the pointer leaves the graph (it stayed, covering the canvas)
        canvas.addListener(SWT.MouseExit, e -> canvas.getDisplay().asyncExec(() -> {
            if (!canvas.isDisposed()) dispatcher.hideToolTip();
        }));
        canvas.setViewport(new FreeformViewport());
        nodes.setOpaque(true);   // so that clicks on the empty canvas reach it (they clear the selection)
        nodes.setBackgroundColor(canvas.getBackground());
        root.add(nodes, "nodes");
        root.add(connections, "connections");
        canvas.setContents(root);
    }

    /**
     * Shows {@code doc}: stored positions where the layout has them, auto-layout elsewhere; the problems as red
     * frames and tooltips on the nodes they name.
     */
    void setContents(FusionDocument doc, List<FusionCheck.Problem> problems, Shardings shardings) {
        dispatcher.hideToolTip();
        GraphElements next = GraphElements.of(doc, shardings);
        Map<String, NodePart> kept = new LinkedHashMap<>();
        parts.forEach((k, p) -> {
            if (next.nodes().get(k) instanceof GraphElements.Node n && n.getClass() == p.element().getClass()) kept.put(k, p);
            else nodes.remove(p.figure);
        });
        parts = new LinkedHashMap<>();
        for (GraphElements.Node n : next.nodes().values()) {
            NodePart p = kept.get(n.key());
            if (p == null) {
                p = new NodePart(n);
                nodes.add(p.figure);
                onNewFigure.accept(p.figure);
                figuresDrawn++;
            } else if (p.update(n)) {
                figuresDrawn++;
            }
            parts.put(n.key(), p);
        }
        place(doc);
        edges.values().removeIf(e -> {
            boolean gone = !next.edges().contains(e.edge) || kept.get(e.edge.from()) == null || kept.get(e.edge.to()) == null;
            if (gone) connections.remove(e.figure);
            return gone;
        });
        for (GraphElements.Edge e : next.edges()) {
            edges.computeIfAbsent(e, k -> {
                EdgePart part = new EdgePart(k, parts.get(k.from()).figure, parts.get(k.to()).figure);
                connections.add(part.figure);
                figuresDrawn++;
                return part;
            });
        }
        selection.retainAll(parts.keySet());
        errors.clear();
        for (FusionCheck.Problem p : problems) {
            String key = p.tensor() != null ? p.tensor()
                    : p.op() >= 0 && p.op() < doc.ops().size() ? Layout.opKey(doc.ops().get(p.op()).output()) : null;
            if (key != null) errors.merge(key, p.message() + " [" + p.rule() + "]", (a, b) -> a + "\n" + b);
        }
        updateStates();
    }

    /** Moves every node to its stored position, or to the auto layout's when the layout lacks some node. */
    private void place(FusionDocument doc) {
        Map<String, Position> stored = Layout.positions(doc.layout());
        Map<String, Position> auto = stored.keySet().containsAll(parts.keySet()) ? Map.of() : autoLayout(doc);
        parts.forEach((k, p) -> {
            Position at = stored.getOrDefault(k, auto.getOrDefault(k,
                    new Position(GraphAutoLayout.MARGIN, GraphAutoLayout.MARGIN)));
            Point location = new Point(at.x(), at.y());
            if (!p.figure.getLocation().equals(location)) p.figure.setLocation(location);
        });
    }

    /** Layered positions of every node shown, for the figures' present sizes. */
    Map<String, Position> autoLayout(FusionDocument doc) {
        Map<String, Dimension> sizes = new LinkedHashMap<>();
        parts.forEach((k, p) -> sizes.put(k, p.figure.getSize()));
        return GraphAutoLayout.positions(sizes, doc);
    }

    void updateStates() {
        parts.forEach((k, p) -> p.figure.setState(selection.contains(k) || k.equals(connectSource), errors.get(k)));
    }

    void hideToolTip() { dispatcher.hideToolTip(); }

    FigureCanvas canvas() { return canvas; }

    IFigure rootFigure() { return root; }

    IFigure nodeLayer() { return nodes; }

    IFigure connectionLayer() { return connections; }

    NodeFigures.Node figure(String key) { return parts.get(key) == null ? null : parts.get(key).figure; }

    Set<String> selection() { return selection; }

    void setConnectSource(String key) { connectSource = key; }

    String connectSource() { return connectSource; }

    void setScale(double scale) { root.setScale(Math.max(0.1, Math.min(4, scale))); }

    /** A point of the canvas control as figure coordinates (scrolling and zoom undone). */
    Point toFigure(int x, int y) {
        var view = canvas.getViewport().getViewLocation();
        double scale = root.getScale();
        return new Point((int) ((x + view.x) / scale), (int) ((y + view.y) / scale));
    }

    /** Current positions of all nodes (figure coordinates, unscaled). */
    Map<String, Position> positions() {
        Map<String, Position> out = new LinkedHashMap<>();
        parts.forEach((k, p) -> out.put(k, new Position(p.figure.getBounds().x, p.figure.getBounds().y)));
        return out;
    }

    /** Selects the nodes wholly inside {@code r} (figure coordinates), as GEF's marquee does; {@code add} keeps the rest. */
    void selectArea(Rectangle r, boolean add) {
        if (!add) selection.clear();
        parts.forEach((k, p) -> { if (r.contains(p.figure.getBounds())) selection.add(k); });
        updateStates();
    }

    // ---- what the viewer shows, as a person sees it (keys, places, texts): read by the selection, outline and tests

    /** The canvas the graph is drawn on (what a click on a node lands on). */
    public Control getControl() { return canvas; }

    /** The node keys in file order: tensor names, and {@code op:<output>} for ops. */
    public List<String> keys() { return List.copyOf(parts.keySet()); }

    /** The selected node keys, in selection order. */
    public List<String> selectedKeys() { return List.copyOf(selection); }

    /** How many figures (nodes and edges) were made or redrawn since the viewer opened: an edit adds only its own. */
    public int figuresDrawn() { return figuresDrawn; }

    /** A node's bounds {x, y, width, height} in figure coordinates, or null. */
    public int[] bounds(String key) {
        var f = figure(key);
        return f == null ? null : new int[] { f.getBounds().x, f.getBounds().y, f.getBounds().width, f.getBounds().height };
    }

    /** Where a node's middle is on {@link #getControl()}, zoom and scrolling applied ({x, y}), or null. */
    public int[] center(String key) {
        var f = figure(key);
        if (f == null) return null;
        var r = f.getBounds().getCopy();
        f.translateToAbsolute(r);
        return new int[] { r.x + r.width / 2, r.y + r.height / 2 };
    }

    /** The error a node's red frame and tooltip show, or null. */
    public String error(String key) { return errors.get(key); }

    /** The dtype and shape line a tensor node shows ({@code float [K, N | outer_split 1 by D, DIDx 1]}), or null. */
    public String shapeText(String key) { return figure(key) instanceof NodeFigures.TensorNode t ? t.line() : null; }

    /**
     * A tensor node's badges, one per axis as drawn: the text, with {@code " (inferred)"} after an inferred one
     * (outlined and italic) — {@code [S, S, DIDx (inferred)]}; null for an op or an unknown key.
     */
    public List<String> badges(String key) {
        return figure(key) instanceof NodeFigures.TensorNode t
                ? t.badges().stream().map(b -> b.text() + (b.inferred() ? " (inferred)" : "")).toList() : null;
    }

    /** Whether a tensor node's mesh is inferred (its frame is dashed). */
    public boolean meshInferred(String key) { return figure(key) instanceof NodeFigures.TensorNode t && t.meshInferred(); }

    /** The text of a node's tooltip (its error while it has one), or null. */
    public String toolTip(String key) {
        return figure(key) != null && figure(key).getToolTip() instanceof org.eclipse.draw2d.Label l ? l.getText() : null;
    }

    /** Where the graph is scrolled to ({x, y} of the view's top left, in canvas pixels). */
    public int[] viewLocation() {
        var p = canvas.getViewport().getViewLocation();
        return new int[] { p.x, p.y };
    }

    public double zoom() { return root.getScale(); }
}
