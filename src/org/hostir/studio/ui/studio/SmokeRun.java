package org.hostir.studio.ui.studio;

import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.DebugException;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.debug.core.model.IProcess;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.console.IConsole;
import org.eclipse.ui.console.TextConsole;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.launch.HostIrLaunchShortcut;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.launch.LaunchSettings;
import org.hostir.studio.ui.timeline.TimelineView;

/**
 * The product smoke test's run: launches the example as Run As > Host IR Program does (on the CPU backend, 2
 * devices, so the result does not depend on the machine's GPUs), waits without blocking the UI thread for the
 * process to end and the trace to open in the timeline view, and reports what a person would see: the exit code,
 * the console's validation line, the ranks and kinds of bars in the timeline.
 */
final class SmokeRun {
    private static final long POLL_MILLIS = 200;
    private static final long TIMEOUT_MILLIS = 150_000;

    private final IWorkbenchPage page;
    private final Consumer<List<String>> done;
    private final long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
    private ILaunchConfiguration config;

    private SmokeRun(IWorkbenchPage page, Consumer<List<String>> done) {
        this.page = page;
        this.done = done;
    }

    /** Starts the run of {@code file}; {@code done} gets the report lines on the UI thread. */
    static void start(IWorkbenchPage page, IFile file, Consumer<List<String>> done) {
        SmokeRun run = new SmokeRun(page, done);
        try {
            ILaunchConfigurationWorkingCopy copy = HostIrLaunchShortcut.configurationFor(file).getWorkingCopy();
            LaunchSettings s = LaunchAttributes.read(copy);
            LaunchAttributes.write(new LaunchSettings(s.file(), s.symbols(), "cpu", 2, s.streams(), s.iterations(),
                    s.warmup(), true, s.options()), copy);
            run.config = copy.doSave();
            DebugUITools.launch(run.config, ILaunchManager.RUN_MODE);
        } catch (CoreException e) {
            done.accept(List.of("run=cannot launch: " + e.getMessage()));
            return;
        }
        run.poll();
    }

    private void poll() {
        ILaunch launch = launch();
        IProcess process = launch == null || launch.getProcesses().length == 0 ? null : launch.getProcesses()[0];
        boolean finished = process != null && process.isTerminated() && timelineShown()
                && console(process).contains("validation:");
        boolean failed = process != null && process.isTerminated() && exit(process) != 0;
        if (finished || failed || System.currentTimeMillis() > deadline) {
            done.accept(report(process));
        } else {
            Display.getCurrent().timerExec((int) POLL_MILLIS, this::poll);
        }
    }

    private ILaunch launch() {
        for (ILaunch l : DebugPlugin.getDefault().getLaunchManager().getLaunches()) {
            if (config.equals(l.getLaunchConfiguration())) return l;
        }
        return null;
    }

    private boolean timelineShown() {
        return page.findView(TimelineView.ID) instanceof TimelineView v && v.timeline() != null;
    }

    private List<String> report(IProcess process) {
        if (process == null) return List.of("run=no process");
        if (!process.isTerminated()) return List.of("run=still running after " + TIMEOUT_MILLIS / 1000 + " s");
        String validation = console(process).lines().filter(l -> l.startsWith("validation:")).findFirst()
                .orElse("none");
        TreeSet<Integer> ranks = new TreeSet<>();
        TreeSet<String> kinds = new TreeSet<>();
        if (page.findView(TimelineView.ID) instanceof TimelineView v && v.timeline() != null) {
            for (TimelineEvent e : v.timeline().events()) {
                ranks.add(e.rank());
                if (e.kind() != EventKind.HOST) kinds.add(e.kind().name().toLowerCase(java.util.Locale.ROOT));
            }
        }
        return List.of("run=exit " + exit(process), "console=" + validation,
                "timeline-ranks=" + String.join(",", ranks.stream().map(String::valueOf).toList()),
                "timeline-kinds=" + String.join(",", kinds));
    }

    private static int exit(IProcess process) {
        try {
            return process.getExitValue();
        } catch (DebugException notYet) {
            return -1;
        }
    }

    private static String console(IProcess process) {
        IConsole console = DebugUITools.getConsole(process);
        return console instanceof TextConsole text ? text.getDocument().get() : "";
    }
}
