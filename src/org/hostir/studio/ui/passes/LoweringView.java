package org.hostir.studio.ui.passes;

import java.util.List;

import org.eclipse.compare.CompareConfiguration;
import org.eclipse.compare.INavigatable;
import org.eclipse.compare.contentmergeviewer.TextMergeViewer;
import org.eclipse.core.commands.Command;
import org.eclipse.core.commands.State;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResourceChangeEvent;
import org.eclipse.core.resources.IResourceChangeListener;
import org.eclipse.core.resources.IResourceDelta;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.Path;
import org.eclipse.jface.text.DocumentEvent;
import org.eclipse.jface.text.IDocument;
import org.eclipse.jface.text.IDocumentListener;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.IPartListener2;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.IWorkbenchPartReference;
import org.eclipse.ui.commands.ICommandService;
import org.eclipse.ui.contexts.IContextService;
import org.eclipse.ui.handlers.RegistryToggleState;
import org.eclipse.ui.part.ViewPart;
import org.eclipse.ui.texteditor.ITextEditor;
import org.hostir.studio.diff.DiffKind;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.lower.Snapshot;
import org.hostir.studio.lower.StreamParallelTypePass;
import org.hostir.studio.ui.FusionElement;
import org.hostir.studio.ui.HostIrNodeElement;
import org.hostir.studio.ui.LoweringShown;
import org.hostir.studio.ui.SelectionRelay;
import org.hostir.studio.ui.ViewIds;
import org.hostir.studio.ui.passes.model.PassEntry;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.passes.model.Provenance;
import org.hostir.studio.ui.passes.model.SnapshotExport;

/**
 * The lowering view (pass inspector). It follows the active fusion editor (any editor on a {@code *.fusion} file)
 * or a file chosen in the view, lowers it in a cancellable Job for every rank, and shows per rank the passes, and
 * for the selected pass the Host IR before/after as a tree diff and a side-by-side text diff. Selecting a node
 * publishes the {@link FusionElement} it came from; a FusionElement selected elsewhere reveals its nodes, and a
 * {@link HostIrNodeElement} selected in the timeline view (a bar's node) selects that node in its rank's final
 * program. Both arrive through the workbench selection service; the view answers a {@link LoweringShown} as an
 * adapter.
 */
public class LoweringView extends ViewPart {
    public static final String ID = ViewIds.LOWERING;
    public static final String CONTEXT_ID = "org.hostir.studio.ui.passes.context";
    public static final String HIDE_UNCHANGED_COMMAND = "org.hostir.studio.ui.passes.hideUnchanged";
    /** Family of the lowering jobs, so that tests and callers can join them. */
    public static final Object JOB_FAMILY = LoweringView.class;
    /** How long the editor's text must rest before it is lowered again. */
    public static final int LIVE_DELAY_MS = 300;

    private LoweringControls controls;
    private Text message;
    private PassTable passes;
    private TreeViewer tree;
    private TextMergeViewer text;
    private CompareConfiguration compareConfig;
    private final SelectionRelay relay = new SelectionRelay();

    private IFile file;
    private LoweringResult result;
    private boolean hideUnchanged;
    /** What the tree and text diff show now (result, pass, rank), so that re-showing it costs nothing. */
    private ShownPass shownPass;

    private record ShownPass(LoweringResult result, int index, int rank) {
        boolean same(ShownPass o) { return o != null && o.result == result && o.index == index && o.rank == rank; }
    }

    private final org.eclipse.jface.util.IPropertyChangeListener themeListener = e -> {
        // after the theme's CSS and preferences have been applied to the widgets
        if (text != null) text.getControl().getDisplay().asyncExec(this::applyDiffColors);
    };
    private LoweringJob job;
    private int generation;
    /** Set while revealing an incoming selection, so that the tree does not publish it back. */
    private boolean revealing;
    /** A node selected elsewhere in a file this view was still lowering; revealed when its lowering arrives. */
    private HostIrNodeElement pendingNode;

    /** The followed editor and its document: the view lowers what the editor holds, saved or not. */
    private IEditorPart liveEditor;
    private IDocument liveDocument;
    /** Whether what is shown was lowered from editor text that differs from the file (unsaved). */
    private boolean shownUnsaved;
    private final Runnable liveRelower = () -> { if (!passes.control().isDisposed()) relower(); };
    private final IDocumentListener liveListener = new IDocumentListener() {
        @Override
        public void documentAboutToBeChanged(DocumentEvent event) {}

        @Override
        public void documentChanged(DocumentEvent event) {
            // typing and graph edits are lowered once the user pauses, not on every key
            passes.control().getDisplay().timerExec(LIVE_DELAY_MS, liveRelower);
        }
    };

