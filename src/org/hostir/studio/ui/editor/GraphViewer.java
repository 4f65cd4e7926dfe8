package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

import org.eclipse.draw2d.ChopboxAnchor;
import org.eclipse.draw2d.ConnectionLayer;
import org.eclipse.draw2d.FigureCanvas;
import org.eclipse.draw2d.FreeformLayer;
import org.eclipse.draw2d.FreeformViewport;
import org.eclipse.draw2d.IFigure;
import org.eclipse.draw2d.ManhattanConnectionRouter;
import org.eclipse.draw2d.PolygonDecoration;
import org.eclipse.draw2d.PolylineConnection;
import org.eclipse.draw2d.SWTEventDispatcher;
import org.eclipse.draw2d.XYAnchor;
import org.eclipse.draw2d.geometry.Dimension;
import org.eclipse.draw2d.geometry.Point;
import org.eclipse.draw2d.geometry.Rectangle;
import org.eclipse.draw2d.ScalableFreeformLayeredPane;
import org.eclipse.swt.SWT;
import org.eclipse.swt.events.FocusEvent;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.ui.ThemeColors;
import org.hostir.studio.ui.editor.model.FusionCheck;
import org.hostir.studio.ui.editor.model.GraphElements;
import org.hostir.studio.ui.editor.model.Groups;
import org.hostir.studio.ui.editor.model.Layout;
import org.hostir.studio.ui.editor.model.Placement;
import org.hostir.studio.ui.editor.model.Layout.Position;
import org.hostir.studio.ui.editor.model.Shardings;

/**
 * The graph's viewer (GEF's GraphicalViewer): the Draw2d canvas, one {@link NodePart} per tensor and op and one
 * {@link EdgePart} per arrow, kept by key, and the selection and error state of the nodes. A new document is
 * compared element by element with the one shown: parts come and go with their elements, a part whose element
 * changed redraws its figure, and every other figure is left alone (at most moved).
 */
public final class GraphViewer {
    static final int MARGIN = ElkLayout.MARGIN;
    /** The room kept around a node placed in the view ({@link #freePlaceInView}). */
    private static final int GAP = 24;
    private final FigureCanvas canvas;
    private final ScalableFreeformLayeredPane root = new ScalableFreeformLayeredPane();
    private final FreeformLayer nodes = new FreeformLayer();
    private final ConnectionLayer connections = new ConnectionLayer();
    private final FreeformLayer hintLayer = new FreeformLayer();
    private final EmptyHint hint = new EmptyHint();
    private final Dispatcher dispatcher = new Dispatcher();
    private final Consumer<NodeFigures.Node> onNewFigure;
    private Map<String, NodePart> parts = new LinkedHashMap<>();
    private final Map<GraphElements.Edge, EdgePart> edges = new HashMap<>();
    private final Set<String> selection = new LinkedHashSet<>();
    private final Map<String, String> errors = new HashMap<>();
    private String connectSource;
    private final XYAnchor pointer = new XYAnchor(new Point());
    /** The rubber band of Connect mode; never hit, or it would take the click meant for the op under the pointer. */
    private final PolylineConnection feedback = new PolylineConnection() {
        @Override
        public boolean containsPoint(int x, int y) { return false; }
    };
    private int figuresDrawn;
    private final LayoutJob layoutJob;
    /** The key of the layout asked for last (null: a whole re-layout), while it may still be pending. */
    private LayoutKey pendingKey;
    /** The router of arrows off the layout's routes: around the nodes, else Draw2d's Manhattan. */
    private final ObstacleRouter aroundNodes = new ObstacleRouter(new ManhattanConnectionRouter());
    /** The nodes that have a place (stored, laid out, or dragged): the others are hidden until the layout places them. */
    private final Set<String> placed = new HashSet<>();
    /** The positions the last document stored: a node whose stored place goes (an undo) is placed anew. */
    private Map<String, Position> lastStored = Map.of();
    private GraphElements shown = new GraphElements(Map.of(), Set.of());
    private long requested, applied;
    /** What waits for the pending layout ({@link #whenLaidOut}). */
    private final List<Runnable> laidOut = new ArrayList<>();
    private final GraphGroups groups;
    private Consumer<Groups.Group> onToggle = g -> {};

