package org.hostir.studio.ui.tests.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IProject;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.jobs.IJobChangeEvent;
import org.eclipse.core.runtime.jobs.IJobChangeListener;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.core.runtime.jobs.JobChangeAdapter;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.debug.core.model.IProcess;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IPerspectiveDescriptor;
import org.eclipse.ui.IViewReference;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.ide.IDE;
import org.eclipse.ui.console.IConsole;
import org.eclipse.ui.console.IConsoleConstants;
import org.eclipse.ui.console.TextConsole;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.launch.HostIrLaunchShortcut;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.launch.LaunchSettings;
import org.hostir.studio.ui.launch.RunOutcome;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.WorkbenchSmokeTest;
import org.hostir.studio.ui.timeline.model.TimelineRows;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Launches seed 000's AG+matmul through a "Host IR Program" configuration on the CPU backend: a separate JVM runs
 * the engine, the console shows its progress and validation, and the trace opens in the timeline view.
 */
public class HostIrLaunchTest {
    private static final String PROGRESS_PERIOD = org.hostir.studio.engine.RunCommandLine.PROGRESS_PERIOD;
    private static final String HOST_IR_PERSPECTIVE = "org.hostir.studio.ui.studio.perspective";

    static IFile example(String project, String name) throws Exception {
        IProject p = ResourcesPlugin.getWorkspace().getRoot().getProject(project);
        if (!p.exists()) p.create(null);
        if (!p.isOpen()) p.open(null);
        Path source = Path.of(System.getProperty("hirstudio.repo"), "examples", "seeds", name);
        IFile file = p.getFile(name);
        if (!file.exists()) file.create(new ByteArrayInputStream(Files.readAllBytes(source)), true, null);
        return file;
    }

    @Test
    public void runsAnExampleInASeparateJvmAndShowsItsOutput() throws Exception {
        IFile file = example("launch", "ag_matmul_p2p.fusion");
        ILaunchConfiguration config = HostIrLaunchShortcut.configurationFor(file);
        assertEquals(file.getFullPath().toString(), config.getAttribute(LaunchAttributes.FILE, ""));
        ILaunchConfigurationWorkingCopy copy = config.getWorkingCopy();
        LaunchSettings s = LaunchAttributes.read(copy);
        LaunchAttributes.write(new LaunchSettings(s.file(), s.symbols(), "cpu", 2, 2, 2, 1, true, s.options()), copy);
        config = copy.doSave();

        // run it the way the Studio shows it: the Host IR perspective with the file open (restored afterwards)
        IWorkbenchPage page = ViewTestSupport.page();
        IPerspectiveDescriptor before = page.getPerspective();
        page.getWorkbenchWindow().getShell().setSize(1280, 960);
        page.setPerspective(PlatformUI.getWorkbench().getPerspectiveRegistry()
                .findPerspectiveWithId(HOST_IR_PERSPECTIVE));
        try {
            IDE.openEditor(page, file);
            launchAndCheck(config, page);
        } finally {
            page.closeAllEditors(false);
            page.setPerspective(before);
        }
    }