    private final IPartListener2 editorFollower = new IPartListener2() {
        @Override
        public void partActivated(IWorkbenchPartReference ref) { follow(ref.getPart(false)); }

        @Override
        public void partInputChanged(IWorkbenchPartReference ref) { follow(ref.getPart(false)); }

        @Override
        public void partClosed(IWorkbenchPartReference ref) {
            if (ref.getPart(false) == liveEditor) {
                detachEditor();
                relower();
            }
        }
    };
    private final ISelectionListener elementFollower = this::selectionChanged;
    private final ISelectionListener nodeFollower = this::timelineSelectionChanged;
    private final IResourceChangeListener saves = this::resourceChanged;

    @Override
    public void createPartControl(Composite parent) {
        Composite root = new Composite(parent, SWT.NONE);
        GridLayout layout = new GridLayout(1, false);
        layout.marginWidth = 0;
        layout.marginHeight = 0;
        root.setLayout(layout);
        controls = new LoweringControls(root, this::relower, this::showPasses, this::chooseFile);
        controls.root.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        message = new Text(root, SWT.MULTI | SWT.READ_ONLY | SWT.WRAP | SWT.V_SCROLL);
        message.setForeground(Colors.get(Colors.ERROR_TEXT, parent.getDisplay(), SWT.COLOR_DARK_RED));
        GridData md = new GridData(SWT.FILL, SWT.TOP, true, false);
        md.heightHint = 60;
        md.exclude = true;
        message.setLayoutData(md);
        message.setVisible(false);

        SashForm main = new SashForm(root, SWT.HORIZONTAL);
        main.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        passes = new PassTable(main, this::showSelectedPass);
        SashForm right = new SashForm(main, SWT.VERTICAL);
        tree = PassTree.create(right);
        tree.addSelectionChangedListener(e -> nodeSelected());
        compareConfig = new CompareConfiguration();
        compareConfig.setLeftEditable(false);
        compareConfig.setRightEditable(false);
        // before on the left, after on the right, as a diff reads, whatever the user's swap preference says: the
        // viewer picks its (mirrored or plain) content provider when it is built, so this goes first
        compareConfig.setProperty(CompareConfiguration.MIRRORED, Boolean.FALSE);
        text = new TextMergeViewer(right, SWT.NONE, compareConfig);
        applyDiffColors();
        org.eclipse.ui.PlatformUI.getWorkbench().getThemeManager().addPropertyChangeListener(themeListener);
        right.setWeights(45, 55);
        main.setWeights(22, 78);
        main.addListener(SWT.Resize, e -> fit(main, right));

        State state = toggleState();
        hideUnchanged = state != null && Boolean.TRUE.equals(state.getValue());
        getSite().setSelectionProvider(relay);
        getSite().getService(IContextService.class).activateContext(CONTEXT_ID);
        IWorkbenchPage page = getSite().getPage();
        page.addPartListener(editorFollower);
        page.addPostSelectionListener(elementFollower);
        page.addPostSelectionListener(ViewIds.TIMELINE, nodeFollower);
        ResourcesPlugin.getWorkspace().addResourceChangeListener(saves, IResourceChangeEvent.POST_CHANGE);
        follow(page.getActiveEditor());
    }

    /**
     * The text diff in the colours of the tree beside it, which the theme styles: the compare viewer takes its
     * colours from the text editors' preferences, which a switch from the dark theme back to the light one leaves
     * dark (black panes on a light workbench).
     */
    private void applyDiffColors() {
        if (text == null || text.getControl().isDisposed()) return;
        text.setBackgroundColor(tree.getControl().getBackground().getRGB());
        text.setForegroundColor(tree.getControl().getForeground().getRGB());
    }