    /** Draw2d's dispatcher, with a way to take down a node's tooltip when the node goes (delete, undo). */
    private static final class Dispatcher extends SWTEventDispatcher {
        void hideToolTip() { getToolTipHelper().updateToolTip(null, null, 0, 0); }

        /**
         * No figure of the graph takes the focus (none is focus traversable: keys go to the canvas), so Draw2d's
         * search for one at each focus gain found none after walking every figure, 4,000 of a 1,000-op fusion
         * (issue 35); the outcome, no figure focused, is kept without the walk.
         */
        @Override
        public void dispatchFocusGained(FocusEvent e) {
            if (getFocusTraverseManager().getCurrentFocusOwner() != null) super.dispatchFocusGained(e);
            else setFocus(null);
        }

        /**
         * A pressed node keeps the mouse through a crossing the pointer did not make: Draw2d lets go of the figure
         * that took a press at any MouseExit, and GTK reported one at the pressed point when the press moved the
         * focus (CI's trace of a drag: MouseDown, FocusOut, MouseExit, FocusIn, MouseEnter, then the moves), so the
         * node stayed put and the drag stored nothing. The release ends the capture (the canvas holds the grab).
         */
        @Override
        public void dispatchMouseExited(org.eclipse.swt.events.MouseEvent me) {
            if (!isCaptured()) super.dispatchMouseExited(me);
        }

        /** A move without a button while a figure holds the mouse: its release went elsewhere, the drag is over. */
        @Override
        public void dispatchMouseMoved(org.eclipse.swt.events.MouseEvent me) {
            if (isCaptured() && (me.stateMask & SWT.BUTTON_MASK) == 0) releaseCapture();
            super.dispatchMouseMoved(me);
        }
    }

    /** {@code onNewFigure} gets each node figure as it is made (the page hooks its gestures onto it). */
    GraphViewer(Composite parent, Consumer<NodeFigures.Node> onNewFigure) {
        this.onNewFigure = onNewFigure;
        canvas = new FigureCanvas(parent, SWT.DOUBLE_BUFFERED);
        canvas.getLightweightSystem().setEventDispatcher(dispatcher);
        // a node's tooltip goes when the pointer leaves the graph (it stayed, covering the canvas)
        canvas.addListener(SWT.MouseExit, e -> canvas.getDisplay().asyncExec(() -> {
            if (!canvas.isDisposed()) dispatcher.hideToolTip();
        }));
        canvas.setViewport(new FreeformViewport());
        nodes.setOpaque(true);   // so that clicks on the empty canvas reach it (they clear the selection)
        root.add(nodes, "nodes");
        root.add(connections, "connections");
        root.add(hintLayer, "hint");
        canvas.setContents(root);
        layoutJob = new LayoutJob(parent.getDisplay());
        groups = new GraphGroups(nodes, g -> onToggle.accept(g));
        // the theme's graph colours, again after a theme switch (the figures read theirs at each paint)
        ThemeColors.follow(canvas, this::applyThemeColors);
        feedback.setLineStyle(SWT.LINE_DASH);
        feedback.setForegroundColor(EditorColors.selection());
        feedback.setTargetDecoration(new PolygonDecoration());
        feedback.setTargetAnchor(pointer);
        canvas.addListener(SWT.MouseMove, e -> pointerAt(e.x, e.y));
    }

    private void applyThemeColors() {
        canvas.setBackground(EditorColors.background());
        nodes.setBackgroundColor(EditorColors.background());
        hint.setForegroundColor(EditorColors.text());
        for (EdgePart e : edges.values()) e.figure.setForegroundColor(EditorColors.edge());
        root.repaint();
    }

