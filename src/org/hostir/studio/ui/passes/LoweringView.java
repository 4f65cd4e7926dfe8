package org.hostir.studio.ui.passes;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

import org.eclipse.core.commands.Command;
import org.eclipse.core.commands.State;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResourceChangeEvent;
import org.eclipse.core.resources.IResourceChangeListener;
import org.eclipse.core.resources.IResourceDelta;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.Path;
import org.eclipse.jface.action.Action;
import org.eclipse.jface.text.IDocument;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.actions.ActionFactory;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.commands.ICommandService;
import org.eclipse.ui.contexts.IContextService;
import org.eclipse.ui.handlers.RegistryToggleState;
import org.eclipse.ui.part.IShowInTarget;
import org.eclipse.ui.part.ShowInContext;
import org.eclipse.ui.part.ViewPart;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.ui.FusionElement;
import org.hostir.studio.ui.HostIrNodeElement;
import org.hostir.studio.ui.HostIrPreferences;
import org.hostir.studio.ui.LoweringShown;
import org.hostir.studio.ui.SelectionRelay;
import org.hostir.studio.ui.ToolTipKeys;
import org.hostir.studio.ui.ViewIds;
import org.hostir.studio.ui.passes.model.PassEntry;
import org.hostir.studio.ui.passes.model.Provenance;

/**
 * The lowering view (pass inspector). It follows the active fusion editor (any editor on a {@code *.fusion} file)
 * or a file chosen in the view and lowers, in a cancellable Job, the rank it shows: once per edit (when the text
 * rests), and another rank when that one is chosen. The {@link PassInspector} shows the rank's passes and the
 * selected pass's diffs. Selecting a node publishes the {@link FusionElement} it came from; a FusionElement selected
 * elsewhere reveals its nodes, and a {@link HostIrNodeElement} selected in the timeline view selects that node in its
 * rank's final program. Both arrive through the workbench selection service; the view answers a
 * {@link LoweringShown} and its {@link PassInspector} as adapters.
 */
public class LoweringView extends ViewPart implements IShowInTarget {
    public static final String ID = ViewIds.LOWERING;
    public static final String CONTEXT_ID = "org.hostir.studio.ui.passes.context";
    public static final String HIDE_UNCHANGED_COMMAND = "org.hostir.studio.ui.passes.hideUnchanged";
    /** Family of the lowering jobs, so that tests and callers can join them. */
    public static final Object JOB_FAMILY = LoweringView.class;
    /** How long the editor's text must rest before it is lowered again. */
    public static final int LIVE_DELAY_MS = 300;
    /** Said, in place of the lists, while there is nothing to lower. */
    public static final String NOTHING_TO_LOWER =
            "Nothing to lower: open a .fusion file, or click Choose... beside Fusion:, to see its lowering passes";
    /** Said beside the file name while what is shown was lowered from the editor's unsaved text. */
    public static final String UNSAVED = "  (unsaved editor contents)";

    private LoweringControls controls;
    private LoweringMessage message;
    private PassInspector inspector;
    private final SelectionRelay relay = new SelectionRelay();
    private IFile file;
    private LoweringResult result;
    private boolean hideUnchanged;
    private LoweringJob job;
    private int generation;
    /** What was last sent to be lowered: the same request again (no edit since) lowers nothing. */
    private Request requested;
    /** A node selected elsewhere whose rank or file this view was still lowering; revealed when its lowering arrives. */
    private HostIrNodeElement pendingNode;
    private final Runnable liveRelower = () -> { if (!message.text.isDisposed()) lowerIfChanged(); };
    /** Typing and graph edits are lowered once the user pauses, not on every key. */
    private final FollowedEditor live = new FollowedEditor(() -> message.text.getDisplay().timerExec(LIVE_DELAY_MS, liveRelower),
            this::follow, this::lowerIfChanged);

    /** One lowering's inputs: the same text, settings and rank give the same result. */
    private record Request(IFile file, String text, int devices, Map<String, String> options, int rank) {}

