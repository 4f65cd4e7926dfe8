package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;

/**
 * Alt+Shift+X H pressed in a .fusion editor's graph, and the launch it makes followed to its end: a launch is
 * registered before its checks, build and delegate run, so its process is waited for first; a wait that runs out
 * says what is on screen ({@link LaunchScene}) and saves a screenshot.
 */
final class RunKeys {
    private final Journey journey;
    private final Person person;
    private final ILaunchManager manager = DebugPlugin.getDefault().getLaunchManager();
    private Set<ILaunch> earlier = Set.of();
    private IFile file;

    RunKeys(Journey journey) {
        this.journey = journey;
        this.person = journey.person();
    }

    /** Clicks the editor's empty canvas (keys to the editor), presses the keys; the new launches of its file. */
    List<ILaunch> press(FusionEditor e) { return press(e, 'x'); }

    /** As {@link #press(FusionEditor)} with Alt+Shift+D H: Debug As > Host IR Program. */
    List<ILaunch> pressDebug(FusionEditor e) { return press(e, 'd'); }

    private List<ILaunch> press(FusionEditor e, char mode) {
        earlier = Set.of(manager.getLaunches());
        file = e.getEditorInput().getAdapter(IFile.class);
        journey.page().activate(e);
        person.lookAt(journey.shell());   // the window in front: X gives the keys to the window under the pointer
        Control canvas = ShownGraph.of(e).getControl();
        person.click(canvas, canvas.getSize().x - 20, canvas.getSize().y - 20);
        person.press(SWT.ALT | SWT.SHIFT, mode);
        person.press(0, 'h');
        List<ILaunch> ours = new ArrayList<>();
        person.until(20_000, () -> {
            ours.clear();
            ours.addAll(made());
            return !ours.isEmpty();
        });
        return ours;
    }

    /** The launches of the editor's file made since the keys were pressed. */
    List<ILaunch> made() {
        List<ILaunch> ours = new ArrayList<>();
        for (ILaunch l : manager.getLaunches()) if (!earlier.contains(l) && launches(l, file)) ours.add(l);
        return ours;
    }

    /** Its process started, then its end; else fails with the scene, saved as {@code screenshot}. */
    void runToTheEnd(ILaunch launch, String screenshot) {
        expect(() -> launch.getProcesses().length > 0, 60_000, launch, "the run starts its process", screenshot);
        expect(launch::isTerminated, 120_000, launch, "the run ends", screenshot);
    }

    /**
     * Waits for {@code done}; else fails with what is on screen and in the launch. A modal question opened meanwhile
     * runs its own event loop and would hold the wait for ever: a timer, which runs in that loop too, takes the scene
     * at the deadline and closes the dialogs so that the wait returns.
     */
    void expect(BooleanSupplier done, long millis, ILaunch launch, String what, String screenshot) {
        String[] scene = new String[1];
        Display display = Display.getCurrent();
        Runnable watchdog = () -> {
            if (done.getAsBoolean()) return;
            scene[0] = LaunchScene.describe(launch, journey.shell());
            ViewTestSupport.screenshot(journey.shell(), screenshot);
            closeDialogs();
        };
        display.timerExec((int) millis, watchdog);
        boolean ok = person.until(millis + 2_000, () -> done.getAsBoolean() || scene[0] != null);
        display.timerExec(-1, watchdog);
        if (ok && scene[0] == null) return;
        if (scene[0] == null) watchdog.run();
        System.out.println("run key: " + what + " failed" + scene[0]);
        fail(what + scene[0]);
    }

    /** Leaves no dialog, run or configuration behind for the next journey. */
    void tidy(ILaunch launch) throws CoreException {
        closeDialogs();
        if (!launch.isTerminated()) launch.terminate();
        manager.removeLaunch(launch);
        ILaunchConfiguration config = launch.getLaunchConfiguration();
        if (config != null && config.exists()) config.delete();
    }

    private void closeDialogs() {
        for (Shell s : Display.getCurrent().getShells()) if (s != journey.shell() && s.isVisible()) s.close();
    }

    /**
     * Whether {@code l} is a Host IR Program launch of {@code file}. Not the debug UI's stand-in: while a build job
     * is about (the file copied into the workspace schedules one), DebugUIPlugin.launchInBackground's job registers
     * a PendingLaunch on a working copy of the configuration, waits for the build (preference "wait_for_build",
     * "always" by default), removes it and only then makes the real launch. The stand-in never gets a process, so
     * a journey that took it waited for its end in vain (the clean-clone CI run's "the run ends" after 120 s).
     */
    private static boolean launches(ILaunch l, IFile file) {
        try {
            ILaunchConfiguration c = l.getLaunchConfiguration();
            return c != null && !c.isWorkingCopy()
                    && file.getFullPath().toString().equals(c.getAttribute(LaunchAttributes.FILE, ""));
        } catch (CoreException ex) {
            return false;
        }
    }
}