    /** What a click on a group's header does (the page collapses or expands it, as an edit). */
    void setGroupToggle(Consumer<Groups.Group> toggle) { onToggle = toggle; }

    /**
     * Shows {@code doc}: stored positions where the layout section has them, the present place of a node already
     * shown, and the layout engine's (in the background) for the rest; the problems as red frames and tooltips.
     */
    void setContents(FusionDocument doc, List<FusionCheck.Problem> problems, Shardings shardings) {
        dispatcher.hideToolTip();
        MovedNodes was = new MovedNodes(nodeFigures());
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
        shown = next;
        hint.showIn(hintLayer, parts.isEmpty());
        groups.update(doc, parts.keySet());
        updateEdges(next, kept);
        place(doc);
        // a node moved by hand may now stand on another arrow's route, or have left room for a shorter one: those
        // arrows are routed again (LaidOutRouter); a moved node's own arrows follow their anchors
        reroute(was.changed(nodeFigures()));
        selection.retainAll(parts.keySet());
        if (connectSource != null && !parts.containsKey(connectSource)) setConnectSource(null);
        errors.clear();
        for (FusionCheck.Problem p : problems) {
            for (String key : p.nodes(doc)) errors.merge(key, p.message() + " [" + p.rule() + "]", (a, b) -> a + "\n" + b);
        }
        updateStates();
    }

    /** Edges come and go with their elements; one whose tensor became shared (or stopped being) is drawn anew. */
    private void updateEdges(GraphElements next, Map<String, NodePart> kept) {
        Set<String> shared = Placement.shared(next.edges());
        edges.values().removeIf(e -> {
            boolean gone = !next.edges().contains(e.edge) || kept.get(e.edge.from()) == null
                    || kept.get(e.edge.to()) == null || e.stub != Placement.isStub(e.edge, shared)
                    || !e.from.equals(groups.end(e.edge.from())) || !e.to.equals(groups.end(e.edge.to()));
            if (gone) connections.remove(e.figure);
            return gone;
        });
        for (GraphElements.Edge e : next.edges()) {
            edges.computeIfAbsent(e, k -> {
                String from = groups.end(k.from()), to = groups.end(k.to());
                EdgePart part = new EdgePart(k, from, figureOf(from), to, figureOf(to), Placement.isStub(k, shared),
                        aroundNodes, () -> lettersInto(to));
                connections.add(part.figure);
                figuresDrawn++;
                return part;
            });
        }
    }

    /** The lettered arrows drawn into {@code to} (an op's operands), for {@link OperandLabels}. */
    private List<OperandLabels.Lettered> lettersInto(String to) {
        List<OperandLabels.Lettered> out = new ArrayList<>();
        for (EdgePart e : edges.values()) {
            if (e.to.equals(to) && e.letter != null) out.add(new OperandLabels.Lettered(e.figure, e.letter, e.edge.slot()));
        }
        return out;
    }

    /** The figure drawn for a node or group key. */
    private IFigure figureOf(String key) {
        return parts.get(key) != null ? parts.get(key).figure : groups.figures().get(key);
    }

    /** The node and collapsed group figures that are drawn (a node hidden in a collapsed group is not). */
    private Map<String, IFigure> drawn() {
        Map<String, IFigure> out = new LinkedHashMap<>();
        parts.forEach((k, p) -> { if (!groups.hidden(k)) out.put(k, p.figure); });
        groups.figures().forEach((k, f) -> { if (f.group().collapsed()) out.put(k, f); });
        return out;
    }

