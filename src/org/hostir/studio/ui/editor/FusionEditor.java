package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.commands.operations.OperationHistoryFactory;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IMarker;
import org.eclipse.core.runtime.ILog;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jface.text.BadLocationException;
import org.eclipse.jface.text.DocumentEvent;
import org.eclipse.jface.text.IDocument;
import org.eclipse.jface.text.IDocumentExtension4;
import org.eclipse.jface.text.IDocumentListener;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.widgets.Display;
import org.eclipse.text.undo.DocumentUndoManagerRegistry;
import org.eclipse.text.undo.IDocumentUndoManager;
import org.eclipse.ui.IActionBars;
import org.eclipse.ui.IEditorInput;
import org.eclipse.ui.IEditorSite;
import org.eclipse.ui.IFileEditorInput;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.actions.ActionFactory;
import org.eclipse.ui.ide.IDE;
import org.eclipse.ui.ide.IGotoMarker;
import org.eclipse.ui.operations.RedoActionHandler;
import org.eclipse.ui.operations.UndoActionHandler;
import org.eclipse.ui.operations.UndoRedoActionGroup;
import org.eclipse.ui.part.MultiPageEditorPart;
import org.eclipse.ui.texteditor.ITextEditor;
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
import org.hostir.studio.ui.editor.model.Shardings;
import org.hostir.studio.ui.ViewIds;

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
    private final FusionCommands commands = new FusionCommands(this);
    /** The opening's lowering of every rank, after the first picture (its result comes back as a whole check). */
    private final OpeningCheck lowering = new OpeningCheck(this, graph, r -> applyCheck(r, false, true));
    private SourcePage source;
    private IDocument document;
    private List<FusionCheck.Problem> problems = List.of();
    private Shardings shardings = Shardings.NONE;
    private boolean sourceParses = true;
    private boolean writing;
    private boolean disposed;
    private boolean reparseQueued;
    private long lastCheckNanos;
    private UndoRedoActionGroup undoRedo;
    private GraphCommands graphCommands;
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
            ViewIds.help(getContainer(), ViewIds.HELP_EDITOR);
            int g = addPage(graph.createControl(getContainer()));
            setPageText(g, "Graph");
            source = new SourcePage();   // its document now, its widgets when the page is first shown
            source.checkBeforeQuickAssist(() -> { if (reparseQueued) reparse(); });
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
        // the graph first: the loaded fusion is shown and laid out (in the background); every rank is lowered once
        // it is drawn, off the UI thread (issue 35: a 1,000-op fusion's first picture does not wait for the lowering)
        FusionCheck.Loaded loaded = FusionCheck.load(document.get(), fileLabel(), null);
        FusionCheck.Result r = loaded.result();
        commands.setModel(r.parses() ? r.document() : FusionEdits.empty(baseName()));
        // the user's own text matters only for the banner of text that does not parse: a text that parses is not
        // written again to be compared (a second print of a 1,000-op fusion, a tenth of its opening, issue 35)
        boolean userText = !r.parses() && !document.get().equals(FusionWriter.write(commands.model()));
        if (loaded.lowerable()) {
            applyCheck(r, userText, false);   // the markers wait for the whole check: none removed to come back
            lowering.lowerOnceDrawn(loaded);
        } else {
            applyCheck(r, userText);
        }

        undoRedo = new UndoRedoActionGroup(getSite(), commands.undoContext(), true);
        graphCommands = GraphCommands.install(this, selectionProvider);
        getSite().getPage().addPostSelectionListener(linkListener);
        setActivePage(GRAPH_PAGE);
        updateActionBars(GRAPH_PAGE);
        graph.fitOnOpen();
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
        if (newPageIndex == SOURCE_PAGE && source != null) source.make(true);
        super.pageChange(newPageIndex);
        if (undoRedo != null) updateActionBars(newPageIndex);
        if (graphCommands != null) graphCommands.setGraphPageActive(newPageIndex == GRAPH_PAGE);
        fireSelection();
    }

    // ------------------------------------------------------------------------------------------ model state

    public FusionDocument model() { return commands.model(); }

    /** The edit domain: every edit of the graph and the properties goes through it. */
    public FusionCommands commands() { return commands; }

    public List<FusionCheck.Problem> problems() { return problems; }

    /**
     * The shardings after nvFuser's propagation of the document shown (issue 34), recomputed with every check, so
     * an edit of an input's sharding updates the inferred ones at once; none while the document does not load, the
     * last ones while it does not parse (a graph-built fusion without an output yet).
     */
    public Shardings shardings() { return shardings; }

    /** Nanoseconds the last validation (engine validation and lowering of rank 0) took. */
    public long lastCheckNanos() { return lastCheckNanos; }

    public boolean isDisposed() { return disposed; }

    /**
     * Whether the opening's lowering of every rank (after the graph's first picture, in the background) has not
     * come back yet: until then {@link #problems()} holds what loading found, without the lowering's refusals.
     */
    public boolean checkPending() { return lowering.pending(); }

    GraphPage graph() { return graph; }

    boolean graphPageActive() { return getActivePage() == GRAPH_PAGE; }

    /** The Source page's text editor while it is the page in front (its status line fields), else null. */
    ITextEditor sourceInFront() { return getActivePage() == SOURCE_PAGE ? source : null; }

    /** A source document's modification stamp that is none. */
    static final long NO_STAMP = IDocumentExtension4.UNKNOWN_MODIFICATION_STAMP;

    /** The source document's modification stamp (the save point is one: the document provider's dirty state). */
    long sourceStamp() { return document instanceof IDocumentExtension4 d ? d.getModificationStamp() : NO_STAMP; }

    /** Replaces the model (from an operation): rewrites the source, re-validates, redraws what changed. */
    void show(FusionDocument doc, boolean writeSource) {
        show(doc, writeSource, NO_STAMP);
    }

    /** As {@link #show(FusionDocument, boolean)}, the source getting back {@code stamp} (an undo or redo). */
    void show(FusionDocument doc, long stamp) {
        show(doc, true, stamp);
    }

    private void show(FusionDocument doc, boolean writeSource, long stamp) {
        commands.setModel(doc);
        String text = FusionWriter.write(doc);
        boolean restamp = stamp != NO_STAMP && stamp != sourceStamp();
        if (writeSource && document != null && (restamp || !text.equals(document.get()))) {
            writing = true;
            try {
                rewrite(text, restamp ? stamp : NO_STAMP);
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
     * Replaces the stretches of the source that differ from {@code text}, so that the Source page's caret and view
     * stay ({@link ChangedRegion}), as one change of the text's own undo history; with a {@code stamp}, the document
     * gets it back (an undo or redo to the save point).
     */
    private void rewrite(String text, long stamp) {
        List<ChangedRegion> changes = ChangedRegion.between(document.get(), text);
        IDocumentUndoManager undo = DocumentUndoManagerRegistry.getDocumentUndoManager(document);
        if (undo != null) undo.beginCompoundChange();
        try {
            if (changes.isEmpty() && stamp != NO_STAMP && document instanceof IDocumentExtension4 d) d.set(text, stamp);
            for (int k = changes.size() - 1; k >= 0; k--) {   // last first: the earlier offsets stay valid
                ChangedRegion c = changes.get(k);
                if (k == 0 && stamp != NO_STAMP && document instanceof IDocumentExtension4 d) {
                    d.replace(c.offset(), c.length(), c.text(), stamp);
                } else {
                    document.replace(c.offset(), c.length(), c.text());
                }
            }
        } catch (BadLocationException e) {
            throw new IllegalStateException("a changed stretch lies outside the text it was found in", e);
        } finally {
            if (undo != null) undo.endCompoundChange();
        }
    }

    /**
     * Shows a check's outcome. The banner is for the user's own text that does not parse; a graph-built
     * document the reader refuses (a fusion without an output yet) only gets markers.
     */
    private void applyCheck(FusionCheck.Result r, boolean userText) {
        lowering.cancel();   // a check of the text shown now: an opening's lowering still under way is stale
        applyCheck(r, userText, true);
    }

    /** As {@link #applyCheck(FusionCheck.Result, boolean)}; {@code markers}: whether the Problems view follows. */
    private void applyCheck(FusionCheck.Result r, boolean userText, boolean markers) {
        problems = r.problems();
        sourceParses = r.parses();
        if (r.parses()) shardings = r.shardings();   // else the graph keeps its last valid state, shardings too
        graph.setBanner(sourceParses || !userText ? null : "The source does not parse; the graph shows the last valid state. "
                + (problems.isEmpty() ? "" : "Line " + problems.get(0).line() + ": " + problems.get(0).message()));
        graph.refresh(commands.model(), problems, shardings);
        if (markers) ProblemMarkers.update(file(), problems, commands.model());
        // a refusal such as "the source does not parse" stays red in the status line only while it applies
        if (sourceParses) commands.clearRefusal();
        if (propertyPage != null && !propertyPage.getControl().isDisposed()) propertyPage.refresh();
        if (outline != null) outline.refresh();
        fireSelection();
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
        if (r.parses() && !r.document().equals(commands.model())) {
            commands.setModel(r.document());
            // graph snapshots taken before a text edit would silently revert it on undo: start afresh
            OperationHistoryFactory.getOperationHistory().dispose(commands.undoContext(), true, true, false);
        }
        applyCheck(r, true);
        lastCheckNanos = checked;
    }

    // ------------------------------------------------------------------------------------------------ edits

    /** Whether a graph edit would overwrite the user's unparsable text (they fix or undo it on the Source page). */
    boolean sourceWouldBeLost() {
        String text = document == null ? "" : document.get();
        return !sourceParses && !text.isBlank() && !text.equals(FusionWriter.write(commands.model()));
    }

    /** The status line's red message (a refused edit's), or none. */
    void status(String error) { getEditorSite().getActionBars().getStatusLineManager().setErrorMessage(error); }

    /** Lays the graph out again and stores every position in the file's layout section (one operation). */
    public void autoLayout() { graph.autoLayout(); }

    // -------------------------------------------------------------------------------------------- selection

    public void select(List<FusionElement> elements) {
        List<String> keys = new ArrayList<>();
        for (FusionElement e : elements) {
            if (e.isTensor()) keys.add(e.tensor());
            else if (e.op() >= 0 && e.op() < model().ops().size()) keys.add(Layout.opKey(model().ops().get(e.op()).output()));
        }
        graph.select(keys);
        fireSelection();
    }

    void graphSelectionChanged() { fireSelection(); }

    /** The graph's selected node keys, in selection order. */
    List<String> selectedKeys() { return List.copyOf(graph.viewer().selection()); }

    /**
     * Selects those of {@code keys} the graph shows (an undo or redo putting back the selection of its time) and
     * tells the Properties view directly: the workbench passes it only the active part's selections, and Ctrl+Z may
     * be pressed in the sheet itself.
     */
    void restoreSelection(List<String> keys) {
        graph.select(keys);
        fireSelection();
        if (getSite().getPage().findView(org.eclipse.ui.IPageLayout.ID_PROP_SHEET)
                instanceof org.eclipse.ui.views.properties.PropertySheet sheet) {
            sheet.selectionChanged(this, selectionProvider.getSelection());
        }
    }

    /** Tells the site's listeners and the Outline's tree what the graph selects now. */
    void fireSelection() {
        selectionProvider.fire();
        if (outline != null && graphPageActive()) outline.showSelection(graphSelection());
    }

    /** The graph selection as the shared contract: one FusionElement per selected tensor or op node. */
    IStructuredSelection graphSelection() {
        List<FusionElement> out = new ArrayList<>();
        String file = workspacePath();
        for (String k : graph.viewer().selection()) {
            if (k.startsWith(Layout.OP_PREFIX)) out.add(FusionElement.op(file, FusionEdits.opIndex(model(), k.substring(3))));
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

    public IPropertySource propertySource(Object element) { return FusionProperties.sourceFor(commands, element); }

    // --------------------------------------------------------------------------------------------- plumbing

    @Override
    public <T> T getAdapter(Class<T> adapter) {
        if (adapter == IPropertySheetPage.class) {
            propertyPage = new PropertySheetPage() {
                /**
                 * The editor's Undo and Redo while Properties has the focus (GEF's UndoablePropertySheetPage): an
                 * edit made there is undone there with Ctrl+Z, and Edit > Undo names it.
                 */
                @Override
                public void setActionBars(IActionBars bars) {
                    super.setActionBars(bars);
                    bars.setGlobalActionHandler(ActionFactory.UNDO.getId(), new UndoActionHandler(FusionEditor.this.getSite(), commands.undoContext()));
                    bars.setGlobalActionHandler(ActionFactory.REDO.getId(), new RedoActionHandler(FusionEditor.this.getSite(), commands.undoContext()));
                }
            };
            propertyPage.setRootEntry(new CompoundPropertyEntry(this));
            propertyPage.setPropertySourceProvider(this::propertySource);
            return adapter.cast(propertyPage);
        }
        // the Lowering view lowers the text this editor holds (saved or not), through the source page's document
        if (adapter == ITextEditor.class && source != null) return adapter.cast(source);
        if (adapter == IContentOutlinePage.class) {
            outline = new FusionOutlinePage(this, graph.viewer());
            return adapter.cast(outline);
        }
        // a double-click in the Problems view: the node on the graph, the line on the Source page
        if (adapter == IGotoMarker.class) return adapter.cast((IGotoMarker) this::gotoMarker);
        // GEF's editors answer their GraphicalViewer: what the graph shows, node by node
        if (adapter == GraphViewer.class) return adapter.cast(graph.viewer());
        return super.getAdapter(adapter);
    }

    /**
     * Goes to a problem: its nodes become the graph's selection (Properties and the Lowering view follow) and the
     * Source page's caret goes to its line. The Graph page stays in front when the problem names a node; a problem
     * about no node (a syntax error), or one opened from the Source page, shows its line there.
     */
    public void gotoMarker(IMarker marker) {
        String nodes = marker.getAttribute(ProblemMarkers.NODES, "");
        List<String> keys = nodes.isEmpty() ? List.of() : List.of(nodes.split(","));
        if (!keys.isEmpty()) {
            graph.select(keys);
            fireSelection();
        }
        if (source == null) return;
        if (keys.isEmpty() || getActivePage() == SOURCE_PAGE) setActivePage(SOURCE_PAGE);
        source.make(false);   // the caret goes to the line even while the Graph page stays in front
        IDE.gotoMarker(source, marker);
    }

    @Override
    public void doSave(IProgressMonitor monitor) {
        if (reparseQueued) reparse();
        source.doSave(monitor);
    }

    /**
     * Save As...: the Source page's (the text editor's SaveAsDialog: a new workspace file, its document saved there),
     * then this editor shows the new file, as a text editor does (hand drive 17, finding 15: the item was grey).
     */
    @Override
    public void doSaveAs() {
        if (source == null) return;
        if (reparseQueued) reparse();
        source.doSaveAs();
        IEditorInput now = source.getEditorInput();
        if (now == null || now.equals(getEditorInput())) return;   // cancelled, or saved onto itself
        setInputWithNotify(now);
        setPartName(now.getName());
    }

    @Override
    public boolean isSaveAsAllowed() { return source != null; }

    @Override
    public void setFocus() {
        if (getActivePage() == GRAPH_PAGE) graph.viewer().canvas().setFocus();
        else super.setFocus();
    }

    @Override
    public void dispose() {
        // closed with unsaved changes (Don't Save): the markers go back to what the saved file says
        if (isDirty()) ProblemMarkers.updateFromSaved(file(), fileLabel());
        disposed = true;
        lowering.cancel();
        getSite().getPage().removePostSelectionListener(linkListener);
        OperationHistoryFactory.getOperationHistory().dispose(commands.undoContext(), true, true, true);
        super.dispose();
    }
}
