package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.eclipse.draw2d.ChopboxAnchor;
import org.eclipse.draw2d.ConnectionEndpointLocator;
import org.eclipse.draw2d.ConnectionLayer;
import org.eclipse.draw2d.EllipseAnchor;
import org.eclipse.draw2d.FigureCanvas;
import org.eclipse.draw2d.FreeformLayer;
import org.eclipse.draw2d.FreeformViewport;
import org.eclipse.draw2d.IFigure;
import org.eclipse.draw2d.Label;
import org.eclipse.draw2d.MouseEvent;
import org.eclipse.draw2d.MouseListener;
import org.eclipse.draw2d.MouseMotionListener;
import org.eclipse.draw2d.PolygonDecoration;
import org.eclipse.draw2d.PolylineConnection;
import org.eclipse.draw2d.ScalableFreeformLayeredPane;
import org.eclipse.draw2d.geometry.Point;
import org.eclipse.draw2d.geometry.Rectangle;
import org.eclipse.draw2d.graph.DirectedGraph;
import org.eclipse.draw2d.graph.DirectedGraphLayout;
import org.eclipse.draw2d.graph.Edge;
import org.eclipse.draw2d.graph.Node;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Text;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ui.editor.model.AxisText;
import org.hostir.studio.ui.editor.model.FusionCheck;
import org.hostir.studio.ui.editor.model.LayeredLayout;
import org.hostir.studio.ui.editor.model.Layout.Position;
import org.hostir.studio.ui.editor.model.Layout;

/**
 * The Graph page: palette, banner and a Draw2d canvas. Figures are rebuilt from the document on every change
 * (GEF's Shapes example keeps edit parts in step instead; rebuilding is simpler and fast enough for hundreds
 * of nodes). Gestures become calls on the editor, which turns each into one undoable operation.
 */
final class GraphPage {
    private static final int MARGIN = 20;

    private final FusionEditor editor;
    private Composite control;
    private Text banner;
    /** Says that Connect is on and how to leave it: a mode nobody can see is a trap. */
    private org.eclipse.swt.widgets.Label modeBar;
    private FigureCanvas canvas;
    private ScalableFreeformLayeredPane root;
    private FreeformLayer nodes;
    private ConnectionLayer connections;
    private Button connectTool;
    private org.eclipse.swt.widgets.Label zoomLabel;
    private final Map<String, NodeFigures.Node> figures = new LinkedHashMap<>();
    private final Set<String> selection = new LinkedHashSet<>();
    private String connectSource;
    private final Dispatcher dispatcher = new Dispatcher();

    /** Draw2d's dispatcher, with a way to take down a node's tooltip when the node goes (delete, undo). */
    private static final class Dispatcher extends org.eclipse.draw2d.SWTEventDispatcher {
        void hideToolTip() { getToolTipHelper().updateToolTip(null, null, 0, 0); }
    }
    private Text renameBox;

    GraphPage(FusionEditor editor) { this.editor = editor; }