    private final ISelectionListener elementFollower = this::selectionChanged;
    /** The toolbar's tooltips name the actions' keys once the view is active (see ToolTipKeys). */
    private ToolTipKeys toolTipKeys;
    private final ISelectionListener nodeFollower = this::timelineSelectionChanged;
    private final IResourceChangeListener saves = this::resourceChanged;

    @Override
    public void createPartControl(Composite parent) {
        ViewIds.help(parent, ViewIds.HELP_LOWERING);
        Composite root = new Composite(parent, SWT.NONE);
        GridLayout layout = new GridLayout(1, false);
        layout.marginWidth = 0;
        layout.marginHeight = 0;
        layout.verticalSpacing = 2;   // at 1280 x 800 every pixel of height goes to the lists (issue 35)
        root.setLayout(layout);
        controls = new LoweringControls(root, this::settingsChanged, this::rankOrFilterChanged, this::setFile);
        controls.root.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        // what the view showed last time (kept across a restart), else Window > Preferences > Host IR's defaults
        controls.devices.setSelection(HostIrPreferences.viewDevices());
        HostIrPreferences.viewOptions().forEach(controls::show);
        message = new LoweringMessage(root);
        inspector = new PassInspector(root, e -> relay.setSelection(published(e)));
        inspector.breakpointRuler().attach(this, () -> file);
        inspector.onPassShown(() -> setContentDescription(
                inspector.description(file == null ? null : file.getName(), controls.filter.getText())));

        State state = toggleState();
        hideUnchanged = state != null && Boolean.TRUE.equals(state.getValue());
        getSite().setSelectionProvider(relay);
        // Ctrl+F and Edit > Find/Replace find in the text pane that has the keyboard, else in the program tree
        getViewSite().getActionBars().setGlobalActionHandler(ActionFactory.FIND.getId(), new Action() {
            @Override
            public void run() { inspector.showFind(); }
        });
        getSite().getService(IContextService.class).activateContext(CONTEXT_ID);
        IWorkbenchPage page = getSite().getPage();
        page.addPartListener(live);
        toolTipKeys = ToolTipKeys.install(this);
        page.addPostSelectionListener(elementFollower);
        page.addPostSelectionListener(ViewIds.TIMELINE, nodeFollower);
        ResourcesPlugin.getWorkspace().addResourceChangeListener(saves, IResourceChangeEvent.POST_CHANGE);
        follow(page.getActiveEditor());
        if (file == null) {
            inspector.setShown(false);
            message.hint(NOTHING_TO_LOWER);
        }
    }

    // ---- following editors, files and selections ----

    private void follow(IWorkbenchPart part) {
        if (!(part instanceof IEditorPart editor)) return;
        IFile f = editor.getEditorInput().getAdapter(IFile.class);
        if (f == null || !"fusion".equals(f.getFileExtension())) return;
        boolean newEditor = editor != live.editor();
        if (newEditor) live.attach(editor);
        if (!f.equals(file)) setFile(f);
        else if (newEditor) lowerIfChanged();
    }

    /** Shows the lowering of a workspace fusion file (re-lowered in a Job). */
    public void setFile(IFile f) {
        if (file == null) {   // the lists in place of the hint, lowered shortly
            message.hint(null);
            inspector.setShown(true);
        }
        file = f;
        if (!live.isOn(f)) live.detach();
        controls.showFile(f.getFullPath().toString(), "");
        controls.root.layout(true, true);
        setContentDescription("");
        lowerIfChanged();
    }

    public IFile file() { return file; }

    private void resourceChanged(IResourceChangeEvent event) {
        IFile f = file;
        if (f == null || event.getDelta() == null) return;
        IResourceDelta d = event.getDelta().findMember(f.getFullPath());
        if (d != null && (d.getFlags() & IResourceDelta.CONTENT) != 0) {
            Display.getDefault().asyncExec(() -> { if (!message.text.isDisposed()) lowerIfChanged(); });
        }
    }

