package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.eclipse.draw2d.MouseEvent;
import org.eclipse.draw2d.MouseListener;
import org.eclipse.draw2d.geometry.Point;
import org.eclipse.draw2d.geometry.Rectangle;
import org.eclipse.swt.SWT;
import org.eclipse.swt.events.KeyAdapter;
import org.eclipse.swt.events.KeyEvent;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Listener;
import org.eclipse.swt.widgets.Text;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ui.FindBar;
import org.hostir.studio.ui.ThemeColors;
import org.hostir.studio.ui.editor.model.Arrange;
import org.hostir.studio.ui.editor.model.AxisText;
import org.hostir.studio.ui.editor.model.FusionCheck;
import org.hostir.studio.ui.editor.model.GraphSearch;
import org.hostir.studio.ui.editor.model.Layout.Position;
import org.hostir.studio.ui.editor.model.Layout;
import org.hostir.studio.ui.editor.model.Shardings;

/**
 * The Graph page: palette, banner, Connect's mode bar and the {@link GraphViewer}, whose parts follow the document
 * edit by edit. Gestures become calls on {@link FusionCommands}, which turns each into one undoable operation.
 */
final class GraphPage {
    private final FusionEditor editor;
    private Composite control;
    private Text banner;
    /** Says that Connect is on and how to leave it: a mode nobody can see is a trap. */
    private Label modeBar;
    private GraphPalette palette;
    private GraphViewer viewer;
    private Text renameBox;
    private FindBar<String> findBar;
    private final GraphEditing editing = new GraphEditing(this);

    GraphPage(FusionEditor editor) { this.editor = editor; }

    /** Navigation, Select All, copy/paste/duplicate, align/distribute. */
    GraphEditing editing() { return editing; }

    Composite createControl(Composite parent) {
        control = new Composite(parent, SWT.NONE);
        GridLayout grid = new GridLayout(2, false);
        grid.marginWidth = grid.marginHeight = 0;
        grid.horizontalSpacing = grid.verticalSpacing = 0;
        control.setLayout(grid);
        banner = new Text(control, SWT.READ_ONLY | SWT.WRAP);
        ThemeColors.follow(banner, () -> {
            banner.setBackground(EditorColors.banner());
            banner.setForeground(EditorColors.bannerText());
        });
        banner.setLayoutData(hidden(new GridData(SWT.FILL, SWT.TOP, true, false, 2, 1)));
        banner.setVisible(false);
        modeBar = new Label(control, SWT.NONE);
        modeBar.setText(GraphPalette.CONNECT_HINT);
        modeBar.setBackground(Display.getCurrent().getSystemColor(SWT.COLOR_INFO_BACKGROUND));
        modeBar.setForeground(Display.getCurrent().getSystemColor(SWT.COLOR_INFO_FOREGROUND));
        modeBar.setLayoutData(hidden(new GridData(SWT.FILL, SWT.TOP, true, false, 2, 1)));
        modeBar.setVisible(false);
        findBar = new FindBar<>(control, "tensor or op name", q -> GraphSearch.find(viewer.shown(), q), this::reveal,
                this::closeFind);
        findBar.control.setLayoutData(hidden(new GridData(SWT.FILL, SWT.TOP, true, false, 2, 1)));
        findBar.control.setVisible(false);
        palette = new GraphPalette(control, this);
        GridData pd = new GridData(SWT.FILL, SWT.FILL, false, true);
        pd.widthHint = palette.widthHint;
        palette.control.setLayoutData(pd);

        viewer = new GraphViewer(control, figure -> new NodeDragger(this, viewer, figure));
        viewer.canvas().setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        viewer.setGroupToggle(g -> commands().setCollapsed(g, !g.collapsed()));
        viewer.nodeLayer().addMouseListener(new MouseListener.Stub() {
            @Override
            public void mousePressed(MouseEvent me) {
                finishRename(true);
                if ((me.getState() & SWT.CTRL) == 0) viewer.selection().clear();   // Ctrl+marquee adds
                viewer.setConnectSource(null);
                viewer.updateStates();
                selectionChanged();
            }
        });
        installKeys();
        new GraphGestures.Marquee(this, viewer.nodeLayer(), viewer.connectionLayer());
        PaletteDrop.target(viewer.canvas(), (kind, p) -> {
            Point at = viewer.toFigure(p.x, p.y);
            String made = editor.commands().addAt(kind, kind == null ? List.of() : selectedTensors(), at.x, at.y);
            // the created node becomes the selection, so Properties shows it (GEF's creation tool; issue 35)
            if (made != null) {
                select(List.of(kind == null ? made : Layout.opKey(made)));
                selectionChanged();
            }
        });
        GraphGestures.installWheelZoom(viewer.canvas(), this);
        return control;
    }