    Composite createControl(Composite parent) {
        control = new Composite(parent, SWT.NONE);
        GridLayout grid = new GridLayout(2, false);
        grid.marginWidth = grid.marginHeight = 0;
        grid.horizontalSpacing = grid.verticalSpacing = 0;
        control.setLayout(grid);

        banner = new Text(control, SWT.READ_ONLY | SWT.WRAP);
        banner.setBackground(EditorColors.banner());
        GridData bd = new GridData(SWT.FILL, SWT.TOP, true, false, 2, 1);
        bd.exclude = true;
        banner.setLayoutData(bd);
        banner.setVisible(false);

        createModeBar();
        Composite palette = createPalette(control);
        GridData pd = new GridData(SWT.FILL, SWT.FILL, false, true);
        pd.widthHint = (Integer) palette.getData("widthHint");
        palette.setLayoutData(pd);

        canvas = new FigureCanvas(control, SWT.DOUBLE_BUFFERED);
        canvas.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        canvas.setBackground(Display.getCurrent().getSystemColor(SWT.COLOR_LIST_BACKGROUND));
        canvas.getLightweightSystem().setEventDispatcher(dispatcher);
        // a node's tooltip goes when the pointer leaves the graph (it stayed, covering the canvas)
        canvas.addListener(SWT.MouseExit, e -> canvas.getDisplay().asyncExec(() -> {
            if (!canvas.isDisposed()) dispatcher.hideToolTip();
        }));
        canvas.setViewport(new FreeformViewport());
        root = new ScalableFreeformLayeredPane();
        nodes = new FreeformLayer();
        nodes.setOpaque(true);   // so that clicks on the empty canvas reach it (they clear the selection)
        nodes.setBackgroundColor(canvas.getBackground());
        connections = new ConnectionLayer();
        root.add(nodes, "nodes");
        root.add(connections, "connections");
        canvas.setContents(root);
        nodes.addMouseListener(new MouseListener.Stub() {
            @Override
            public void mousePressed(MouseEvent me) {
                finishRename(true);
                if ((me.getState() & SWT.CTRL) == 0) selection.clear();   // Ctrl+marquee adds
                connectSource = null;
                updateStates();
                editor.graphSelectionChanged();
            }
        });
        installKeys();
        new GraphGestures.Marquee(this, nodes, connections);
        PaletteDrop.target(canvas, (kind, p) -> {
            Point at = toFigure(p.x, p.y);
            editor.addAt(kind, kind == null ? List.of() : selectedTensors(), at.x, at.y);
        });
        GraphGestures.installWheelZoom(canvas, this);
        return control;
    }

    private void createModeBar() {
        modeBar = new org.eclipse.swt.widgets.Label(control, SWT.NONE);
        modeBar.setText(CONNECT_HINT);
        modeBar.setBackground(Display.getCurrent().getSystemColor(SWT.COLOR_INFO_BACKGROUND));
        modeBar.setForeground(Display.getCurrent().getSystemColor(SWT.COLOR_INFO_FOREGROUND));
        GridData mbd = new GridData(SWT.FILL, SWT.TOP, true, false, 2, 1);
        mbd.exclude = true;
        modeBar.setLayoutData(mbd);
        modeBar.setVisible(false);
    }

    /** Zoom keys, F2 rename, Esc out of Connect mode. */
    private void installKeys() {
        // Esc is a traversal key: it reaches the canvas as a Traverse event, not as KeyDown
        canvas.addListener(SWT.Traverse, e -> {
            if (e.detail == SWT.TRAVERSE_ESCAPE && connectMode()) {
                e.doit = false;
                e.detail = SWT.TRAVERSE_NONE;
                setConnectMode(false);
            }
        });
        canvas.addKeyListener(new org.eclipse.swt.events.KeyAdapter() {
            @Override
            public void keyPressed(org.eclipse.swt.events.KeyEvent e) {
                boolean ctrl = (e.stateMask & SWT.CTRL) != 0;
                if (ctrl && (e.character == '+' || e.character == '=' || e.keyCode == SWT.KEYPAD_ADD)) zoom(1.25);
                else if (ctrl && (e.character == '-' || e.keyCode == '-' || e.keyCode == SWT.KEYPAD_SUBTRACT)) zoom(0.8);
                else if (e.keyCode == SWT.F2) startRename();
                else if (e.keyCode == SWT.ESC && connectMode()) setConnectMode(false);
            }
        });
    }

    /** The palette in a vertical scroller: a short editor (1280 x 800) scrolls it instead of cutting it off. */
    private Composite createPalette(Composite parent) {
        org.eclipse.swt.custom.ScrolledComposite scroller =
                new org.eclipse.swt.custom.ScrolledComposite(parent, SWT.V_SCROLL | SWT.BORDER);
        Composite palette = fillPalette(scroller);
        scroller.setContent(palette);
        scroller.setExpandHorizontal(true);
        scroller.setExpandVertical(true);
        var size = palette.computeSize(SWT.DEFAULT, SWT.DEFAULT);
        scroller.setMinSize(size);
        scroller.setData("widthHint", size.x + scroller.getVerticalBar().getSize().x + 4);
        return scroller;
    }