    /**
     * What a selected node publishes: the fusion element it came from, and in the final program the node itself
     * (the debugger's breakpoints name it; the editor takes only the fusion element).
     */
    private ISelection published(FusionElement element) {
        java.util.List<Object> out = new java.util.ArrayList<>();
        if (element != null) out.add(element);
        int node = inspector == null ? -1 : inspector.selectedFinalNode();
        if (node >= 0 && file != null && controls.rank.getSelectionIndex() >= 0) {
            out.add(new HostIrNodeElement(file.getFullPath().toString(), controls.rank.getSelectionIndex(), node));
        }
        return out.isEmpty() ? StructuredSelection.EMPTY : new StructuredSelection(out);
    }

    private void selectionChanged(IWorkbenchPart part, ISelection selection) {
        if (part != this && selection instanceof IStructuredSelection s && s.getFirstElement() instanceof FusionElement e) {
            reveal(e);
        }
    }

    /** The timeline's selection, followed whether or not the timeline is the active part. */
    private void timelineSelectionChanged(IWorkbenchPart part, ISelection selection) {
        if (selection instanceof IStructuredSelection s && s.getFirstElement() instanceof HostIrNodeElement node) {
            reveal(node);
        }
    }

    // ---- lowering ----

    /** Shows the devices and options the preferences hold (after Window > Preferences > Host IR's OK), lowered. */
    public void reloadSettings() {
        controls.devices.setSelection(HostIrPreferences.viewDevices());
        HostIrPreferences.viewOptions().forEach(controls::show);
        lowerIfChanged();
    }

    /** A person changed the devices or an option: kept for the next start, then lowered. */
    private void settingsChanged() {
        HostIrPreferences.setView(controls.devices.getSelection(), controls.options());
        lowerIfChanged();
    }

    /** Lowers the file again for the rank shown (the Re-lower command), even with nothing changed. */
    public void relower() {
        requested = null;
        lowerIfChanged();
    }

    private Request request() {
        int devices = controls.devices.getSelection();
        return new Request(file, live.text(), devices, controls.options(), Math.min(controls.selectedRank(), devices - 1));
    }

    /** Lowers the file (the followed editor's text) for the rank shown, unless that exact request was made already. */
    private void lowerIfChanged() {
        if (file == null) return;
        Request request = request();
        boolean unsaved = request.text() != null && live.isDirty();
        String path = file.getFullPath().toString();
        if (request.equals(requested)) {   // a save, a second look: nothing to lower, the label follows
            if (job == null || job.getResult() != null) controls.showFile(path, unsaved ? UNSAVED : "");
            return;
        }
        int devices = request.devices();
        Map<String, String> pairs = request.options();
        LoweringOptions options;
        try {
            options = LoweringResult.options(pairs);
        } catch (LoweringException e) {
            requested = null;
            show(new LoweringResult.Failed(file.getFullPath().toString(), e.errors().stream().map(err -> err.format()).toList()));
            return;
        }
        requested = request;
        int compared = controls.comparedRank();
        schedule(progress -> {
            String text = request.text() != null ? request.text() : LoweringJob.read(request.file());
            LoweringResult r = text == null ? new LoweringResult.Failed(path, List.of(path + ": cannot read the file"))
                    : LoweringResult.lower(text, path, devices, options, request.rank(), progress);
            // the rank compared with too: new devices, options or text lowered the shown rank only, and the panes
            // went back to BEFORE and AFTER while "Compare with" still named the other rank (issue 35)
            return compared >= 0 && compared < devices && r instanceof LoweringResult.Lowered m && !m.has(compared)
                    ? m.withRank(compared, progress) : r;
        }, r -> {
            controls.showFile(path, unsaved ? UNSAVED : "");
            show(r);
        });
    }

    /** Runs {@code work} in a new job (cancelling the one running); {@code done} gets its result unless it was superseded. */
    private void schedule(Function<LoweringResult.Progress, LoweringResult> work, Consumer<LoweringResult> done) {
        if (job != null) job.cancel();
        int mine = ++generation;
        job = new LoweringJob(file.getName(), work, message.text.getDisplay(), r -> {
            if (mine == generation && !message.text.isDisposed()) done.accept(r);
        });
        job.setUser(false);
        job.schedule();
    }