    /**
     * Keeps every node where it is (stored in the file, or shown already) and asks the layout engine for the others,
     * which stay hidden until their place arrives; the first contents are laid out in any case, for the routes.
     */
    private void place(FusionDocument doc) {
        Map<String, Position> stored = Layout.positions(doc.layout());
        placed.retainAll(new HashSet<>(figureKeys()));
        // a place the file no longer stores (undo of a drag, an align, a drop) is the layout's again, not where it
        // was last shown: undo puts such nodes back where the layout had them
        for (String k : lastStored.keySet()) if (!stored.containsKey(k)) placed.remove(k);
        lastStored = Map.copyOf(stored);
        Map<String, Position> fixed = new LinkedHashMap<>();
        for (String k : figureKeys()) {
            IFigure f = figureOf(k);
            Position at = stored.get(k);
            if (at == null && placed.contains(k)) at = new Position(f.getBounds().x, f.getBounds().y);
            if (at == null && groups.figures().containsKey(k)) {
                Rectangle members = groups.membersBounds(k, parts, placed);
                if (members != null) at = new Position(members.x, members.y);
            }
            if (at == null) continue;
            fixed.put(k, at);
            placed.add(k);
            Point location = new Point(at.x(), at.y());
            if (!f.getBounds().getLocation().equals(location)) f.setLocation(location);
        }
        showPlaced();
        if (!fixed.keySet().containsAll(drawn().keySet()) || requested == 0) requestLayout(fixed, null);
    }

    /** Nodes without a place yet are hidden, and so are their edges: no pile in the corner while the layout runs. */
    private void showPlaced() {
        parts.forEach((k, p) -> p.figure.setVisible(placed.contains(k) && !groups.hidden(k)));
        groups.figures().forEach((k, f) -> { if (f.group().collapsed()) f.setVisible(placed.contains(k)); });
        groups.frame(parts);
        edges.values().forEach(e -> e.figure.setVisible(!e.from.equals(e.to) && figureOf(e.from).isVisible()
                && figureOf(e.to).isVisible()));
    }

    /** The keys of every node and group figure. */
    private List<String> figureKeys() {
        List<String> out = new ArrayList<>(parts.keySet());
        out.addAll(groups.figures().keySet());
        return out;
    }

    /**
     * Lays the shown graph out in the background: the nodes of {@code fixed} keep their places and the others are
     * placed around them ({@link Placement#incremental}); {@code whole} (not null) takes every node's new place.
     */
    private void requestLayout(Map<String, Position> fixed, Consumer<Map<String, Position>> whole) {
        Map<String, Placement.Size> sizes = new LinkedHashMap<>();
        List<ElkLayout.Box> boxes = new ArrayList<>();
        drawn().forEach((k, f) -> {
            Dimension d = f.getSize();
            sizes.put(k, new Placement.Size(d.width, d.height));
            boxes.add(new ElkLayout.Box(k, d.width, d.height, groups.expandedGroup(k)));
        });
        Map<String, ElkLayout.Box> compound = new LinkedHashMap<>();
        groups.figures().forEach((k, f) -> {
            if (!f.group().collapsed()) compound.put(k, new ElkLayout.Box(k, 0, GroupFigure.HEADER, null));
        });
        Set<ElkLayout.Arrow> arrows = new LinkedHashSet<>();
        Set<GraphElements.Edge> near = new LinkedHashSet<>();
        edges.values().forEach(e -> {
            if (e.stub || e.from.equals(e.to)) return;
            arrows.add(new ElkLayout.Arrow(e.from, e.to));
            near.add(new GraphElements.Edge(e.from, e.to, ""));
        });
        // the same graph asked for again while its layout runs (an opening editor shows the loaded fusion, then
        // the checked one) waits for that layout instead of starting over
        LayoutKey key = new LayoutKey(boxes, List.copyOf(arrows), compound, fixed);
        if (whole == null && layoutPending() && key.equals(pendingKey)) return;
        pendingKey = whole == null ? key : null;
        long generation = ++requested;
        layoutJob.submit(new LayoutJob.Request(boxes, key.arrows(), compound, result -> {
            if (canvas.isDisposed() || generation != requested) return;   // a newer request answers instead
            Map<String, Position> at = whole != null ? result.positions()
                    : Placement.incremental(sizes, near, fixed, result.positions());
            apply(at, result, fixed.keySet());
            applied = generation;
            if (whole != null) whole.accept(positions());
            if (!layoutPending()) runLaidOut();
        }));
    }