    private static void launchAndCheck(ILaunchConfiguration config, IWorkbenchPage page) throws Exception {
        String title = config.getAttribute(LaunchAttributes.FILE, "");
        // the timeline view must show this run's trace, not what an earlier test left there: close it first
        IViewReference earlier = page.findViewReference(TimelineView.ID);
        if (earlier != null) page.hideView(earlier);
        assertEquals(null, page.findView(TimelineView.ID), "no timeline view before the run");

        // issue 35: progress every millisecond here (every 2 s by default), so that this short run shows the lines
        String period = System.getProperty(PROGRESS_PERIOD);
        System.setProperty(PROGRESS_PERIOD, "1");
        ILaunch launch;
        // the run's job seen running as a user job (what the Progress view lists), however short the run: polling
        // the job manager missed runs that ended while the launch was still returning (CI, 2026-11-29)
        AtomicBoolean inProgressView = new AtomicBoolean();
        IJobChangeListener seen = new JobChangeAdapter() {
            @Override
            public void running(IJobChangeEvent event) {
                Job job = event.getJob();
                if (job.getName().equals("Host IR run: ag_matmul_p2p.fusion") && !job.isSystem()) {
                    inProgressView.set(true);
                }
            }
        };
        Display display = Display.getCurrent();
        Job.getJobManager().addJobChangeListener(seen);
        try {
            launch = config.launch(ILaunchManager.RUN_MODE, null);
            long deadline = System.currentTimeMillis() + 120_000;
            while (!launch.isTerminated() && System.currentTimeMillis() < deadline) {
                while (display.readAndDispatch()) {
                    // keep the UI alive while the run goes on
                }
                Thread.sleep(20);
            }
        } finally {
            Job.getJobManager().removeJobChangeListener(seen);
            if (period == null) System.clearProperty(PROGRESS_PERIOD);
            else System.setProperty(PROGRESS_PERIOD, period);
        }
        assertTrue(launch.isTerminated(), "the run ends");
        IProcess process = launch.getProcesses()[0];
        // say what the run printed when it was never seen: a run that failed at once is a different defect
        assertTrue(inProgressView.get(), () -> "the run is shown in the Progress view while it lasts (exit "
                + exitValue(process) + "): " + console(process));
        assertEquals(0, process.getExitValue(), () -> console(process));
        // the console view reads the process's output; what a person sees is its document
        long shown = System.currentTimeMillis() + 20_000;
        while (!console(process).contains("validation:") && System.currentTimeMillis() < shown) {
            WorkbenchSmokeTest.spin(display, 100);
        }
        String out = console(process);
        assertTrue(out.lines().anyMatch(l -> l.matches("(warm-up|iteration) [0-9]/[0-9]: [0-2] of 2 ranks done .*")),
                () -> "no ranks-done progress in the console:\n" + out);
        for (String expected : List.of("warm-up 1/1: ", "iteration 1/2: ", "iteration 2/2: ", "time: median",
                "overlap: rank 0", "peak memory: rank 0", "validation: PASS max_abs_err=", "trace: ")) {
            assertTrue(out.contains(expected), () -> expected + " missing from the console:\n" + out);
        }
        assertTrue(process.getAttribute(IProcess.ATTR_CMDLINE).contains("--backend cpu --devices 2"),
                process.getAttribute(IProcess.ATTR_CMDLINE));
        assertTimelineOfTheRun(page, display, title);
        page.showView(IConsoleConstants.ID_CONSOLE_VIEW);
        WorkbenchSmokeTest.spin(display, 800);
        WorkbenchSmokeTest.screenshot(page.getWorkbenchWindow().getShell(), "launch-console.png");
    }

