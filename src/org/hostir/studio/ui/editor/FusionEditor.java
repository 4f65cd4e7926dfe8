package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.eclipse.core.commands.operations.IOperationHistory;
import org.eclipse.core.commands.operations.IUndoContext;
import org.eclipse.core.commands.operations.ObjectUndoContext;
import org.eclipse.core.commands.operations.OperationHistoryFactory;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.ILog;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jface.text.DocumentEvent;
import org.eclipse.jface.text.IDocument;
import org.eclipse.jface.text.IDocumentListener;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IActionBars;
import org.eclipse.ui.IEditorInput;
import org.eclipse.ui.IEditorSite;
import org.eclipse.ui.IFileEditorInput;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.actions.ActionFactory;
import org.eclipse.ui.editors.text.TextEditor;
import org.eclipse.ui.operations.UndoRedoActionGroup;
import org.eclipse.ui.part.MultiPageEditorPart;
import org.eclipse.ui.texteditor.ITextEditorActionConstants;
import org.eclipse.ui.views.contentoutline.IContentOutlinePage;
import org.eclipse.ui.views.properties.IPropertySheetPage;
import org.eclipse.ui.views.properties.IPropertySource;
import org.eclipse.ui.views.properties.PropertySheetPage;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ui.FusionElement;
import org.hostir.studio.ui.editor.model.FusionCheck;
import org.hostir.studio.ui.editor.model.FusionEdits;
import org.hostir.studio.ui.editor.model.Layout;

/**
 * The fusion editor: Graph | Source. The source document is the single source of truth on disk (dirty state
 * and save are the text editor's, saved atomically); the graph edits an immutable document, and each edit is
 * one operation in the workbench history that rewrites the source with {@link FusionWriter}. Source edits
 * flow back when the text parses; when it does not, the graph keeps its last valid state under a banner, and
 * the markers say why. Nothing the user typed is ever replaced by the graph unless they edit the graph.
 */
public class FusionEditor extends MultiPageEditorPart {
    public static final String ID = "org.hostir.studio.ui.editor.FusionEditor";
    public static final String MARKER = "org.hostir.studio.problem";
    public static final int GRAPH_PAGE = 0;
    public static final int SOURCE_PAGE = 1;

    private final GraphPage graph = new GraphPage(this);
    private final SelectionProvider selectionProvider = new SelectionProvider(this);
    private final IUndoContext undoContext = new ObjectUndoContext(this, "Fusion graph");
    private TextEditor source;
    private IDocument document;
    private FusionDocument model;
    private List<FusionCheck.Problem> problems = List.of();
    private boolean sourceParses = true;
    private boolean writing;
    private boolean disposed;
    private boolean reparseQueued;
    private String lastError;
    /** While one gesture edits several things (a Properties edit of a multi-selection): the model before it. */
    private FusionDocument compoundBefore;
    private final List<String> compoundLabels = new ArrayList<>();
    private long lastCheckNanos;
    private UndoRedoActionGroup undoRedo;
    private PropertySheetPage propertyPage;
    private FusionOutlinePage outline;
    private final ISelectionListener linkListener = this::selectionFromOtherPart;

    @Override
    public void init(IEditorSite site, IEditorInput input) throws PartInitException {
        super.init(site, input);
        setPartName(input.getName());
        site.setSelectionProvider(selectionProvider);
    }

    @Override
    protected void createPages() {
        try {
            int g = addPage(graph.createControl(getContainer()));
            setPageText(g, "Graph");
            source = new TextEditor() {
                @Override
                protected void initializeEditor() {
                    super.initializeEditor();
                    setDocumentProvider(new AtomicFileDocumentProvider());
                    setSourceViewerConfiguration(new JsonColoring(getPreferenceStore()));
                }
            };
            int s = addPage(source, getEditorInput());
            setPageText(s, "Source");
        } catch (PartInitException e) {
            ILog.of(getClass()).error("could not open the fusion source", e);
            return;
        }
        document = source.getDocumentProvider().getDocument(source.getEditorInput());
        document.addDocumentListener(new IDocumentListener() {
            @Override
            public void documentAboutToBeChanged(DocumentEvent event) {}

            @Override
            public void documentChanged(DocumentEvent event) {
                if (!writing) queueReparse();
            }
        });
        FusionCheck.Result r = FusionCheck.check(document.get(), fileLabel());
        model = r.parses() ? r.document() : FusionEdits.empty(baseName());
        applyCheck(r, !document.get().equals(FusionWriter.write(model)));

        undoRedo = new UndoRedoActionGroup(getSite(), undoContext, true);
        GraphCommands.install(this, selectionProvider);
        getSite().getPage().addPostSelectionListener(linkListener);
        setActivePage(GRAPH_PAGE);
        updateActionBars(GRAPH_PAGE);
    }