    /**
     * Fits the lists to the view's shape: the pass list as wide as its names (up to a third, less the compare
     * viewer's middle), and the tree beside the side-by-side text diff only when the view is so wide that each
     * of the diff's panes still gets a third of the view's width (issue 18, Deliver 4); otherwise the tree goes
     * above the diff, which then has the whole width right of the pass list.
     */
    private void fit(SashForm main, SashForm right) {
        var size = main.getSize();
        if (size.x < 50 || size.y < 20) return;
        int passWidth = Math.min(size.x / 3 - DIFF_MIDDLE, Math.max(passes.preferredWidth(), size.x / 8));
        int percent = Math.max(5, passWidth * 100 / size.x);
        main.setWeights(percent, 100 - percent);
        int rest = size.x - passWidth;
        int diff = 2 * size.x / 3 + DIFF_MIDDLE;   // two panes of a third each, and the viewer's middle ruler
        boolean wide = rest - diff >= MIN_TREE_WIDTH && rest > 2 * size.y;
        int orientation = wide ? SWT.HORIZONTAL : SWT.VERTICAL;
        if (right.getOrientation() != orientation) {
            right.setOrientation(orientation);
            if (!wide) right.setWeights(45, 55);
        }
        if (wide) right.setWeights(rest - diff, diff);
    }

    /**
     * What the compare viewer and the sash take besides the two panes, in pixels: the ruler between the panes,
     * the overview ruler at the right, borders (about 70 measured at 1280 x 800), and a margin.
     */
    private static final int DIFF_MIDDLE = 88;
    /** The narrowest the tree goes beside the diff. */
    private static final int MIN_TREE_WIDTH = 240;

    // ---- following editors, files and selections ----

    private void follow(IWorkbenchPart part) {
        if (part instanceof IEditorPart editor) {
            IFile f = editor.getEditorInput().getAdapter(IFile.class);
            if (f == null || !"fusion".equals(f.getFileExtension())) return;
            boolean newEditor = editor != liveEditor;
            if (newEditor) attachEditor(editor);
            if (!f.equals(file)) setFile(f);
            else if (newEditor) relower();
        }
    }

    /** Listens to the editor's document (a text editor's, or the one a fusion editor adapts to). */
    private void attachEditor(IEditorPart editor) {
        detachEditor();
        ITextEditor text = editor instanceof ITextEditor t ? t : editor.getAdapter(ITextEditor.class);
        IDocument doc = text == null || text.getDocumentProvider() == null ? null
                : text.getDocumentProvider().getDocument(text.getEditorInput());
        if (doc == null) return;
        liveEditor = editor;
        liveDocument = doc;
        doc.addDocumentListener(liveListener);
    }

    private void detachEditor() {
        if (liveDocument != null) liveDocument.removeDocumentListener(liveListener);
        liveDocument = null;
        liveEditor = null;
    }

    /** Whether the lowering shown is of the editor's unsaved text (the view says so beside the file name). */
    public boolean showsUnsaved() { return shownUnsaved; }

    /** Shows the lowering of a workspace fusion file (re-lowered in a Job). */
    public void setFile(IFile f) {
        file = f;
        if (liveEditor != null && !f.equals(liveEditor.getEditorInput().getAdapter(IFile.class))) detachEditor();
        controls.file.setText(f.getFullPath().toString());
        controls.root.layout(true, true);
        setContentDescription("");
        relower();
    }

    public IFile file() { return file; }

    private void chooseFile() {
        var dialog = new org.eclipse.ui.dialogs.FilteredResourcesSelectionDialog(getSite().getShell(), false,
                ResourcesPlugin.getWorkspace().getRoot(), org.eclipse.core.resources.IResource.FILE);
        dialog.setTitle("Choose a fusion file");
        dialog.setInitialPattern("*.fusion");
        if (dialog.open() == 0 && dialog.getFirstResult() instanceof IFile f) setFile(f);
    }

    private void resourceChanged(IResourceChangeEvent event) {
        IFile f = file;
        if (f == null || event.getDelta() == null) return;
        IResourceDelta d = event.getDelta().findMember(f.getFullPath());
        if (d != null && (d.getFlags() & IResourceDelta.CONTENT) != 0) {
            Display.getDefault().asyncExec(() -> { if (!passes.control().isDisposed()) relower(); });
        }
    }

    private void selectionChanged(IWorkbenchPart part, ISelection selection) {
        if (part == this || !(selection instanceof IStructuredSelection s)
                || !(s.getFirstElement() instanceof FusionElement element)) return;
        reveal(element);
    }

    /** The timeline's selection, followed whether or not the timeline is the active part. */
    private void timelineSelectionChanged(IWorkbenchPart part, ISelection selection) {
        if (selection instanceof IStructuredSelection s && s.getFirstElement() instanceof HostIrNodeElement node) {
            reveal(node);
        }
    }