    /** A rank not lowered yet is lowered (from the fusion already loaded); a filter or a lowered rank re-shows. */
    private void rankOrFilterChanged() {
        int rank = controls.selectedRank(), compared = controls.comparedRank();
        if (result instanceof LoweringResult.Lowered l && (!l.has(rank) || compared >= 0 && !l.has(compared))) {
            requested = request();
            schedule(progress -> {
                LoweringResult r = l.withRank(rank, progress);
                return compared >= 0 && r instanceof LoweringResult.Lowered m ? m.withRank(compared, progress) : r;
            }, this::show);
        } else {
            showPasses();
        }
    }

    private void show(LoweringResult r) {
        result = r;
        message.show(r);
        controls.setRanks(r instanceof LoweringResult.Lowered l ? l.trace().devices() : controls.devices.getSelection());
        showPasses();
        HostIrNodeElement pending = pendingNode;
        pendingNode = null;
        if (pending != null && pending.file().equals(r.file())) revealNode(pending.rank(), pending.nodeId());
    }

    /** The rank trace shown: the selected rank's, when it is lowered. */
    private PassTrace.RankTrace rankTrace() {
        return result instanceof LoweringResult.Lowered l && l.has(controls.selectedRank())
                ? l.trace().rank(controls.selectedRank()) : null;
    }

    /** Re-shows the pass list for the selected rank, filter and "hide unchanged" state, keeping the selection. */
    private void showPasses() {
        PassTrace.RankTrace rank = rankTrace();
        int compared = controls.comparedRank();
        PassTrace.RankTrace against = compared >= 0 && compared != controls.selectedRank()
                && result instanceof LoweringResult.Lowered l && l.has(compared) ? l.trace().rank(compared) : null;
        inspector.show(rank, rank == null ? List.of() : PassEntry.visible(rank, controls.filter.getText(), hideUnchanged),
                rank != null && result instanceof LoweringResult.Lowered l
                        ? new Provenance(l.file(), l.loaded().document(), rank) : null, against);
    }

    // ---- provenance ----

    /** Selects the nodes that came from a fusion element (in the final program when this pass has no Host IR). */
    public void reveal(FusionElement element) {
        if (result instanceof LoweringResult.Lowered l && l.file().equals(element.file())) inspector.reveal(element);
    }

    /**
     * Shows the node's rank's final program and selects the node; a node of another workspace file, or of a rank not
     * lowered yet, is selected once its lowering arrives.
     */
    public void reveal(HostIrNodeElement node) {
        String current = file == null ? null : file.getFullPath().toString();
        if (node.file() != null && !node.file().equals(current)) {
            IFile other = ResourcesPlugin.getWorkspace().getRoot().getFile(Path.fromPortableString(node.file()));
            if (!other.exists()) return;
            pendingNode = node;
            controls.selectRank(node.rank());   // so that the file's first lowering is of the node's rank
            setFile(other);
            return;
        }
        revealNode(node.rank(), node.nodeId());
    }

    /**
     * Eclipse's Show In (the Timeline's Show in Lowering): a {@link HostIrNodeElement} is selected in its rank's final
     * program, a {@link FusionElement} as its selection elsewhere reveals it. A context whose input is the run's
     * {@link LoweringShown} first takes the run's devices and options, so that the node is the one the run ran (the
     * view lowered with its own settings before, and picked a node of another program).
     */
    @Override
    public boolean show(ShowInContext context) {
        Object shown = context.getSelection() instanceof IStructuredSelection s ? s.getFirstElement() : null;
        boolean relower = context.getInput() instanceof LoweringShown run && takeSettings(run);
        if (shown instanceof HostIrNodeElement node) {
            String current = file == null ? null : file.getFullPath().toString();
            if (relower && node.file() != null && node.file().equals(current)) {
                pendingNode = node;
                controls.selectRank(node.rank());
                lowerIfChanged();
            } else {
                reveal(node);
            }
            return true;
        }
        if (shown instanceof FusionElement element) {
            reveal(element);
            return true;
        }
        if (relower) lowerIfChanged();   // the settings alone: what is shown follows them
        return false;
    }