    /** Undo/redo of the active page: the graph's operation history, or the text editor's own. */
    private void updateActionBars(int page) {
        IActionBars bars = getEditorSite().getActionBars();
        if (page == GRAPH_PAGE) {
            undoRedo.fillActionBars(bars);
        } else if (source != null) {
            bars.setGlobalActionHandler(ActionFactory.UNDO.getId(), source.getAction(ITextEditorActionConstants.UNDO));
            bars.setGlobalActionHandler(ActionFactory.REDO.getId(), source.getAction(ITextEditorActionConstants.REDO));
        }
        bars.updateActionBars();
    }

    @Override
    protected void pageChange(int newPageIndex) {
        if (newPageIndex == GRAPH_PAGE && reparseQueued) reparse();
        super.pageChange(newPageIndex);
        if (undoRedo != null) updateActionBars(newPageIndex);
        selectionProvider.fire();
    }

    // ------------------------------------------------------------------------------------------ model state

    public FusionDocument model() { return model; }

    public List<FusionCheck.Problem> problems() { return problems; }

    public IUndoContext undoContext() { return undoContext; }

    public String bannerText() { return graph.bannerText(); }

    /** The last refused edit's message (also shown in the status line), or null. */
    public String lastError() { return lastError; }

    /** Nanoseconds the last validation (engine validation and lowering of rank 0) took. */
    public long lastCheckNanos() { return lastCheckNanos; }

    public boolean isDisposed() { return disposed; }

    GraphPage graph() { return graph; }

    boolean graphPageActive() { return getActivePage() == GRAPH_PAGE; }

    /** The graph's node keys: tensor names, and {@code op:<output>} for ops (for tests and tools). */
    public List<String> nodeKeys() { return List.copyOf(graph.figures().keySet()); }

    /** The error decoration (tooltip text) of a node, or null. */
    public String nodeError(String key) { return graph.errorOf(key); }

    /** The dtype and shape line a tensor node shows ({@code float [K, N | outer_split 1 by D, DIDx 1]}), or null. */
    public String nodeShapeText(String key) {
        return graph.figures().get(key) instanceof NodeFigures.TensorNode t ? t.line() : null;
    }

    /** Bounds of a node's figure (x, y, width, height), or null. */
    public int[] nodeBounds(String key) {
        var f = graph.figures().get(key);
        return f == null ? null : new int[] { f.getBounds().x, f.getBounds().y, f.getBounds().width, f.getBounds().height };
    }

    /** Where a node's middle is on {@link #graphCanvas()}, zoom and scrolling applied ({x, y}), or null. */
    public int[] nodeCenter(String key) {
        var f = graph.figures().get(key);
        if (f == null) return null;
        var r = f.getBounds().getCopy();
        f.translateToAbsolute(r);
        return new int[] { r.x + r.width / 2, r.y + r.height / 2 };
    }

    /** The Outline page's canvas (the thumbnail), or null before the Outline asked for it. */
    public org.eclipse.swt.widgets.Control outlineControl() { return outline == null ? null : outline.getControl(); }

    /** The Outline's thumbnail size {width, height}, or null. */
    public int[] outlineThumbnailSize() { return outline == null ? null : outline.thumbnailSize(); }

    /** The Outline's viewport rectangle {x, y, width, height} on {@link #outlineControl()}, or null. */
    public int[] outlineViewportBox() { return outline == null ? null : outline.viewportBox(); }

    /** Where the graph is scrolled to ({x, y} of the view's top left, in canvas pixels). */
    public int[] viewLocation() {
        var p = graph.viewport().getViewLocation();
        return new int[] { p.x, p.y };
    }

    /** The graph's canvas (what a click on a node lands on). */
    public org.eclipse.swt.widgets.Control graphCanvas() { return graph.canvas(); }

    /** The graph page's control: palette, mode bar, banner and canvas. */
    public org.eclipse.swt.widgets.Control graphControl() { return graph.getControl(); }

        public List<String> selectedKeys() { return List.copyOf(graph.selection()); }