    // ---- lowering ----

    /** Lowers the current file again with the options in the view, cancelling a lowering still running. */
    public void relower() {
        if (file == null) return;
        if (job != null) job.cancel();
        int devices = controls.devices.getSelection();
        LoweringOptions options;
        try {
            options = LoweringResult.options(controls.options());
        } catch (LoweringException e) {
            show(new LoweringResult.Failed(file.getFullPath().toString(),
                    e.errors().stream().map(err -> err.format()).toList()));
            return;
        }
        IFile f = file;
        int mine = ++generation;
        Display display = passes.control().getDisplay();
        String text = liveDocument == null ? null : liveDocument.get();
        boolean unsaved = text != null && liveEditor.isDirty();
        job = new LoweringJob(f, text, devices, options, display, r -> {
            if (mine == generation && !passes.control().isDisposed()) {
                shownUnsaved = unsaved;
                controls.file.setText(f.getFullPath() + (unsaved ? "  (unsaved editor contents)" : ""));
                show(r);
            }
        });
        job.setUser(false);
        job.schedule();
    }

    private void show(LoweringResult r) {
        result = r;
        GridData md = (GridData) message.getLayoutData();
        switch (r) {
            case LoweringResult.Failed(String f, List<String> diagnostics) -> {
                message.setText("Lowering failed:\n" + String.join("\n", diagnostics));
                md.exclude = false;
                message.setVisible(true);
                controls.setRanks(controls.devices.getSelection());
            }
            case LoweringResult.Incomplete(String f, String hint) -> {
                message.setText(hint);
                md.exclude = false;
                message.setVisible(true);
                controls.setRanks(controls.devices.getSelection());
            }
            case LoweringResult.Lowered l -> {
                md.exclude = true;
                message.setVisible(false);
                controls.setRanks(l.trace().devices());
            }
        }
        message.setForeground(r instanceof LoweringResult.Failed
                ? Colors.get(Colors.ERROR_TEXT, message.getDisplay(), SWT.COLOR_DARK_RED) : null);
        message.getParent().layout(true, true);
        showPasses();
        HostIrNodeElement pending = pendingNode;
        pendingNode = null;
        if (pending != null && pending.file().equals(r.file())) revealNode(pending.rank(), pending.nodeId());
    }

    /** Re-shows the pass list for the selected rank, filter and "hide unchanged" state, keeping the selection. */
    private void showPasses() {
        if (passes.show(visibleEntries()) == null) showSelectedPass();
    }

    /** The pass entries the list shows now. */
    public List<PassEntry> visibleEntries() {
        if (!(result instanceof LoweringResult.Lowered l)) return List.of();
        return PassEntry.visible(rankTrace(l), controls.filter.getText(), hideUnchanged);
    }

    private PassTrace.RankTrace rankTrace(LoweringResult.Lowered l) {
        return l.trace().rank(Math.min(controls.selectedRank(), l.trace().devices() - 1));
    }

    private void showSelectedPass() {
        PassEntry e = passes.selected();
        if (!(result instanceof LoweringResult.Lowered l) || e == null) {
            shownPass = null;
            tree.setInput(List.of());
            // no stale BEFORE/AFTER headers or "X changed the program" over an empty list
            compareConfig.setLeftLabel("");
            compareConfig.setRightLabel("");
            text.setInput(null);
            String filterText = controls.filter.getText();
            setContentDescription(result instanceof LoweringResult.Lowered && !filterText.isEmpty()
                    && visibleEntries().isEmpty() ? "No pass matches \u201c" + filterText + "\u201d" : "");
            return;
        }
        ShownPass key = new ShownPass(l, e.index(), rankTrace(l).rank());
        if (key.same(shownPass)) return;   // the same pass again (a filter key that kept it): nothing to redo
        shownPass = key;
        PassTrace.RankTrace rank = rankTrace(l);
        Snapshot before = rank.before(e.index());
        Snapshot after = e.step().after();
        tree.setInput(PassRow.of(before, after));
        tree.expandAll();
        String prev = e.index() == 0 ? "input" : rank.steps().get(e.index() - 1).pass();
        compareConfig.setLeftLabel("BEFORE " + e.step().pass() + " (after " + prev + "), rank " + rank.rank());
        compareConfig.setRightLabel("AFTER " + e.step().pass() + ", rank " + rank.rank());
        text.setInput(new org.eclipse.compare.structuremergeviewer.DiffNode(
                new TextInput("before", before.print()), new TextInput("after", after.print())));
        setContentDescription(file == null ? "" : file.getName() + ", rank " + rank.rank() + ": " + e.step().pass()
                + (e.step().changed() ? " changed the program" : " changed nothing"));
    }