    /** What a layout was asked for: equal keys give equal layouts. */
    private record LayoutKey(List<ElkLayout.Box> boxes, List<ElkLayout.Arrow> arrows, Map<String, ElkLayout.Box> groups,
            Map<String, Position> fixed) {}

    private void apply(Map<String, Position> at, ElkLayout.Result result, Set<String> fixed) {
        MovedNodes was = new MovedNodes(nodeFigures());
        drawn().forEach((k, f) -> {
            Position to = at.get(k);
            if (to == null) return;
            placed.add(k);
            Point location = new Point(to.x(), to.y());
            if (!f.getBounds().getLocation().equals(location)) f.setLocation(location);
        });
        // an arrow between two nodes that kept their places keeps its route (issue 35: a palette click on a 1,000-op
        // fusion routed all 2,000 arrows again); the others take the new layout's
        boolean every = fixed.isEmpty() || rerouteEveryArrow();
        edges.values().forEach(e -> {
            if (!every && fixed.contains(e.from) && fixed.contains(e.to) && e.router.hasRoute()) return;
            List<Position> route = result.routes().get(new ElkLayout.Arrow(e.from, e.to));
            if (route != null) e.router.setRoute(route, result.positions().get(e.from), result.positions().get(e.to));
            e.figure.revalidate();
        });
        showPlaced();
        reroute(was.changed(nodeFigures()));
    }

    /** The node layer's figures (nodes and groups), the obstacles of the arrows' routes. */
    @SuppressWarnings("unchecked")   // Draw2d 3.2's child list is raw
    private List<IFigure> nodeFigures() { return (List<IFigure>) nodes.getChildren(); }

    /** Routes again the arrows that may pass the {@code changed} boxes ({@link MovedNodes}; null: every arrow). */
    private void reroute(List<Rectangle> changed) {
        List<Rectangle> boxes = rerouteEveryArrow() ? null : changed;
        for (EdgePart e : edges.values()) {
            if (!e.stub && MovedNodes.near(e.figure.getBounds(), boxes)) e.figure.revalidate();
        }
    }

    /**
     * Whether every arrow is routed again after each edit, as before issue 35's change: only for the benchmark's
     * side-by-side figures (system property {@code hirstudio.editor.rerouteAll}).
     */
    private static boolean rerouteEveryArrow() { return Boolean.getBoolean("hirstudio.editor.rerouteAll"); }

    /** Lays every node out anew (in the background), then hands all positions to {@code done} on the UI thread. */
    void autoLayout(Consumer<Map<String, Position>> done) { requestLayout(Map.of(), done); }

    /** What the graph shows now, element by element. */
    GraphElements shown() { return shown; }

    /** The bounds of every node placed (figure coordinates), or null when none is. */
    Rectangle contentBounds() {
        Rectangle all = null;
        List<IFigure> figures = new ArrayList<>();
        parts.values().forEach(p -> figures.add(p.figure));
        figures.addAll(groups.figures().values());
        for (IFigure f : figures) {
            if (!f.isVisible()) continue;
            all = all == null ? f.getBounds().getCopy() : all.union(f.getBounds());
        }
        return all;
    }

    /** The bounds of every node placed as drawn on the canvas (zoom and scrolling applied), or null. */
    Rectangle shownContent() {
        Rectangle all = null;
        for (NodePart p : parts.values()) {
            if (!p.figure.isVisible()) continue;
            Rectangle r = p.figure.getBounds().getCopy();
            p.figure.translateToAbsolute(r);
            all = all == null ? r : all.union(r);
        }
        return all;
    }

    /** How long the layout engine took for the last layout (milliseconds, in its background job). */
    public double lastLayoutMillis() { return layoutJob.lastNanos / 1e6; }

