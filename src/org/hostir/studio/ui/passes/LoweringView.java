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
    private LoweringJob job;
    private int generation;
    /** Set while revealing an incoming selection, so that the tree does not publish it back. */
    private boolean revealing;
    /** A node selected elsewhere in a file this view was still lowering; revealed when its lowering arrives. */
    private HostIrNodeElement pendingNode;

    private final IPartListener2 editorFollower = new IPartListener2() {
        @Override
        public void partActivated(IWorkbenchPartReference ref) { follow(ref.getPart(false)); }

        @Override
        public void partInputChanged(IWorkbenchPartReference ref) { follow(ref.getPart(false)); }
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
        right.setWeights(45, 55);
        main.setWeights(22, 78);

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

    // ---- following editors, files and selections ----

    private void follow(IWorkbenchPart part) {
        if (part instanceof IEditorPart editor) {
            IFile f = editor.getEditorInput().getAdapter(IFile.class);
            if (f != null && "fusion".equals(f.getFileExtension()) && !f.equals(file)) setFile(f);
        }
    }

    /** Shows the lowering of a workspace fusion file (re-lowered in a Job). */
    public void setFile(IFile f) {
        file = f;
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
        job = new LoweringJob(f, devices, options, display, r -> {
            if (mine == generation && !passes.control().isDisposed()) show(r);
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
            case LoweringResult.Lowered l -> {
                md.exclude = true;
                message.setVisible(false);
                controls.setRanks(l.trace().devices());
            }
        }
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
            tree.setInput(List.of());
            text.setInput(null);
            return;
        }
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
        return e != null && e.step().after() instanceof Snapshot.OfHost(HostIrContainer c) ? c : null;
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
            if (target != null) tree.setSelection(new StructuredSelection(target), true);
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
        passes.control().setFocus();
    }

    @Override
    public void dispose() {
        if (job != null) job.cancel();
        IWorkbenchPage page = getSite().getPage();
        page.removePartListener(editorFollower);
        page.removePostSelectionListener(elementFollower);
        page.removePostSelectionListener(ViewIds.TIMELINE, nodeFollower);
        ResourcesPlugin.getWorkspace().removeResourceChangeListener(saves);
        if (compareConfig != null) compareConfig.dispose();
        super.dispose();
    }
}