    /** The tensors selected in the graph, in selection order: the palette's ops read these. */
    public List<String> selectedTensors() { return graph.selectedTensors(); }

    /** Whether the palette's Connect mode is on (clicks connect a tensor to an op instead of selecting only). */
    public boolean connectMode() { return graph.connectMode(); }

    public void setConnectMode(boolean on) { graph.setConnectMode(on); }

    /** The bar that says Connect mode is on, or null while it is off. */
    public String connectModeText() { return graph.modeText(); }

        public double zoom() { return graph.zoom(); }

    public void setZoom(double scale) { graph.setZoom(scale); }

    /** The zoom level the palette shows. */
    public String zoomText() { return graph.zoomText(); }

    /** Replaces the model (from an operation): rewrites the source, re-validates, redraws. */
    void setModel(FusionDocument doc, boolean writeSource) {
        model = doc;
        String text = FusionWriter.write(doc);
        if (writeSource && document != null && !text.equals(document.get())) {
            writing = true;
            try {
                document.set(text);
            } finally {
                writing = false;
            }
        }
        long t0 = System.nanoTime();
        FusionCheck.Result r = FusionCheck.check(text, fileLabel(), doc);
        long checked = System.nanoTime() - t0;
        applyCheck(r, false);
        lastCheckNanos = checked;
    }

    /**
     * Shows a check's outcome. The banner is for the user's own text that does not parse; a graph-built
     * document the reader refuses (a fusion without an output yet) only gets markers.
     */
    private void applyCheck(FusionCheck.Result r, boolean userText) {
        problems = r.problems();
        sourceParses = r.parses();
        graph.setBanner(sourceParses || !userText ? null : "The source does not parse; the graph shows the last valid state. "
                + (problems.isEmpty() ? "" : "Line " + problems.get(0).line() + ": " + problems.get(0).message()));
        graph.refresh(model, problems);
        ProblemMarkers.update(file(), problems);
        if (propertyPage != null && !propertyPage.getControl().isDisposed()) propertyPage.refresh();
        if (outline != null) outline.refresh();
        selectionProvider.fire();
    }

    private void queueReparse() {
        if (reparseQueued) return;
        reparseQueued = true;
        // typing is not re-validated on every key: once the user pauses
        Display.getCurrent().timerExec(400, () -> {
            if (!disposed && reparseQueued) reparse();
        });
    }

    /** Brings the graph up to the source text (a source-page edit). */
    public void reparse() {
        reparseQueued = false;
        if (document == null) return;
        long t0 = System.nanoTime();
        FusionCheck.Result r = FusionCheck.check(document.get(), fileLabel());
        long checked = System.nanoTime() - t0;
        if (r.parses() && !r.document().equals(model)) {
            model = r.document();
            // graph snapshots taken before a text edit would silently revert it on undo: start afresh
            OperationHistoryFactory.getOperationHistory().dispose(undoContext, true, true, false);
        }
        applyCheck(r, true);
        lastCheckNanos = checked;
    }

    // ------------------------------------------------------------------------------------------------ edits

    /** Applies one edit as one undoable operation; an edit the model refuses changes nothing and says why. */
    public boolean edit(String label, UnaryOperator<FusionDocument> change) {
        FusionDocument before = model, after;
        String text = document == null ? "" : document.get();
        if (!sourceParses && !text.isBlank() && !text.equals(FusionWriter.write(model))) {
            // the graph would overwrite the user's unparsable text: they fix or undo it on the Source page first
            refuse("The source does not parse: fix it on the Source page before editing the graph");
            return false;
        }
        try {
            after = change.apply(before);
        } catch (RuntimeException e) {
            refuse(label + ": " + (e.getMessage() == null ? "not possible here" : e.getMessage()));
            return false;
        }
        if (after == null || after.equals(before)) return false;
        lastError = null;
        clearStatus();
        if (compoundBefore != null) {
            // inside one gesture: collect; compound() makes the one operation when the gesture ends
            model = after;
            compoundLabels.add(label);
            return true;
        }
        try {
            IOperationHistory history = OperationHistoryFactory.getOperationHistory();
            history.execute(new DocumentOperation(label, undoContext, this, before, after), null, null);
        } catch (org.eclipse.core.commands.ExecutionException e) {
            refuse(label + ": " + e.getMessage());
            return false;
        }
        return true;
    }