    private static GridData hidden(GridData data) {
        data.exclude = true;
        return data;
    }

    /**
     * Zoom keys, F2 rename, Esc out of Connect mode, arrow keys and Tab between nodes, E and I for a sharding made
     * explicit or cleared to inferred. These listen on the canvas only, so a key typed into the find bar or a
     * Properties cell (other widgets with the focus) never reaches them.
     */
    private void installKeys() {
        var canvas = viewer.canvas();
        // Esc and Tab are traversal keys: they reach the canvas as Traverse events, not as KeyDown
        canvas.addListener(SWT.Traverse, e -> {
            if (e.detail == SWT.TRAVERSE_ESCAPE && connectMode()) {
                e.doit = false;
                e.detail = SWT.TRAVERSE_NONE;
                setConnectMode(false);
            } else if (e.detail == SWT.TRAVERSE_TAB_NEXT || e.detail == SWT.TRAVERSE_TAB_PREVIOUS) {
                // Tab walks the nodes, as in GEF's viewers (Ctrl+Tab still leaves the canvas)
                boolean forward = e.detail == SWT.TRAVERSE_TAB_NEXT;
                e.doit = false;
                e.detail = SWT.TRAVERSE_NONE;
                editing.cycle(forward);
            }
        });
        canvas.addKeyListener(new KeyAdapter() {
            @Override
            public void keyPressed(KeyEvent e) {
                boolean ctrl = (e.stateMask & SWT.CTRL) != 0;
                if (ctrl && (e.character == '+' || e.character == '=' || e.keyCode == SWT.KEYPAD_ADD)) zoom(1.25);
                else if (ctrl && (e.character == '-' || e.keyCode == '-' || e.keyCode == SWT.KEYPAD_SUBTRACT)) zoom(0.8);
                else if (ctrl && (e.keyCode == 'f' || e.keyCode == 'F')) showFind();
                else if (ctrl && (e.keyCode == 'g' || e.keyCode == 'G')) groupSelection();
                else if (e.keyCode == SWT.F2) startRename();
                else if (e.stateMask == 0 && e.character == GraphCommands.EXPLICIT_KEY) makeShardingExplicit();
                else if (e.stateMask == 0 && e.character == GraphCommands.INFERRED_KEY) clearShardingToInferred();
                else if (e.keyCode == SWT.ESC && connectMode()) setConnectMode(false);
                else if (direction(e.keyCode) != null && (e.stateMask & (SWT.CTRL | SWT.ALT)) == 0) {
                    editing.navigate(direction(e.keyCode), (e.stateMask & SWT.SHIFT) != 0);
                }
            }
        });
    }

    private static Arrange.Direction direction(int keyCode) {
        return switch (keyCode) {
            case SWT.ARROW_LEFT -> Arrange.Direction.LEFT;
            case SWT.ARROW_RIGHT -> Arrange.Direction.RIGHT;
            case SWT.ARROW_UP -> Arrange.Direction.UP;
            case SWT.ARROW_DOWN -> Arrange.Direction.DOWN;
            default -> null;
        };
    }

    Control getControl() { return control; }

    GraphViewer viewer() { return viewer; }

    FusionCommands commands() { return editor.commands(); }

    void zoom(double factor) { setZoom(viewer.zoom() * factor); }

    void setZoom(double scale) {
        viewer.setScale(scale);
        palette.showZoom(viewer.zoom());
    }

    /** Selects the nodes wholly inside the rectangle (figure coordinates); {@code add} keeps the selection. */
    void selectArea(Rectangle r, boolean add) {
        viewer.selectArea(r, add);
        selectionChanged();
    }

    void selectionChanged() { editor.graphSelectionChanged(); }

    /** Turns Connect on or off: the palette button, a bar over the canvas, a cross cursor. */
    void setConnectMode(boolean on) {
        palette.connectTool.setSelection(on);
        viewer.setConnectSource(null);
        modeBar.setVisible(on);
        ((GridData) modeBar.getLayoutData()).exclude = !on;
        viewer.canvas().setCursor(on ? viewer.canvas().getDisplay().getSystemCursor(SWT.CURSOR_CROSS) : null);
        control.layout(true);
        viewer.updateStates();
    }