    /** Shows a run's devices and options in the fields (kept, as a person's change is); whether they differed. */
    private boolean takeSettings(LoweringShown run) {
        Map<String, String> wanted = new java.util.LinkedHashMap<>(LoweringOptions.DEFAULTS.asMap());
        wanted.putAll(run.options());
        if (run.devices() == devices() && wanted.equals(controls.options())) return false;
        controls.devices.setSelection(run.devices());
        wanted.forEach(controls::show);
        controls.setRanks(run.devices());
        HostIrPreferences.setView(controls.devices.getSelection(), controls.options());
        return true;
    }

    private void revealNode(int rank, int nodeId) {
        if (!(result instanceof LoweringResult.Lowered l) || rank >= l.trace().devices()) return;
        controls.selectRank(rank);
        if (!l.has(rank)) {
            pendingNode = new HostIrNodeElement(l.file(), rank, nodeId);
            rankOrFilterChanged();
            return;
        }
        showPasses();
        inspector.revealNode(nodeId);
    }

    // ---- commands ----

    /** Selects the next (+1) or previous (-1) visible pass, as a debugger steps; stays put at either end. */
    public void stepPass(int direction) { inspector.stepPass(direction); }

    /** Moves the tree selection and the text diff to the next (+1) or previous (-1) change of this pass. */
    public void stepChange(int direction) { inspector.stepChange(direction); }

    public void setHideUnchanged(boolean hide) {
        hideUnchanged = hide;
        State state = toggleState();
        if (state != null) state.setValue(hide);
        showPasses();
    }

    private State toggleState() {
        Command c = getSite().getService(ICommandService.class).getCommand(HIDE_UNCHANGED_COMMAND);
        return c == null ? null : c.getState(RegistryToggleState.STATE_ID);
    }

    /** What lowering gave (a pass trace of the ranks lowered so far, or why it stopped). */
    public LoweringResult result() { return result; }

    /** The device count the view lowers for. */
    public int devices() { return controls.devices.getSelection(); }

    /** What this view lowers now, for a run of the same file with the same settings; its inspector, for the lists. */
    @Override
    public <T> T getAdapter(Class<T> adapter) {
        if (adapter == LoweringShown.class) {
            return file == null || controls == null ? null
                    : adapter.cast(new LoweringShown(file.getFullPath().toString(), devices(), controls.options()));
        }
        if (adapter == PassInspector.class) return adapter.cast(inspector);
        // the AFTER pane's text, for a breakpoint toggled in its ruler (the debugger's toggle target reads it)
        if (adapter == IDocument.class && inspector != null) return adapter.cast(inspector.breakpointRuler().document());
        return super.getAdapter(adapter);
    }

    @Override
    public void setFocus() {
        // a click into the filter or an option activates the view: it keeps the focus it gave (the pass list used
        // to take it, and the keys typed into the filter went to the list)
        for (var f = message.text.getDisplay().getFocusControl(); f != null; f = f.getParent()) {
            if (f == controls.root) return;
        }
        inspector.passList().setFocus();
    }

    @Override
    public void dispose() {
        if (job != null) job.cancel();
        HostIrPreferences.save();
        IWorkbenchPage page = getSite().getPage();
        page.removePartListener(live);
        if (toolTipKeys != null) toolTipKeys.uninstall();
        live.detach();
        page.removePostSelectionListener(elementFollower);
        page.removePostSelectionListener(ViewIds.TIMELINE, nodeFollower);
        ResourcesPlugin.getWorkspace().removeResourceChangeListener(saves);
        if (inspector != null) inspector.dispose();
        super.dispose();
    }
}