    private Composite fillPalette(Composite parent) {
        Composite palette = new Composite(parent, SWT.NONE);
        // two columns, so that the whole palette fits beside a graph of ordinary height
        GridLayout grid = new GridLayout(2, true);
        grid.verticalSpacing = 2;
        grid.horizontalSpacing = 2;
        palette.setLayout(grid);
        // the tools first: with every op of OpKind below them, the ops are what scrolls on a short editor
        PaletteDrop.source(wide(button(palette, "Input tensor", "Add a fusion input tensor\n(or drag it onto the graph)",
                SWT.PUSH, editor::addInputTensor)), null);
        connectTool = wide(button(palette, "Connect", "Connect mode:\nclick a tensor, then an op;\nEsc leaves it",
                SWT.TOGGLE, () -> setConnectMode(connectTool.getSelection())));
        wide(button(palette, "Delete", "Delete the selection (Delete key)", SWT.PUSH, editor::deleteSelection));
        wide(button(palette, "Auto layout", "Lay the graph out left to right", SWT.PUSH, editor::autoLayout));
        button(palette, "Zoom in", "Ctrl++", SWT.PUSH, () -> zoom(1.25));
        button(palette, "Zoom out", "Ctrl+-", SWT.PUSH, () -> zoom(0.8));
        wide(button(palette, "Zoom 100%", "Actual size", SWT.PUSH, () -> setZoom(1)));
        zoomLabel = new org.eclipse.swt.widgets.Label(palette, SWT.CENTER);
        zoomLabel.setToolTipText("Zoom level (Ctrl+wheel, Ctrl++, Ctrl+-)");
        zoomLabel.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false, 2, 1));
        zoomLabel.setText("Zoom: 100%");
        for (OpKind kind : OpKind.values()) {
            PaletteDrop.source(button(palette, kind.fileName(), opTip(kind.fileName()), SWT.PUSH,
                    () -> editor.addOp(kind, selectedTensors())), kind);
        }
        return palette;
    }

    static final String CONNECT_HINT = "Connect mode: click a tensor, then the op it feeds.  Esc or Connect leaves it.";

    /** The palette tooltip of an op: "Add an add op", "Add a matmul op", on short lines (tooltips clip). */
    static String opTip(String op) {
        String article = "aeiou".indexOf(Character.toLowerCase(op.charAt(0))) >= 0 ? "an " : "a ";
        return "Add " + article + op + " op\nreading the selected tensors\n(in selection order)";
    }

    private static Button wide(Button b) {
        ((GridData) b.getLayoutData()).horizontalSpan = 2;
        return b;
    }

    private static Button button(Composite parent, String text, String tip, int style, Runnable action) {
        Button b = new Button(parent, style);
        b.setText(text);
        b.setToolTipText(tip);
        b.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        b.addListener(SWT.Selection, e -> action.run());
        return b;
    }

    Control getControl() { return control; }

    IFigure rootFigure() { return root; }

    FigureCanvas canvas() { return canvas; }

    org.eclipse.draw2d.Viewport viewport() { return canvas.getViewport(); }

    void zoom(double factor) { setZoom(root.getScale() * factor); }

    void setZoom(double scale) {
        root.setScale(Math.max(0.1, Math.min(4, scale)));
        zoomLabel.setText("Zoom: " + Math.round(root.getScale() * 100) + "%");
    }

    /** A point of the canvas control as figure coordinates (scrolling and zoom undone). */
    Point toFigure(int x, int y) {
        var view = canvas.getViewport().getViewLocation();
        double scale = root.getScale();
        return new Point((int) ((x + view.x) / scale), (int) ((y + view.y) / scale));
    }

    /** The zoom level as the palette shows it ("Zoom: 125%"). */
    String zoomText() { return zoomLabel.getText(); }

    /**
     * Selects the nodes wholly inside the rectangle (figure coordinates), as GEF's marquee does by default: one
     * that only touches a node's edge does not take it; {@code add} keeps the selection.
     */
    void selectArea(Rectangle r, boolean add) {
        if (!add) selection.clear();
        figures.forEach((k, f) -> { if (r.contains(f.getBounds())) selection.add(k); });
        updateStates();
        editor.graphSelectionChanged();
    }

    double zoom() { return root.getScale(); }

    /** Turns Connect on or off: the palette button, a bar over the canvas, a cross cursor. */
    void setConnectMode(boolean on) {
        connectTool.setSelection(on);
        connectSource = null;
        modeBar.setVisible(on);
        ((GridData) modeBar.getLayoutData()).exclude = !on;
        canvas.setCursor(on ? canvas.getDisplay().getSystemCursor(SWT.CURSOR_CROSS) : null);
        control.layout(true);
        updateStates();
    }

    boolean connectMode() { return connectTool.getSelection(); }

    /** The mode bar's text while Connect is on, else null (for tests). */
    String modeText() { return modeBar.getVisible() ? modeBar.getText() : null; }

    /** Shows the banner (the source does not parse: the graph keeps the last valid state) or hides it. */
    void setBanner(String text) {
        boolean show = text != null;
        banner.setText(show ? text : "");
        banner.setVisible(show);
        ((GridData) banner.getLayoutData()).exclude = !show;
        control.layout(true);
    }

    String bannerText() { return banner.getVisible() ? banner.getText() : null; }

    Set<String> selection() { return selection; }

    List<String> selectedTensors() {
        return selection.stream().filter(k -> !k.startsWith(Layout.OP_PREFIX)).toList();
    }

    void select(List<String> keys) {
        selection.clear();
        for (String k : keys) if (figures.containsKey(k)) selection.add(k);
        updateStates();
        if (selection.size() == 1) reveal(figures.get(selection.iterator().next()));
    }

    private void reveal(IFigure f) {
        Rectangle r = f.getBounds().getCopy();
        f.translateToAbsolute(r);
        org.eclipse.draw2d.geometry.Point view = canvas.getViewport().getViewLocation();
        var size = canvas.getViewport().getClientArea().getSize();
        if (r.x < 0 || r.y < 0 || r.right() > size.width || r.bottom() > size.height) {
            canvas.scrollTo(Math.max(0, view.x + r.x - 40), Math.max(0, view.y + r.y - 40));
        }
    }

    Map<String, NodeFigures.Node> figures() { return figures; }

    /** Current positions of all nodes (figure coordinates, unscaled). */
    Map<String, Position> positions() {
        Map<String, Position> out = new LinkedHashMap<>();
        figures.forEach((k, f) -> out.put(k, new Position(f.getBounds().x, f.getBounds().y)));
        return out;
    }

    /** Rebuilds the figures from {@code doc}: stored positions where the layout has them, auto-layout elsewhere. */
    void refresh(FusionDocument doc, List<FusionCheck.Problem> problems) {
        finishRename(false);
        dispatcher.hideToolTip();
        nodes.removeAll();
        connections.removeAll();
        figures.clear();
        List<String> meshes = new ArrayList<>();
        for (TensorSpec t : doc.tensors()) {
            if (!(t.mesh() instanceof MeshSpec.Absent) && !meshes.contains(AxisText.format(t.mesh()))) {
                meshes.add(AxisText.format(t.mesh()));
            }
        }
        for (TensorSpec t : doc.tensors()) {
            String role = doc.inputs().contains(t.name()) ? "input" : doc.outputs().contains(t.name()) ? "output" : "";
            int mesh = t.mesh() instanceof MeshSpec.Absent ? -1 : meshes.indexOf(AxisText.format(t.mesh()));
            add(new NodeFigures.TensorNode(t, role, AxisText.withLoop(t), EditorColors.mesh(mesh)));
        }
        for (int i = 0; i < doc.ops().size(); i++) {
            OpSpec op = doc.ops().get(i);
            add(new NodeFigures.OpNode(op.op().fileName(), op.output(), i));
        }
        Map<String, Position> stored = Layout.positions(doc.layout());
        Map<String, Position> auto = stored.keySet().containsAll(figures.keySet()) ? Map.of() : autoLayout(doc);
        figures.forEach((k, f) -> {
            Position p = stored.getOrDefault(k, auto.getOrDefault(k, new Position(MARGIN, MARGIN)));
            f.setLocation(new Point(p.x(), p.y()));
        });
        for (int i = 0; i < doc.ops().size(); i++) {
            OpSpec op = doc.ops().get(i);
            NodeFigures.Node opFigure = figures.get(Layout.opKey(op.output()));
            for (int s = 0; s < op.inputs().size(); s++) {
                NodeFigures.Node in = figures.get(op.inputs().get(s));
                if (in == null) continue;
                PolylineConnection c = edge(new ChopboxAnchor(in), new EllipseAnchor(opFigure));
                if (op.inputs().size() > 1) {   // operand order matters (matmul A x B): label each input edge
                    Label slot = new Label(Character.toString((char) ('A' + s)));
                    c.add(slot, new ConnectionEndpointLocator(c, true));
                }
            }
            NodeFigures.Node out = figures.get(op.output());
            if (out != null) edge(new EllipseAnchor(opFigure), new ChopboxAnchor(out));
        }
        selection.retainAll(figures.keySet());
        applyProblems(problems, doc);
    }

    private void add(NodeFigures.Node f) {
        figures.put(f.key, f);
        nodes.add(f);
        new Dragger(f);
    }

    private PolylineConnection edge(org.eclipse.draw2d.ConnectionAnchor from, org.eclipse.draw2d.ConnectionAnchor to) {
        PolylineConnection c = new PolylineConnection();
        c.setSourceAnchor(from);
        c.setTargetAnchor(to);
        c.setForegroundColor(EditorColors.edge());
        c.setTargetDecoration(new PolygonDecoration());
        connections.add(c);
        return c;
    }

    private final Map<String, String> errors = new HashMap<>();

    /** Red frames and tooltips on the nodes the problems name. */
    void applyProblems(List<FusionCheck.Problem> problems, FusionDocument doc) {
        errors.clear();
        for (FusionCheck.Problem p : problems) {
            String key = p.tensor() != null ? p.tensor()
                    : p.op() >= 0 && p.op() < doc.ops().size() ? Layout.opKey(doc.ops().get(p.op()).output()) : null;
            if (key != null) errors.merge(key, p.message() + " [" + p.rule() + "]", (a, b) -> a + "\n" + b);
        }
        updateStates();
    }

    String errorOf(String key) { return errors.get(key); }

    private void updateStates() {
        figures.forEach((k, f) -> f.setState(selection.contains(k) || k.equals(connectSource), errors.get(k)));
    }

    /** Layered left-to-right positions from Draw2d's DirectedGraphLayout (run top-down, then transposed). */
    Map<String, Position> autoLayout(FusionDocument doc) {
        Map<String, Position> out = new LinkedHashMap<>();
        DirectedGraph graph = new DirectedGraph();
        Map<String, Node> gnodes = new LinkedHashMap<>();
        figures.forEach((k, f) -> {
            Node n = new Node(k);
            n.width = f.getSize().height;   // transposed: the layout's rows become our columns
            n.height = f.getSize().width;
            graph.nodes.add(n);
            gnodes.put(k, n);
        });
        for (OpSpec op : doc.ops()) {
            Node o = gnodes.get(Layout.opKey(op.output()));
            for (String in : op.inputs()) if (gnodes.containsKey(in)) graph.edges.add(new Edge(gnodes.get(in), o));
            if (gnodes.containsKey(op.output())) graph.edges.add(new Edge(o, gnodes.get(op.output())));
        }
        List<LayeredLayout.Edge> spans = new ArrayList<>();
        for (OpSpec op : doc.ops()) {
            for (String in : op.inputs()) spans.add(new LayeredLayout.Edge(in, Layout.opKey(op.output())));
            spans.add(new LayeredLayout.Edge(Layout.opKey(op.output()), op.output()));
        }
        if (LayeredLayout.virtualNodes(new ArrayList<>(gnodes.keySet()), spans) > LayeredLayout.VIRTUAL_NODE_BUDGET) {
            Map<String, LayeredLayout.Size> sizes = new LinkedHashMap<>();
            figures.forEach((k, f) -> sizes.put(k, new LayeredLayout.Size(f.getSize().width, f.getSize().height)));
            return LayeredLayout.positions(sizes, spans, MARGIN, 60, 32);
        }
        try {
            graph.setDefaultPadding(new org.eclipse.draw2d.geometry.Insets(16, 30, 16, 30));
            new DirectedGraphLayout().visit(graph);
            gnodes.forEach((k, n) -> out.put(k, new Position(MARGIN + n.y, MARGIN + n.x)));
        } catch (RuntimeException e) {
            // a graph the layout cannot handle still gets a readable placement: a grid in document order
            int i = 0;
            for (String k : gnodes.keySet()) {
                out.put(k, new Position(MARGIN + (i % 6) * 220, MARGIN + (i / 6) * 110));
                i++;
            }
        }
        return out;
    }

    /** In-place rename of the selected tensor (F2, double-click, or the Rename command). */
    void startRename() {
        List<String> tensors = selectedTensors();
        if (tensors.size() != 1 || renameBox != null) return;
        NodeFigures.Node f = figures.get(tensors.get(0));
        Rectangle r = f.getBounds().getCopy();
        f.translateToAbsolute(r);
        renameBox = new Text(canvas, SWT.BORDER | SWT.SINGLE);
        renameBox.setText(f.key);
        renameBox.setBounds(r.x + 6, r.y + 4, Math.max(100, r.width - 12), 24);
        renameBox.selectAll();
        renameBox.setFocus();
        String old = f.key;
        renameBox.addListener(SWT.DefaultSelection, e -> finishRename(true));
        renameBox.addListener(SWT.FocusOut, e -> finishRename(true));
        renameBox.addListener(SWT.Traverse, e -> {
            if (e.detail == SWT.TRAVERSE_ESCAPE) {
                e.doit = false;
                finishRename(false);
            }
        });
        renameBox.setData("old", old);
    }

    boolean isRenaming() { return renameBox != null; }

    void setRenameText(String text) { if (renameBox != null) renameBox.setText(text); }

    void finishRename(boolean commit) {
        Text box = renameBox;
        if (box == null) return;
        renameBox = null;
        String old = (String) box.getData("old");
        String name = box.getText().trim();
        box.dispose();
        if (commit && !name.equals(old)) editor.renameTensor(old, name);
    }

    /** Select, drag (one move operation on release), connect mode, double-click rename. */
    private final class Dragger implements MouseListener, MouseMotionListener {
        private final NodeFigures.Node figure;
        private Point start;
        private Rectangle startBounds;
        private boolean moved;

        Dragger(NodeFigures.Node figure) {
            this.figure = figure;
            figure.addMouseListener(this);
            figure.addMouseMotionListener(this);
        }

        @Override
        public void mousePressed(MouseEvent me) {
            me.consume();
            finishRename(true);
            canvas.setFocus();
            if (connectTool.getSelection()) {
                // the clicked node is also the selection, so that Delete and Properties act on what was clicked
                selection.clear();
                selection.add(figure.key);
                connect();
                updateStates();
                editor.graphSelectionChanged();
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
            updateStates();
            editor.graphSelectionChanged();
        }

        private void connect() {
            boolean isOp = figure.key.startsWith(Layout.OP_PREFIX);
            if (!isOp) {
                connectSource = figure.key;
                updateStates();
            } else if (connectSource != null) {
                String tensor = connectSource;
                connectSource = null;
                editor.connect(tensor, figure.key.substring(Layout.OP_PREFIX.length()), -1);
            }
        }

        @Override
        public void mouseDragged(MouseEvent me) {
            if (start == null) return;
            Point p = me.getLocation();
            double scale = root.getScale();
            int dx = (int) ((p.x - start.x) / scale), dy = (int) ((p.y - start.y) / scale);
            if (Math.abs(dx) + Math.abs(dy) < 3 && !moved) return;
            moved = true;
            figure.setLocation(new Point(GraphGestures.snap(startBounds.x + dx), GraphGestures.snap(startBounds.y + dy)));
        }

        @Override
        public void mouseReleased(MouseEvent me) {
            if (start != null && moved) editor.moveNodes(positions());
            start = null;
            moved = false;
        }

        @Override
        public void mouseDoubleClicked(MouseEvent me) {
            if (!figure.key.startsWith(Layout.OP_PREFIX)) startRename();
        }

        @Override
        public void mouseEntered(MouseEvent me) {}

        @Override
        public void mouseExited(MouseEvent me) {}

        @Override
        public void mouseHover(MouseEvent me) {}

        @Override
        public void mouseMoved(MouseEvent me) {}
    }
}