    boolean connectMode() { return palette.connectTool.getSelection(); }

    /** Opens the find bar (Ctrl+F) with its text selected, searching again: the graph may have changed. */
    void showFind() {
        findBar.control.setVisible(true);
        ((GridData) findBar.control.getLayoutData()).exclude = false;
        control.layout(true);
        findBar.search();
        // after the palette's tool has given the keyboard back to the graph
        findBar.text.getDisplay().asyncExec(() -> {
            if (findBar.text.isDisposed()) return;
            findBar.text.setFocus();
            findBar.text.selectAll();
        });
    }

    /** Closes the find bar (Esc); the found node stays selected and the keyboard goes back to the graph. */
    void closeFind() {
        findBar.control.setVisible(false);
        ((GridData) findBar.control.getLayoutData()).exclude = true;
        control.layout(true);
        viewer.canvas().setFocus();
    }

    /**
     * A click on the palette's Input tensor: the tensor at a free place in sight, selected, as a dropped one is.
     * Placed by the layout, a tensor without arrows went below the whole graph, out of the view, and a second
     * click seemed to add nothing (issue 35); with no room in the view it still goes there, and is scrolled to.
     */
    void addInputInSight() {
        Point at = viewer.freePlaceInView(NEW_TENSOR_WIDTH, NEW_TENSOR_HEIGHT);
        String made = at == null ? editor.commands().addInputTensor() : editor.commands().addAt(null, List.of(), at.x, at.y);
        if (made == null) return;
        if (at != null) {
            select(List.of(made));
            selectionChanged();
        } else {
            viewer.whenLaidOut(() -> reveal(made));
        }
    }

    /**
     * A click on a palette op: the op on the selected tensors (or new ones), then, once the layout has placed it,
     * selected and scrolled into sight with its output, as a dropped op is selected and a new Input tensor shown.
     * The layout puts it right of and below its operands: with them at the bottom of the view it went out of sight
     * and the person had to scroll to find it (hand drive 17, finding 4).
     */
    void addOpInSight(OpKind kind) {
        String made = editor.commands().addOp(kind, selectedTensors());
        if (made == null) return;
        viewer.whenLaidOut(() -> {
            select(List.of(Layout.opKey(made)));
            selectionChanged();
            showWhole(List.of(Layout.opKey(made), made));
        });
    }

    /** Scrolls the least that shows the nodes of {@code keys} whole (their top left first where the view is small). */
    private void showWhole(List<String> keys) {
        Rectangle all = shownBounds(keys);
        if (all == null) return;
        var canvas = viewer.canvas();
        // the canvas's extent grows with the new nodes only when validated: scrollTo clamps to the extent it knows
        canvas.getLightweightSystem().getUpdateManager().performValidation();
        Point view = canvas.getViewport().getViewLocation();
        var size = canvas.getViewport().getClientArea().getSize();
        int margin = 20;
        int dx = all.right() + margin > size.width ? all.right() + margin - size.width : 0;
        int dy = all.bottom() + margin > size.height ? all.bottom() + margin - size.height : 0;
        dx = Math.min(dx, all.x - margin);   // never past the left (top) of the nodes
        dy = Math.min(dy, all.y - margin);
        if (all.x < 0) dx = all.x - margin;
        if (all.y < 0) dy = all.y - margin;
        if (dx != 0 || dy != 0) canvas.scrollTo(Math.max(0, view.x + dx), Math.max(0, view.y + dy));
    }

    /** Selects one node and scrolls it into the middle of the view. */
    private void reveal(String key) {
        select(List.of(key));
        selectionChanged();
        NodeFigures.Node f = viewer.figure(key);
        if (f == null) return;
        Rectangle r = f.getBounds().getCopy();
        f.translateToAbsolute(r);
        var canvas = viewer.canvas();
        Point view = canvas.getViewport().getViewLocation();
        var size = canvas.getViewport().getClientArea().getSize();
        canvas.scrollTo(Math.max(0, view.x + r.x + r.width / 2 - size.width / 2),
                Math.max(0, view.y + r.y + r.height / 2 - size.height / 2));
    }