    // ---- provenance ----

    private void nodeSelected() {
        if (revealing) return;
        FusionElement element = null;
        if (result instanceof LoweringResult.Lowered l && tree.getStructuredSelection().getFirstElement()
                instanceof PassRow row && currentProgram() instanceof HostIrContainer program) {
            element = new Provenance(l.file(), l.loaded().document(), rankTrace(l)).elementOf(program, row);
        }
        relay.setSelection(element == null ? StructuredSelection.EMPTY : new StructuredSelection(element));
    }

    /** The Host IR program after the selected pass; null while it is still a fusion. */
    private HostIrContainer currentProgram() {
        PassEntry e = passes.selected();
        return e != null && e.step().after() instanceof Snapshot.OfHost(HostIrContainer c, _) ? c : null;
    }

    /** Selects the nodes that came from a fusion element (in the final program when this pass has no Host IR). */
    public void reveal(FusionElement element) {
        if (!(result instanceof LoweringResult.Lowered l) || !l.file().equals(element.file())) return;
        if (currentProgram() == null) selectLastPass();
        HostIrContainer program = currentProgram();
        if (program == null) return;
        Provenance provenance = new Provenance(l.file(), l.loaded().document(), rankTrace(l));
        List<PassRow> rows = treeRows();
        List<PassRow> hits = rows.stream().filter(r -> provenance.matches(program, r, element)).toList();
        revealing = true;
        try {
            tree.setSelection(new StructuredSelection(hits), true);
        } finally {
            revealing = false;
        }
    }

    /**
     * Shows the node's rank's final program and selects the node; a node of another workspace file switches to
     * that file first and selects the node once the file is lowered.
     */
    public void reveal(HostIrNodeElement node) {
        String current = file == null ? null : file.getFullPath().toString();
        if (node.file() != null && !node.file().equals(current)) {
            IFile other = ResourcesPlugin.getWorkspace().getRoot().getFile(
                    Path.fromPortableString(node.file()));
            if (!other.exists()) return;
            pendingNode = node;
            setFile(other);
            return;
        }
        revealNode(node.rank(), node.nodeId());
    }

    /** Shows rank {@code rank}'s final program and selects node {@code nodeId}. */
    private void revealNode(int rank, int nodeId) {
        if (!(result instanceof LoweringResult.Lowered l) || rank >= l.trace().devices()) return;
        controls.rank.select(rank);
        showPasses();
        selectLastPass();
        treeRows().stream().filter(r -> r.node() != null && r.node().id() == nodeId).findFirst()
                .ifPresent(r -> tree.setSelection(new StructuredSelection(r), true));
    }

    private void selectLastPass() { passes.selectLast(visibleEntries()); }

    // ---- commands ----

    /** Selects the next (+1) or previous (-1) visible pass, as a debugger steps; stays put at either end. */
    public void stepPass(int direction) { passes.step(visibleEntries(), direction); }

    /** Moves the tree selection and the text diff to the next (+1) or previous (-1) change of this pass. */
    public void stepChange(int direction) {
        List<PassRow> rows = treeRows();
        // a change inside an added or removed subtree is part of that change: stop at the subtree only
        List<PassRow> stops = rows.stream().filter(r -> r.isChange()
                && (r.parent() == null || r.parent().kind() != r.kind() || r.kind() == DiffKind.CHANGED))
                .toList();
        if (!stops.isEmpty()) {
            Object current = tree.getStructuredSelection().getFirstElement();
            int pos = rows.indexOf(current);
            PassRow target = null;
            if (direction > 0) {
                target = stops.stream().filter(r -> rows.indexOf(r) > pos).findFirst().orElse(null);
            } else {
                for (PassRow r : stops) if (rows.indexOf(r) < pos || pos < 0) target = r;
            }
            if (target != null) {
                tree.setSelection(new StructuredSelection(target), true);
                DiffScroll.reveal(text.getControl(), target);
                return;
            }
        }
        if (text.getControl().getData(INavigatable.NAVIGATOR_PROPERTY) instanceof INavigatable nav) {
            nav.selectChange(direction > 0 ? INavigatable.NEXT_CHANGE : INavigatable.PREVIOUS_CHANGE);
        }
    }

