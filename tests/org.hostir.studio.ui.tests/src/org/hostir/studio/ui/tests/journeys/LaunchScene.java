package org.hostir.studio.ui.tests.journeys;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.model.IProcess;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Text;
import org.hostir.studio.ui.tests.ViewTestSupport;

/**
 * What stands between a launch and its end, for a failing journey's message: the dialogs on screen (title, text,
 * buttons), the launch's processes and targets, the jobs running or waiting, and where the threads that are in the
 * debug framework's launch code stand. A launch that is registered but has no process looks the same from outside
 * whether a question is open, a build waits or its delegate threw; this tells them apart.
 */
final class LaunchScene {
    private LaunchScene() { }

    static String describe(ILaunch launch, Shell main) {
        StringBuilder out = new StringBuilder();
        out.append("\n  launch: ").append(launch.getClass().getName()).append(", ")
                .append(launch.getProcesses().length).append(" process(es), ")
                .append(launch.getDebugTargets().length).append(" target(s), still in the launch manager: ")
                .append(Arrays.asList(DebugPlugin.getDefault().getLaunchManager().getLaunches()).contains(launch));
        for (var p : launch.getProcesses()) {
            String pid = p.getAttribute(IProcess.ATTR_PROCESS_ID);
            boolean alive = pid != null && ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
            out.append("\n  process ").append(p.getLabel()).append(p.isTerminated() ? " ended" : " not ended")
                    .append(", pid ").append(pid).append(alive ? " alive" : " gone");
        }
        for (ILaunch l : DebugPlugin.getDefault().getLaunchManager().getLaunches()) {
            if (l != launch && l.getLaunchConfiguration() != null && launch.getLaunchConfiguration() != null
                    && l.getLaunchConfiguration().getName().startsWith(launch.getLaunchConfiguration().getName())) {
                out.append("\n  another launch of it: ").append(l.getLaunchMode()).append(", ")
                        .append(l.getProcesses().length).append(" process(es), ended ").append(l.isTerminated());
            }
        }
        out.append("\n  breakpoints: ").append(DebugPlugin.getDefault().getBreakpointManager().getBreakpoints().length);
        for (String d : dialogs(main)) out.append("\n  dialog ").append(d);
        for (Job j : Job.getJobManager().find(null)) {
            if (j.getState() == Job.RUNNING || j.getState() == Job.WAITING) {
                out.append("\n  job ").append(j.getName()).append(j.getState() == Job.RUNNING ? " (running)" : " (waiting)");
            }
        }
        for (Map.Entry<Thread, StackTraceElement[]> t : Thread.getAllStackTraces().entrySet()) {
            // the launch job, the process's monitor and stream readers, our listeners
            if (t.getKey() != Thread.currentThread() && Arrays.stream(t.getValue()).anyMatch(f ->
                    f.getClassName().startsWith("org.eclipse.debug") || f.getClassName().startsWith("org.hostir.studio.ui.launch"))) {
                out.append("\n  thread ").append(t.getKey().getName());
                for (StackTraceElement f : Arrays.copyOf(t.getValue(), Math.min(25, t.getValue().length))) {
                    out.append("\n    at ").append(f);
                }
            }
        }
        return out.toString();
    }

    /** Each visible shell other than the workbench window's: its title, the texts and buttons it shows. */
    static List<String> dialogs(Shell main) {
        List<String> found = new ArrayList<>();
        for (Shell s : Display.getCurrent().getShells()) {
            if (s == main || !s.isVisible()) continue;
            List<String> shown = new ArrayList<>();
            for (Label l : ViewTestSupport.descendants(s, Label.class)) if (!l.getText().isBlank()) shown.add(l.getText());
            for (Text t : ViewTestSupport.descendants(s, Text.class)) if (!t.getText().isBlank()) shown.add(t.getText());
            for (Button b : ViewTestSupport.descendants(s, Button.class)) shown.add("[" + b.getText() + "]");
            found.add("'" + s.getText() + "': " + String.join(" | ", shown));
        }
        return found;
    }
}