    /**
     * The least zoom an editor opens at: a graph that fits only below it (the 200-op example) opens at 100%, where
     * its names can be read, the Outline showing the whole of it.
     */
    static final double MIN_OPENING_ZOOM = 0.5;
    /** Room for a new input tensor's node (its name, dtype and one badge row), where a click places it. */
    private static final int NEW_TENSOR_WIDTH = 160, NEW_TENSOR_HEIGHT = 72;

    /**
     * Once the first layout has arrived and the canvas has its size, zooms to fit when the graph does not fit at
     * 100% (issue 35: at 1280 x 800 tv2 of the seeds was cut at the canvas's edge until Fit was clicked). Only at
     * opening: later edits and layouts keep the zoom the user sees.
     */
    void fitOnOpen() {
        viewer.whenLaidOut(() -> whenSized(() -> {
            double scale = fitScale();
            if (scale < 1 && scale >= MIN_OPENING_ZOOM) fit();
        }));
    }

    /** Runs {@code r} now if the canvas has a size, else once, at its first resize to one. */
    private void whenSized(Runnable r) {
        var canvas = viewer.canvas();
        if (canvas.isDisposed()) return;
        if (!canvas.getClientArea().isEmpty()) {
            r.run();
            return;
        }
        canvas.addListener(SWT.Resize, new Listener() {
            @Override
            public void handleEvent(Event e) {
                if (canvas.getClientArea().isEmpty()) return;
                canvas.removeListener(SWT.Resize, this);
                r.run();
            }
        });
    }

    /**
     * The zoom at which the whole graph fits the canvas, in the area the canvas has less a scroll bar's thickness
     * either way (a bar that shows after the zoom takes that much); 1 for an empty graph.
     */
    private double fitScale() {
        Rectangle all = viewer.contentBounds();
        if (all == null) return 1;
        var canvas = viewer.canvas();
        var client = canvas.getClientArea();
        int width = client.width - (canvas.getVerticalBar().isVisible() ? 0 : canvas.getVerticalBar().getSize().x);
        int height = client.height - (canvas.getHorizontalBar().isVisible() ? 0 : canvas.getHorizontalBar().getSize().y);
        return Math.min((double) width / (all.right() + GraphViewer.MARGIN),
                (double) height / (all.bottom() + GraphViewer.MARGIN));
    }

    /**
     * Zooms so that the whole graph fits the canvas (never above 100%), every node whole: the area counted is the
     * canvas's less a scroll bar's thickness either way, as a bar that shows after the zoom takes that much (issue
     * 35: tv2 was cut at the right edge); then checked on the figures as drawn, and zoomed out again if one is cut.
     */
    void fit() {
        if (viewer.contentBounds() == null) return;
        var canvas = viewer.canvas();
        setZoom(Math.min(1, fitScale()));
        canvas.getLightweightSystem().getUpdateManager().performValidation();
        canvas.scrollTo(0, 0);
        Rectangle shown = viewer.shownContent();
        var client = canvas.getClientArea();
        if (shown != null && (shown.right() > client.width || shown.bottom() > client.height)) {
            double shrink = Math.min((double) client.width / (shown.right() + GraphViewer.MARGIN),
                    (double) client.height / (shown.bottom() + GraphViewer.MARGIN));
            setZoom(viewer.zoom() * shrink);
            canvas.getLightweightSystem().getUpdateManager().performValidation();
            canvas.scrollTo(0, 0);
        }
    }

    /** Shows the banner (the source does not parse: the graph keeps the last valid state) or hides it. */
    void setBanner(String text) {
        boolean show = text != null;
        banner.setText(show ? text : "");
        banner.setVisible(show);
        ((GridData) banner.getLayoutData()).exclude = !show;
        control.layout(true);
    }

    List<String> selectedTensors() {
        return viewer.selection().stream().filter(k -> !k.startsWith(Layout.OP_PREFIX)).toList();
    }

    void select(List<String> keys) {
        viewer.selection().clear();
        for (String k : keys) if (viewer.figure(k) != null) viewer.selection().add(k);
        viewer.updateStates();
        List<String> chosen = List.copyOf(viewer.selection());
        if (chosen.size() == 1) reveal(viewer.figure(chosen.get(0)));
        else if (chosen.size() > 1) revealTogether(chosen);
    }