    public void setHideUnchanged(boolean hide) {
        hideUnchanged = hide;
        State state = toggleState();
        if (state != null) state.setValue(hide);
        showPasses();
    }

    public boolean hideUnchanged() { return hideUnchanged; }

    private State toggleState() {
        Command c = getSite().getService(ICommandService.class).getCommand(HIDE_UNCHANGED_COMMAND);
        return c == null ? null : c.getState(RegistryToggleState.STATE_ID);
    }

    /** The printed program after the selected pass (the rank's final program when none is selected). */
    public String selectedSnapshotText() {
        return result instanceof LoweringResult.Lowered l ? SnapshotExport.text(passes.selected(), rankTrace(l)) : null;
    }

    public void copySnapshot() {
        String s = selectedSnapshotText();
        if (s != null) SnapshotTransfer.copy(passes.control().getDisplay(), s);
    }

    public void exportSnapshotsInteractively() { SnapshotTransfer.writeInteractively(getSite().getShell(), trace()); }

    private PassTrace trace() { return result instanceof LoweringResult.Lowered l ? l.trace() : null; }

    // ---- for tests and other views ----

    public LoweringResult result() { return result; }

    public void selectPass(String name) {
        visibleEntries().stream().filter(e -> e.step().pass().equals(name)).findFirst()
                .ifPresent(passes::select);
    }

    public void selectRank(int rank) {
        controls.rank.select(rank);
        showPasses();
    }

    public String selectedPass() { return passes.selected() == null ? null : passes.selected().step().pass(); }

    @SuppressWarnings("unchecked")
    public List<PassRow> treeRows() {
        return tree.getInput() == null ? List.of() : PassRow.flatten((List<PassRow>) tree.getInput());
    }

    public TreeViewer tree() { return tree; }

    /** The side-by-side text diff's control (BEFORE on the left, AFTER on the right). */
    public org.eclipse.swt.widgets.Control diffControl() { return text.getControl(); }

    public String messageText() { return message.getVisible() ? message.getText() : ""; }

    /** The pass filter's field (a person clicks it and types). */
    public Text filterField() { return controls.filter; }

    /** The pass list's control. */
    public org.eclipse.swt.widgets.Control passList() { return passes.control(); }

    /** The view's description line (file, rank, pass; or that no pass matches the filter). */
    public String description() { return getContentDescription(); }

    /** The file label above the lists (the path, marked when the editor's unsaved text is what is lowered). */
    public String fileLabel() { return controls.file.getText(); }

    /** The device count the view lowers for. */
    public int devices() { return controls.devices.getSelection(); }

    /** The lowering options the view shows, as {@code --option} pairs (what a run of the same file should use). */
    public java.util.Map<String, String> optionPairs() { return controls.options(); }

    /** Sets the number of streams, as a person does in the field, and lowers again (for tests). */
    public void setStreams(int streams) {
        controls.show(StreamParallelTypePass.NUMBER_OF_STREAMS, Integer.toString(streams));
        relower();
    }

    /** What this view lowers now, for a run of the same file with the same settings; see {@link LoweringShown}. */
    @Override
    public <T> T getAdapter(Class<T> adapter) {
        if (adapter == LoweringShown.class) {
            return file == null || controls == null ? null
                    : adapter.cast(new LoweringShown(file.getFullPath().toString(), devices(), optionPairs()));
        }
        return super.getAdapter(adapter);
    }

    @Override
    public void setFocus() {
        // a click into the filter or an option activates the view: it keeps the focus it gave (the pass list used
        // to take it, and the keys typed into the filter went to the list)
        for (var f = passes.control().getDisplay().getFocusControl(); f != null; f = f.getParent()) {
            if (f == controls.root) return;
        }
        passes.control().setFocus();
    }

    @Override
    public void dispose() {
        if (job != null) job.cancel();
        IWorkbenchPage page = getSite().getPage();
        page.removePartListener(editorFollower);
        detachEditor();
        org.eclipse.ui.PlatformUI.getWorkbench().getThemeManager().removePropertyChangeListener(themeListener);
        page.removePostSelectionListener(elementFollower);
        page.removePostSelectionListener(ViewIds.TIMELINE, nodeFollower);
        ResourcesPlugin.getWorkspace().removeResourceChangeListener(saves);
        if (compareConfig != null) compareConfig.dispose();
        super.dispose();
    }
}