    /** The CPU time of the layout job's thread in the last layout (milliseconds). */
    public double lastLayoutCpuMillis() { return layoutJob.lastCpuNanos / 1e6; }

    /** Runs {@code r} once no layout is pending: now, or on the UI thread when the pending one has been applied. */
    void whenLaidOut(Runnable r) {
        if (layoutPending()) laidOut.add(r);
        else r.run();
    }

    private void runLaidOut() {
        List<Runnable> due = List.copyOf(laidOut);
        laidOut.clear();
        due.forEach(Runnable::run);
    }

    /** Whether a layout was asked for and has not arrived yet. */
    public boolean layoutPending() { return applied < requested; }

    /** How many arrows follow the layout engine's route now (the others are Manhattan-routed or stubs). */
    public int routedEdges() {
        return (int) edges.values().stream().filter(e -> !e.stub && e.router.followsLayout(e.figure)).count();
    }

    /** Whether the arrow between two nodes is drawn (not hidden inside a collapsed group, its ends placed). */
    public boolean edgeShown(String from, String to) {
        for (EdgePart e : edges.values()) {
            if (e.edge.from().equals(from) && e.edge.to().equals(to)) return e.figure.isVisible();
        }
        return false;
    }

    /** Every arrow drawn as a full arrow (not a stub), as its points ({x0, y0, x1, y1, ...}, figure coordinates). */
    public List<int[]> drawnArrows() {
        List<int[]> out = new ArrayList<>();
        for (EdgePart e : edges.values()) {
            if (e.stub || !e.figure.isVisible()) continue;
            e.figure.validate();
            out.add(e.figure.getPoints().toIntArray());
        }
        return out;
    }

    /**
     * The same arrows by their ends ({@code from -> to}, node or collapsed group keys), so that a route can be
     * checked against the nodes other than its own ends.
     */
    public Map<String, int[]> drawnArrowsByEnds() {
        Map<String, int[]> out = new LinkedHashMap<>();
        for (EdgePart e : edges.values()) {
            if (e.stub || !e.figure.isVisible()) continue;
            e.figure.validate();
            out.put(e.from + " -> " + e.to, e.figure.getPoints().toIntArray());
        }
        return out;
    }

    /** The colour arrows are drawn in now (for tests reading the screen). */
    public org.eclipse.swt.graphics.RGB edgeColour() { return EditorColors.edge().getRGB(); }

    /** The groups drawn (compound nodes) by key ({@code group:<name>}), with whether each is collapsed. */
    public Map<String, Boolean> groups() {
        Map<String, Boolean> out = new LinkedHashMap<>();
        groups.figures().forEach((k, f) -> out.put(k, f.group().collapsed()));
        return out;
    }

    /** Where a group's header is on {@link #getControl()} ({x, y}: its middle, zoom and scrolling applied), or null. */
    public int[] groupHeader(String key) {
        GroupFigure f = groups.figures().get(key);
        if (f == null || !f.isVisible()) return null;
        Rectangle r = f.header.getBounds().getCopy();
        f.translateToAbsolute(r);
        return new int[] { r.x + Math.min(r.width / 2, 40), r.y + r.height / 2 };
    }

    /** Whether a node is drawn (placed, and not hidden in a collapsed group). */
    public boolean visible(String key) {
        var f = figure(key);
        return f != null && f.isVisible();
    }

    /** How many arrows are drawn as stubs at their readers (their tensor is read by many ops). */
    public int stubEdges() { return (int) edges.values().stream().filter(e -> e.stub).count(); }