    /**
     * Several nodes selected from outside the graph (the Outline's tree: a click, then a Ctrl+click) are scrolled
     * into the view together, the least that shows them all, when they fit in it; a selection larger than the view
     * (Select All of a large graph) is left where it is. Issue 35, round 18: the second tensor stayed outside the view
     * and the Outline's overview framed only the first.
     */
    private void revealTogether(List<String> keys) {
        Rectangle all = shownBounds(keys);
        var size = viewer.canvas().getViewport().getClientArea().getSize();
        if (all == null || all.x >= 0 && all.y >= 0 && all.right() <= size.width && all.bottom() <= size.height) return;
        if (all.width + 40 <= size.width && all.height + 40 <= size.height) showWhole(keys);
    }

    /** The nodes' bounds together, in the canvas's coordinates (what the view shows at 0, 0), or null. */
    private Rectangle shownBounds(List<String> keys) {
        Rectangle all = null;
        for (String k : keys) {
            NodeFigures.Node f = viewer.figure(k);
            if (f == null) continue;
            Rectangle r = f.getBounds().getCopy();
            f.translateToAbsolute(r);
            all = all == null ? r : all.union(r);
        }
        return all;
    }

    private void reveal(NodeFigures.Node f) {
        Rectangle r = f.getBounds().getCopy();
        f.translateToAbsolute(r);
        var canvas = viewer.canvas();
        Point view = canvas.getViewport().getViewLocation();
        var size = canvas.getViewport().getClientArea().getSize();
        if (r.x < 0 || r.y < 0 || r.right() > size.width || r.bottom() > size.height) {
            canvas.scrollTo(Math.max(0, view.x + r.x - 40), Math.max(0, view.y + r.y - 40));
        }
    }

    /** Brings the figures up to {@code doc}: only the parts whose element changed redraw. */
    void refresh(FusionDocument doc, List<FusionCheck.Problem> problems, Shardings shardings) {
        finishRename(false);
        viewer.setContents(doc, problems, shardings);
    }

    /** Groups the selected nodes (Ctrl+G): a compound node that a click on its header collapses and expands. */
    void groupSelection() { commands().group(new ArrayList<>(viewer.selection())); }

    void deleteSelection() { commands().delete(new ArrayList<>(viewer.selection())); }

    void toggleOutput() { commands().toggleOutput(selectedTensors()); }

    /** Writes the selected tensors' inferred shardings into the file (one operation). */
    void makeShardingExplicit() { commands().makeShardingExplicit(selectedTensors()); }

    /** Clears the selected tensors' written shardings, so that propagation infers them (one operation). */
    void clearShardingToInferred() { commands().clearShardingToInferred(selectedTensors()); }

    /** Stores dragged positions; a drag that changed nothing puts the figures back where the file has them. */
    void moveNodes(Map<String, Layout.Position> positions) {
        if (!commands().move("Move", positions)) refresh(commands().model(), editor.problems(), editor.shardings());
    }

    /**
     * Lays the graph out again (in the background) and then stores every position in the file's layout section, one
     * operation; the positions are the layout engine's, so the arrows keep its routes.
     */
    void autoLayout() { viewer.autoLayout(positions -> commands().move("Auto layout", positions)); }

    /** In-place rename of the selected tensor (F2, double-click, or the Rename command). */
    void startRename() {
        List<String> tensors = selectedTensors();
        if (tensors.size() != 1 || renameBox != null) return;
        NodeFigures.Node f = viewer.figure(tensors.get(0));
        Rectangle r = f.getBounds().getCopy();
        f.translateToAbsolute(r);
        renameBox = new Text(viewer.canvas(), SWT.BORDER | SWT.SINGLE);
        renameBox.setText(f.key);
        renameBox.setBounds(r.x + 6, r.y + 4, Math.max(100, r.width - 12), 24);
        renameBox.selectAll();
        renameBox.setFocus();
        renameBox.addListener(SWT.DefaultSelection, e -> finishRename(true));
        renameBox.addListener(SWT.FocusOut, e -> finishRename(true));
        renameBox.addListener(SWT.Traverse, e -> {
            if (e.detail == SWT.TRAVERSE_ESCAPE) {
                e.doit = false;
                finishRename(false);
            }
        });
        renameBox.setData("old", f.key);
    }

    void finishRename(boolean commit) {
        Text box = renameBox;
        if (box == null) return;
        renameBox = null;
        String old = (String) box.getData("old");
        String name = box.getText().trim();
        box.dispose();
        if (commit && !name.equals(old)) commands().renameTensor(old, name);
    }
}
