package org.hostir.studio.ui.studio;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IFolder;
import org.eclipse.core.resources.IProject;
import org.eclipse.core.resources.IWorkspaceRunnable;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.ILog;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IStartup;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.WorkbenchException;
import org.eclipse.ui.ide.IDE;
import org.hostir.studio.ui.editor.EditorWarmUp;
import org.hostir.studio.ui.editor.LayoutJob;
import org.hostir.studio.ui.launch.LaunchDialogSize;

/**
 * What {@code ./hirstudio studio} asks for at start (system properties, so an ordinary IDE is untouched): with
 * {@code hirstudio.examples=DIR}, a project "examples" holding the fusion files of DIR, the Host IR perspective
 * and seed 000's AG+matmul open; with {@code hirstudio.smoke=OUT.png} as well, a screenshot and a report of the
 * perspective, a run of that example with a second screenshot, then the workbench closes (the product's smoke
 * test).
 */
public final class StudioStartup implements IStartup {
    static final String EXAMPLES = "hirstudio.examples";
    static final String SMOKE = "hirstudio.smoke";
    static final String PROJECT = "examples";
    static final String FIRST_FILE = "seeds/ag_matmul_p2p.fusion";

    @Override
    public void earlyStartup() {
        ExitData.handOverAtExit();
        LayoutJob.warmUpLater(3_000);   // the graph's layout engine loaded before the first fusion opens (issue 35)
        EditorWarmUp.later(4_000);   // the editor's opening path run off-screen (issue 35: a cold first open 3.8 s)
        HelpWarmUp.later(5_000);   // the help server up before the first Help Contents (issue 35: 14 s blank)
        var display = PlatformUI.getWorkbench().getDisplay();
        display.asyncExec(() -> NewWizardOrder.install(PlatformUI.getWorkbench()));   // File > New > Fusion first
        display.asyncExec(() -> ThemeSwitchRepair.install(display));
        display.asyncExec(() -> LaunchDialogSize.seed(display));   // Run Configurations' first size (issue 35)
        // the Problems view's groups open as its memento says (issue 35: Errors stayed collapsed)
        display.asyncExec(() -> ProblemsGroupsExpanded.install(PlatformUI.getWorkbench()));
        String examples = System.getProperty(EXAMPLES);
        if (examples == null) return;
        boolean firstStart = !ResourcesPlugin.getWorkspace().getRoot().getProject(PROJECT).exists();
        try {
            importExamples(Path.of(examples));
        } catch (CoreException | IOException e) {
            ILog.of(StudioStartup.class).error("cannot create the examples project from " + examples, e);
        }
        boolean fillScreen = firstStart || System.getProperty(SMOKE) != null;
        PlatformUI.getWorkbench().getDisplay().asyncExec(() -> openPerspective(fillScreen));
    }

    /** Copies the .fusion files under {@code dir} into the project, keeping folders; existing files are kept. */
    static void importExamples(Path dir) throws CoreException, IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(p -> p.toString().endsWith(".fusion")).sorted().toList();
        }
        IWorkspaceRunnable create = monitor -> {
            IProject project = ResourcesPlugin.getWorkspace().getRoot().getProject(PROJECT);
            if (!project.exists()) project.create(monitor);
            if (!project.isOpen()) project.open(monitor);
            for (Path f : files) {
                String relative = dir.relativize(f).toString().replace('\\', '/');
                IFile target = project.getFile(relative);
                if (target.exists()) continue;
                ensureFolders(target);
                try (var in = Files.newInputStream(f)) {
                    target.create(in, true, monitor);
                } catch (IOException e) {
                    throw new CoreException(org.eclipse.core.runtime.Status.error("cannot read " + f, e));
                }
            }
        };
        ResourcesPlugin.getWorkspace().run(create, null);
    }

    private static void ensureFolders(IFile file) throws CoreException {
        if (!(file.getParent() instanceof IFolder folder) || folder.exists()) return;
        List<IFolder> missing = new java.util.ArrayList<>();
        for (var c = file.getParent(); c instanceof IFolder f && !f.exists(); c = f.getParent()) missing.add(0, f);
        for (IFolder f : missing) f.create(true, true, null);
    }

    /**
     * Opens the perspective and the first example; on a workspace's first start (and for the smoke test's
     * screenshot) the window takes the screen's work area, since the workbench's default size is small.
     */
    private static void openPerspective(boolean fillScreen) {
        IWorkbenchWindow window = PlatformUI.getWorkbench().getActiveWorkbenchWindow();
        if (window == null) return;
        if (fillScreen) {
            Shell shell = window.getShell();
            shell.setBounds(shell.getDisplay().getPrimaryMonitor().getClientArea());
        }
        IFile first = ResourcesPlugin.getWorkspace().getRoot().getProject(PROJECT).getFile(FIRST_FILE);
        try {
            IWorkbenchPage page = PlatformUI.getWorkbench().showPerspective(HostIrPerspective.ID, window);
            if (first.exists()) IDE.openEditor(page, first);
        } catch (WorkbenchException e) {
            ILog.of(StudioStartup.class).error("cannot open the Host IR perspective", e);
        }
        String smoke = System.getProperty(SMOKE);
        if (smoke != null) SmokeReport.later(Path.of(smoke), first);
    }
}
