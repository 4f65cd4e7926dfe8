package org.hostir.studio.ui.tests.theme;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.core.resources.IFile;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.console.IConsoleConstants;
import org.hostir.studio.ui.launch.HostIrLaunchShortcut;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.launch.LaunchSettings;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.tests.passes.DumpViewTest;

/**
 * What {@link ThemeBothWaysTest} brings up besides the editor's parts, so that the views it did not measure before
 * show what a person sees in them: the nvFuser Dump view with a pasted log's programs, and the Console with a real
 * run's output (a separate JVM launched as Run As does, its lines in the debug console's colours).
 */
final class BothWaysExtras {
    static final String CONSOLE = IConsoleConstants.ID_CONSOLE_VIEW;

    private BothWaysExtras() {}

    /** Seed 000's first two programs, as pasted from a test's log. */
    static void showDump(DumpView view) throws Exception {
        view.show(DumpViewTest.log(DumpViewTest.seed000Dumps()), "seed 000");
    }

    /**
     * The Problems view's Errors group opened by a double-click, so that its row shows (its refresh is delayed: the
     * group is waited for). Says why when it does not open.
     */
    static String openErrors(IWorkbenchPage page, Person person) throws Exception {
        page.showView(org.eclipse.ui.IPageLayout.ID_PROBLEM_VIEW);
        Shell shell = page.getWorkbenchWindow().getShell();
        Tree[] tree = new Tree[1];
        person.until(10_000, () -> (tree[0] = errorsTree(shell)) != null);
        if (tree[0] == null) return "no Errors group in the Problems view";
        TreeItem group = tree[0].getItem(0);
        Rectangle r = group.getBounds(0);
        person.doubleClick(tree[0], r.x + 30, r.y + r.height / 2);
        person.until(3_000, group::getExpanded);
        person.settle(300);
        return group.getExpanded() ? null : "a double-click did not open the Problems view's Errors group";
    }

    private static Tree errorsTree(Shell shell) {
        return ViewTestSupport.descendants(shell, Tree.class).stream()
                .filter(t -> t.isVisible() && t.getItemCount() > 0 && t.getItem(0).getText(0).startsWith("Errors"))
                .findFirst().orElse(null);
    }

    /** Runs {@code file} on the CPU backend over 2 devices (2 iterations) and waits for its end. */
    static void launchForConsole(IWorkbenchPage page, Person person, IFile file) throws Exception {
        ILaunchConfiguration config = HostIrLaunchShortcut.configurationFor(file);
        ILaunchConfigurationWorkingCopy copy = config.getWorkingCopy();
        LaunchSettings s = LaunchAttributes.read(copy);
        LaunchAttributes.write(new LaunchSettings(s.file(), s.symbols(), "cpu", 2, 2, 2, 1, false, s.options()),
                copy);
        ILaunch launch = copy.doSave().launch(ILaunchManager.RUN_MODE, null);
        person.until(120_000, launch::isTerminated);
        assertTrue(launch.isTerminated(), "the run for the Console ends");
        page.showView(CONSOLE);
        person.settle(800);
    }
}