    /**
     * Runs {@code gesture}, whose edits become ONE undoable operation (GEF's compound command per property-sheet
     * edit): undo restores the model from before the gesture, redo the model after it, whatever the gesture did
     * to how many tensors. The source is rewritten and checked once, at the end.
     */
    public void compound(Runnable gesture) {
        if (compoundBefore != null) {
            gesture.run();
            return;
        }
        FusionDocument before = model;
        compoundBefore = before;
        compoundLabels.clear();
        try {
            gesture.run();
        } finally {
            compoundBefore = null;
        }
        FusionDocument after = model;
        if (after.equals(before)) return;
        model = before;
        List<String> labels = List.copyOf(compoundLabels);
        String label = labels.size() == 1 ? labels.get(0) : labels.size() + " edits (" + String.join(", ", labels) + ")";
        try {
            OperationHistoryFactory.getOperationHistory().execute(
                    new DocumentOperation(label, undoContext, this, before, after), null, null);
        } catch (org.eclipse.core.commands.ExecutionException e) {
            setModel(before, true);
            refuse(label + ": " + e.getMessage());
        }
    }

    void refuse(String message) {
        lastError = message;
        getEditorSite().getActionBars().getStatusLineManager().setErrorMessage(message);
    }

    /** A refusal's red message goes once the next edit succeeds (it never outlives the edit it was about). */
    private void clearStatus() {
        getEditorSite().getActionBars().getStatusLineManager().setErrorMessage(null);
    }

    public String addInputTensor() {
        String name = FusionEdits.freshName(model);
        return edit("Add input " + name, d -> FusionEdits.addInput(d, name)) ? name : null;
    }

    /** Adds an op reading {@code inputs} (in order); returns its output tensor's name. */
    public String addOp(OpKind kind, List<String> inputs) {
        String out = FusionEdits.freshName(model);
        return edit("Add " + kind.fileName(), d -> FusionEdits.addOp(d, kind, inputs, out)) ? out : null;
    }

    /**
     * Adds an op (or, with {@code kind} null, an input tensor) where the palette item was dropped: the op's circle
     * at {@code x, y} (figure pixels, snapped to the grid), its output tensor to the right. One operation.
     */
    public String addAt(OpKind kind, List<String> inputs, int x, int y) {
        String name = FusionEdits.freshName(model);
        int px = GraphGestures.snap(x), py = GraphGestures.snap(y);
        Map<String, Layout.Position> at = kind == null ? Map.of(name, new Layout.Position(px, py))
                : Map.of(Layout.opKey(name), new Layout.Position(px, py), name, new Layout.Position(px + 90, py));
        String label = kind == null ? "Add input " + name : "Add " + kind.fileName();
        boolean done = edit(label, d -> {
            FusionDocument added = kind == null ? FusionEdits.addInput(d, name) : FusionEdits.addOp(d, kind, inputs, name);
            return added.withLayout(Layout.withPositions(added.layout(), at));
        });
        return done ? name : null;
    }

        public boolean connect(String tensor, String opOutput, int slot) {
        return edit("Connect " + tensor, d -> FusionEdits.connect(d, tensor, opOutput, slot));
    }

    public boolean renameTensor(String from, String to) {
        if (!to.matches("[A-Za-z_][A-Za-z0-9_]*") || to.length() > 128) {
            refuse("'" + to + "' is not a tensor name (letters, digits and _, not starting with a digit)");
            return false;
        }
        if (model.tensor(to).isPresent()) {
            refuse("a tensor named '" + to + "' exists already");
            return false;
        }
        return edit("Rename " + from, d -> FusionEdits.renameTensor(d, from, to));
    }

    public boolean setTensor(TensorSpec spec) { return edit("Edit " + spec.name(), d -> FusionEdits.setTensor(d, spec)); }

    public boolean setOp(OpSpec op) { return edit("Edit op " + op.op().fileName(), d -> FusionEdits.setOp(d, op)); }

    public void deleteSelection() {
        List<String> keys = new ArrayList<>(graph.selection());
        if (keys.isEmpty()) return;
        edit("Delete", d -> {
            for (String k : keys) {
                d = k.startsWith(Layout.OP_PREFIX) ? FusionEdits.deleteOp(d, k.substring(Layout.OP_PREFIX.length()))
                        : FusionEdits.deleteTensor(d, k);
            }
            return d;
        });
    }

    void toggleOutput() {
        for (String t : graph.selectedTensors()) {
            boolean on = !model.outputs().contains(t);
            edit(on ? "Mark output" : "Unmark output", d -> FusionEdits.setOutput(d, t, on));
        }
    }

