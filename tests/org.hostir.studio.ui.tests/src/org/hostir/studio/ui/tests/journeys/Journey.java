package org.hostir.studio.ui.tests.journeys;

import java.nio.file.Files;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResource;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.handlers.IHandlerService;
import org.eclipse.ui.part.ISetSelectionTarget;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.CpuRun;
import org.hostir.studio.ui.timeline.ScheduleSweepDialog;
import org.hostir.studio.ui.timeline.TimelineView;

/**
 * What every journey starts from and ends with: the workbench window at a person's screen size, in front with the
 * pointer over it, and the person who drives it; opening seeds, showing views, waiting for the live lowering, a
 * CPU run in the Timeline, and putting the workbench back for the next test.
 */
public final class Journey {
    private final IWorkbenchPage page;
    private final Person person;

    private Journey(int width, int height) {
        page = ViewTestSupport.page();
        page.getWorkbenchWindow().getShell().setBounds(0, 0, width, height);
        person = Person.onCurrentDisplay();
        person.lookAt(page.getWorkbenchWindow().getShell());
    }

    /** The window at 1600 x 1000, the size the journeys and the user guide's pictures use. */
    public static Journey start() { return new Journey(1600, 1000); }

    public static Journey start(int width, int height) { return new Journey(width, height); }

    /**
     * The Host IR perspective as a person first sees it (editors closed, the perspective reset), then the window
     * at {@code width} x {@code height}: the start of the layout journeys (issues 18 and 35).
     */
    public static Journey inResetStudio(int width, int height) {
        IWorkbenchPage page = ViewTestSupport.page();
        page.closeAllEditors(false);
        page.setPerspective(PlatformUI.getWorkbench().getPerspectiveRegistry()
                .findPerspectiveWithId("org.hostir.studio.ui.studio.perspective"));
        page.resetPerspective();
        return new Journey(width, height);
    }

    /**
     * Opens the AG+GEMM seed (copied into {@code project} as ag_matmul_p2p.fusion) and shows the Lowering view once
     * the opening's lowering is done, as the layout journeys look at both.
     */
    public FusionEditor openSeedWithLowering(String project) throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace(project, "examples/seeds/ag_matmul_p2p.fusion",
                "ag_matmul_p2p.fusion");
        FusionEditor editor = (FusionEditor) org.eclipse.ui.ide.IDE.openEditor(page, file, FusionEditor.ID);
        person.settle(300);
        ViewTestSupport.join(LoweringView.JOB_FAMILY);
        page.showView(LoweringView.ID);
        ViewTestSupport.join(LoweringView.JOB_FAMILY);
        return editor;
    }

    public IWorkbenchPage page() { return page; }

    public Person person() { return person; }

    public Shell shell() { return page.getWorkbenchWindow().getShell(); }

    /** Shows (and activates) view {@code id}. */
    @SuppressWarnings("unchecked")
    public <T extends IViewPart> T show(String id) throws Exception { return (T) page.showView(id); }

    /** Copies seed {@code seed} (examples/seeds/SEED.fusion) into project {@code project} as {@code as}, opens it. */
    public FusionEditor openSeed(String project, String seed, String as) throws Exception {
        IFile f = ViewTestSupport.copyToWorkspace(project, "examples/seeds/" + seed + ".fusion", as);
        FusionEditor e = (FusionEditor) org.eclipse.ui.ide.IDE.openEditor(page, f, FusionEditor.ID);
        person.settle(300);
        ShownGraph.of(e);   // drawn, and the opening's lowering back (its refusals marked)
        return e;
    }

    /** As {@link #openSeed}, and the editor made the active part (its keys and Edit menu apply). */
    public FusionEditor openSeedActive(String project, String seed, String as) throws Exception {
        FusionEditor e = openSeed(project, seed, as);
        page.activate(e);
        return e;
    }

    /** The Outline shown, then as {@link #openSeedActive}: the Outline shows the editor's overview. */
    public FusionEditor openSeedBesideOutline(String project, String seed, String as) throws Exception {
        page.showView(IPageLayout.ID_OUTLINE);
        return openSeedActive(project, seed, as);
    }

    /** Opens a workspace file in the fusion editor. */
    public FusionEditor open(IFile f) throws Exception {
        FusionEditor e = (FusionEditor) org.eclipse.ui.ide.IDE.openEditor(page, f, FusionEditor.ID);
        person.settle(300);
        ShownGraph.of(e);   // drawn, and the opening's lowering back (its refusals marked)
        return e;
    }

    /**
     * Opens {@code repoPath} (a .fusion of the repository, copied into {@code project} as {@code as}) in its editor
     * on {@code page} and, with it active, the Schedule Sweep dialog (its command); the dialog 1040 x 900, the person
     * looking at it. Static: the sweep journeys keep the window's size.
     */
    public static ScheduleSweepDialog openSweep(IWorkbenchPage page, Person person, String project, String repoPath,
            String as) throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace(project, repoPath, as);
        org.eclipse.ui.ide.IDE.openEditor(page, file);
        person.settle(300);
        page.getWorkbenchWindow().getService(IHandlerService.class)
                .executeCommand("org.hostir.studio.ui.timeline.scheduleSweep", null);
        person.settle(500);
        ScheduleSweepDialog sweep = ScheduleSweepDialog.lastOpened();
        if (sweep == null || sweep.getShell() == null) throw new AssertionError("the Schedule Sweep dialog did not open");
        sweep.getShell().setSize(1040, 900);
        person.lookAt(sweep.getShell());
        return sweep;
    }

    /** Waits out the Lowering view's debounce and its lowering job. */
    public void waitForLowering() throws Exception {
        person.settle(LoweringView.LIVE_DELAY_MS + 200);
        ViewTestSupport.join(LoweringView.JOB_FAMILY);
    }

    /** Runs seed {@code seed} on the CPU backend over {@code devices} devices and shows its trace in the Timeline. */
    public TimelineView runInTimeline(String seed, int devices, IFile file) throws Exception {
        String source = Files.readString(ViewTestSupport.repoFile("examples/seeds/" + seed + ".fusion"));
        var ran = (CpuRun.Outcome.Ran) CpuRun.run(source, seed + ".fusion", devices, LoweringOptions.DEFAULTS, s -> { });
        TimelineView view = TimelineView.show(ran.result().timeline(), seed, file);
        person.settle(300);
        return view;
    }

    /** The Project Explorer shown, {@code resource} selected and revealed in it: its tree, the row {@code label}'s. */
    public Tree explorerSelecting(IResource resource, String label) throws Exception {
        IViewPart explorer = page.showView(IPageLayout.ID_PROJECT_EXPLORER);
        ((ISetSelectionTarget) explorer).selectReveal(new StructuredSelection(resource));
        person.settle(300);
        return ViewTestSupport.descendants(explorer.getViewSite().getShell(), Tree.class).stream()
                .filter(t -> t.isVisible() && t.getSelectionCount() == 1 && t.getSelection()[0].getText().equals(label))
                .findFirst().orElseThrow();
    }

    /** Closes the editors without saving (the next test opens its own). */
    public void closeEditors() {
        page.closeAllEditors(false);
        person.settle(100);
    }

    /** Hides view {@code id} when it is open. */
    public void hide(String id) {
        var ref = page.findViewReference(id);
        if (ref != null) page.hideView(ref);
        person.settle(200);
    }
}