    /** On success the run's trace opens in the timeline view: both ranks' rows, matmul and communication bars. */
    private static void assertTimelineOfTheRun(IWorkbenchPage page, Display display, String title)
            throws Exception {
        long opened = System.currentTimeMillis() + 20_000;
        while (!(page.findView(TimelineView.ID) instanceof TimelineView v && v.timeline() != null)
                && System.currentTimeMillis() < opened) {
            WorkbenchSmokeTest.spin(display, 100);
        }
        TimelineView view = assertInstanceOf(TimelineView.class, page.findView(TimelineView.ID),
                "the timeline view opens after the run");
        assertNotNull(view.timeline(), "the timeline view shows the run's trace");
        assertEquals(title, view.getContentDescription(), "the view names the launched file");
        TimelineRows rows = view.canvas().rows();
        assertEquals(Set.of(0, 1), rows.rows().stream().map(TimelineRows.Row::rank).collect(Collectors.toSet()),
                "rows for the two ranks of the run");
        for (int rank : List.of(0, 1)) {
            List<TimelineRows.Row> mine = rows.rows().stream().filter(r -> r.rank() == rank).toList();
            Set<EventKind> kinds = mine.stream().flatMap(r -> Arrays.stream(r.events()))
                    .map(TimelineEvent::kind).collect(Collectors.toSet());
            assertTrue(kinds.contains(EventKind.MATMUL), "rank " + rank + " matmul bars: " + kinds);
            assertTrue(kinds.contains(EventKind.P2P) || kinds.contains(EventKind.COMMUNICATION),
                    "rank " + rank + " communication bars: " + kinds);
        }
        assertTrue(view.summaryText().contains("overlap"), view.summaryText());
        // the launched run's program and settings come with its trace, so the Timeline's Predict can simulate it
        assertEquals(title, view.source().getFullPath().toString());
        assertEquals(2, view.runSettings().devices());
        page.activate(view);
        page.setPartState(page.findViewReference(TimelineView.ID), IWorkbenchPage.STATE_MAXIMIZED);
        WorkbenchSmokeTest.spin(display, 500);
        view.fit();
        WorkbenchSmokeTest.spin(display, 800);
        // the console shows itself on the run's last output, asynchronously: bring the timeline back on top, and
        // make sure the screenshot is of the timeline, not of the console beside it
        page.bringToTop(view);
        WorkbenchSmokeTest.spin(display, 300);
        assertTrue(page.isPartVisible(view), "the timeline is the visible part when its screenshot is taken");
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "launch-timeline.png");
        page.setPartState(page.findViewReference(TimelineView.ID), IWorkbenchPage.STATE_RESTORED);
    }

    private static String exitValue(IProcess process) {
        try {
            return Integer.toString(process.getExitValue());
        } catch (org.eclipse.debug.core.DebugException e) {
            return "none yet";
        }
    }

    static String console(IProcess process) {
        IConsole console = DebugUITools.getConsole(process);
        return console instanceof TextConsole text ? text.getDocument().get() : "";
    }

    @Test
    public void argumentsFollowTheSettings() {
        LaunchSettings s = new LaunchSettings("/p/f.fusion", java.util.Map.of("M", "64"), "cpu", 4, 2, 3, 1, false,
                java.util.Map.of("allgather", "broadcast"));
        // run validates by default: an unchecked "Validate" box is --no-validate
        assertEquals(List.of("run", "/abs/f.fusion", "--backend", "cpu", "--devices", "4", "--streams", "2",
                "--iterations", "3", "--warmup", "1", "--trace", "/t.json", "--no-validate", "--set", "M=64",
                "--option", "allgather=broadcast"), s.runArguments(Path.of("/abs/f.fusion"), Path.of("/t.json")));
        LaunchSettings sharing = new LaunchSettings("/p/f.fusion", java.util.Map.of(), LaunchSettings.CUDA_SHARING_GPUS,
                2, 4, 3, 1, true, java.util.Map.of("allgather", "p2p"));
        assertEquals(List.of("run", "/abs/f.fusion", "--backend", "cuda", "--devices", "2", "--streams", "4",
                "--iterations", "3", "--warmup", "1", "--trace", "/t.json", "--share-gpus", "--option",
                "allgather=p2p", "--option", "backend=cuda"), sharing.runArguments(Path.of("/abs/f.fusion"),
                Path.of("/t.json")));
        assertEquals(java.util.Map.of("M", "64", "K", "128"), LaunchSettings.parseSymbols("M=64, K=128"));
        assertEquals(null, LaunchSettings.parseSymbols("M=sixty"));
    }

    /** A validation FAIL (exit 1) still opens the trace, its title marked; a PASS leaves the title the file's. */
    @Test
    public void aValidationFailureIsMarkedOnTheTimelineTitle() {
        String failed = "iteration 1/1: 3.1 ms\ntrace: /t.json\nvalidation: FAIL tv2: FAIL max_abs_err=1.0e+00 worst=18"
                + " of allowed at [0, 0]: expected 1, got 2 (allowed 0.05: bound 10, 64 roundings)\n";
        Optional<String> line = RunOutcome.validationLine(failed);
        assertTrue(line.orElseThrow().startsWith("validation: FAIL tv2"), line.toString());
        assertTrue(RunOutcome.opensTrace(1, line), "a validation FAIL opens the trace");
        assertEquals("/p/f.fusion \u2014 validation FAIL (see the console)", RunOutcome.timelineTitle("/p/f.fusion", line));
        Optional<String> passed = RunOutcome.validationLine("validation: PASS max_abs_err=0 worst=0 of allowed\n");
        assertEquals("/p/f.fusion", RunOutcome.timelineTitle("/p/f.fusion", passed));
        assertTrue(RunOutcome.opensTrace(0, passed));
        assertTrue(!RunOutcome.opensTrace(1, Optional.empty()), "another exit 1 is a failure dialog, not a trace");
        assertTrue(!RunOutcome.opensTrace(2, Optional.empty()));
    }
}