    /** The operand letters on the arrows into {@code op}: each letter's bounds {x, y, width, height}, for tests. */
    public Map<String, int[]> operandLetters(String op) {
        Map<String, int[]> out = new TreeMap<>();
        for (EdgePart e : edges.values()) {
            if (!e.to.equals(op) || e.letter == null) continue;
            e.figure.validate();
            Rectangle b = e.letter.getBounds();
            out.put(e.letter.getText(), new int[] {b.x, b.y, b.width, b.height});
        }
        return out;
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

    /**
     * Sets the tensor Connect mode starts from (null: none). While one is set, a dashed rubber-band line runs from it to
     * the pointer (GEF's connection creation feedback), so the user sees that a connection is under way.
     */
    void setConnectSource(String key) {
        connectSource = key;
        if (feedback.getParent() != null) connections.remove(feedback);
        NodeFigures.Node from = figure(key);
        if (from == null) return;
        feedback.setSourceAnchor(new ChopboxAnchor(from));
        Rectangle r = from.getBounds().getCopy();
        from.translateToAbsolute(r);
        pointer.setLocation(r.getCenter());
        connections.add(feedback);
    }

    /** The pointer moved to {@code x, y} of the canvas: the rubber band follows it. */
    void pointerAt(int x, int y) {
        if (feedback.getParent() != null) pointer.setLocation(new Point(x, y));
    }

    /** The rubber-band line while Connect has a source ({x1, y1, x2, y2} on the canvas, from the tensor to the pointer), else null. */
    public int[] feedbackLine() {
        if (feedback.getParent() == null) return null;
        Point to = pointer.getLocation(null), from = feedback.getSourceAnchor().getLocation(to);
        return new int[] { from.x, from.y, to.x, to.y };
    }

    String connectSource() { return connectSource; }

    void setScale(double scale) { root.setScale(Math.max(0.1, Math.min(4, scale))); }

    /** A point of the canvas control as figure coordinates (scrolling and zoom undone). */
    Point toFigure(int x, int y) {
        var view = canvas.getViewport().getViewLocation();
        double scale = root.getScale();
        return new Point((int) ((x + view.x) / scale), (int) ((y + view.y) / scale));
    }

    /**
     * The first place in the view, from its top left down then across, where a box of {@code width} by
     * {@code height} meets no drawn node (figure coordinates), or null when the view has none.
     */
    Point freePlaceInView(int width, int height) {
        var area = canvas.getClientArea();
        Point from = toFigure(0, 0), to = toFigure(area.width, area.height);
        List<Rectangle> taken = new ArrayList<>();
        drawn().values().forEach(f -> { if (f.isVisible()) taken.add(f.getBounds().getExpanded(GAP, GAP)); });
        for (int x = from.x + GAP; x + width <= to.x; x += width / 2) {
            for (int y = from.y + GAP; y + height <= to.y; y += GAP) {
                Rectangle box = new Rectangle(x, y, width, height);
                if (taken.stream().noneMatch(box::intersects)) return new Point(x, y);
            }
        }
        return null;
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

    /** Draw2d calls a figure without a parent showing: the hint is shown only while it is in its layer. */
    private boolean hintShown() { return hint.getParent() == hintLayer && hint.isShowing(); }

    /** The hint drawn on an empty graph while it shows, else null. */
    public String emptyHint() { return hintShown() ? hint.getText() : null; }

    /** The hint's bounds on the canvas (x, y, width, height, scrolling and zoom applied), or null while hidden. */
    public int[] emptyHintBounds() {
        if (!hintShown()) return null;
        Rectangle r = hint.getBounds().getCopy();
        hint.translateToAbsolute(r);
        return new int[] {r.x, r.y, r.width, r.height};
    }

    /** A node's bounds {x, y, width, height} in figure coordinates, or null. */
    public int[] bounds(String key) {
        var f = figure(key);
        return f == null ? null : new int[] { f.getBounds().x, f.getBounds().y, f.getBounds().width, f.getBounds().height };
    }

    /** A node's bounds on {@link #getControl()} {x, y, width, height}, zoom and scrolling applied, or null. */
    public int[] shownBounds(String key) {
        var f = figure(key);
        if (f == null) return null;
        var r = f.getBounds().getCopy();
        f.translateToAbsolute(r);
        return new int[] { r.x, r.y, r.width, r.height };
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