    void moveNodes(Map<String, Layout.Position> positions) {
        if (!edit("Move", d -> d.withLayout(Layout.withPositions(d.layout(), positions)))) graph.refresh(model, problems);
    }

    /** Lays the graph out again and stores every position in the file's layout section (one operation). */
    public void autoLayout() {
        Map<String, Layout.Position> p = graph.autoLayout(model);
        edit("Auto layout", d -> d.withLayout(Layout.withPositions(d.layout(), p)));
    }

    // -------------------------------------------------------------------------------------------- selection

    public void select(List<FusionElement> elements) {
        List<String> keys = new ArrayList<>();
        for (FusionElement e : elements) {
            if (e.isTensor()) keys.add(e.tensor());
            else if (e.op() >= 0 && e.op() < model.ops().size()) keys.add(Layout.opKey(model.ops().get(e.op()).output()));
        }
        graph.select(keys);
        selectionProvider.fire();
    }

    void graphSelectionChanged() { selectionProvider.fire(); }

    /** The graph selection as the shared contract: one FusionElement per selected tensor or op node. */
    public IStructuredSelection graphSelection() {
        List<FusionElement> out = new ArrayList<>();
        String file = workspacePath();
        for (String k : graph.selection()) {
            if (k.startsWith(Layout.OP_PREFIX)) out.add(FusionElement.op(file, FusionEdits.opIndex(model, k.substring(3))));
            else out.add(FusionElement.tensor(file, k));
        }
        // nothing selected: the fusion itself (tensor null, op -1), so the Properties view shows its header
        if (out.isEmpty()) out.add(new FusionElement(file, null, -1));
        return new StructuredSelection(out);
    }

    ISelection activeSelection() {
        if (getActivePage() == SOURCE_PAGE && source != null) return source.getSelectionProvider().getSelection();
        return graphSelection();
    }

    private void selectionFromOtherPart(IWorkbenchPart part, ISelection sel) {
        if (part == this || disposed || !(sel instanceof IStructuredSelection s)) return;
        List<FusionElement> mine = new ArrayList<>();
        for (Object o : s.toList()) {
            if (o instanceof FusionElement e && e.file().equals(workspacePath())) mine.add(e);
        }
        if (!mine.isEmpty()) select(mine);
    }

    public String workspacePath() {
        IFile f = file();
        return f != null ? f.getFullPath().toString() : getEditorInput().getName();
    }

    IFile file() { return getEditorInput() instanceof IFileEditorInput in ? in.getFile() : null; }

    private String fileLabel() { return workspacePath(); }

    private String baseName() {
        String n = getEditorInput().getName();
        return n.endsWith(".fusion") ? n.substring(0, n.length() - 7) : n;
    }

    public IPropertySource propertySource(Object element) { return FusionProperties.sourceFor(this, element); }

    // --------------------------------------------------------------------------------------------- plumbing

    @Override
    public <T> T getAdapter(Class<T> adapter) {
        if (adapter == IPropertySheetPage.class) {
            propertyPage = new PropertySheetPage();
            propertyPage.setRootEntry(new CompoundPropertyEntry(this));
            propertyPage.setPropertySourceProvider(this::propertySource);
            return adapter.cast(propertyPage);
        }
        // the Lowering view lowers the text this editor holds (saved or not), through the source page's document
        if (adapter == org.eclipse.ui.texteditor.ITextEditor.class && source != null) return adapter.cast(source);
                if (adapter == IContentOutlinePage.class) {
            outline = new FusionOutlinePage(graph);
            return adapter.cast(outline);
        }
        return super.getAdapter(adapter);
    }

    @Override
    public void doSave(IProgressMonitor monitor) {
        if (reparseQueued) reparse();
        source.doSave(monitor);
    }

    @Override
    public void doSaveAs() {}

    @Override
    public boolean isSaveAsAllowed() { return false; }

    @Override
    public void setFocus() {
        if (getActivePage() == GRAPH_PAGE) graph.canvas().setFocus();
        else super.setFocus();
    }

    public void showPage(int page) { setActivePage(page); }

    public TextEditor sourceEditor() { return source; }

    public IDocument sourceDocument() { return document; }

    @Override
    public void dispose() {
        disposed = true;
        getSite().getPage().removePostSelectionListener(linkListener);
        OperationHistoryFactory.getOperationHistory().dispose(undoContext, true, true, true);
        super.dispose();
    }
}
