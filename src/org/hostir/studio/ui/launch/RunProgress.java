package org.hostir.studio.ui.launch;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.debug.core.DebugException;
import org.eclipse.debug.core.model.IProcess;
import org.eclipse.debug.core.model.IStreamMonitor;

/**
 * A launched run in the Progress view for as long as its process lives, with the engine's latest progress line
 * as its detail (the iteration, how many ranks are done, the validation); cancelling it there terminates the run
 * (issue 35: a long run showed nothing but the console, which printed nothing for 11 s).
 */
final class RunProgress extends Job {
    /** The family of these jobs, for tests and callers that wait for launched runs. */
    static final Object FAMILY = RunProgress.class;
    private final IProcess process;
    private final StringBuilder partial = new StringBuilder();
    private volatile String latest = "starting the engine";

    private RunProgress(IProcess process, String file) {
        super("Host IR run: " + file);
        this.process = process;
        setPriority(LONG);
    }

    /** Shows the run of {@code file} by {@code process} in the Progress view until it ends. */
    static void follow(IProcess process, String file) {
        RunProgress job = new RunProgress(process, file);
        IStreamMonitor out = process.getStreamsProxy() == null ? null
                : process.getStreamsProxy().getOutputStreamMonitor();
        if (out != null) out.addListener((text, monitor) -> job.output(text));
        job.schedule();
    }

    /** The engine's output as it arrives: the last whole line becomes the detail. */
    private synchronized void output(String text) {
        partial.append(text);
        int end = partial.lastIndexOf("\n");
        if (end < 0) return;
        String lines = partial.substring(0, end);
        partial.delete(0, end + 1);
        String last = lines.substring(lines.lastIndexOf('\n') + 1).strip();
        if (!last.isEmpty()) latest = compact(last);
    }

    private static final java.util.regex.Pattern TASKS = java.util.regex.Pattern.compile(
            "(.*?: )(\\d+ of \\d+ ranks done \\([0-9.]+ s\\)), (\\d+) of (\\d+) stream tasks run");

    /**
     * The line as the Progress view's narrow label shows it: the stream tasks first and short, so that the ranks
     * done stay at the end, which the label keeps when it elides the middle ("Host IR run: pla...8 ranks done").
     */
    static String compact(String line) {
        var m = TASKS.matcher(line);
        return m.matches() ? m.group(1) + m.group(3) + "/" + m.group(4) + " tasks, " + m.group(2) : line;
    }

    @Override
    protected IStatus run(IProgressMonitor monitor) {
        monitor.beginTask(getName(), IProgressMonitor.UNKNOWN);
        String shown = null;
        while (!process.isTerminated()) {
            if (monitor.isCanceled()) {
                try {
                    process.terminate();
                } catch (DebugException e) {
                    return e.getStatus();
                }
                return Status.CANCEL_STATUS;
            }
            String now = latest;
            if (!now.equals(shown)) monitor.subTask(shown = now);
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        monitor.done();
        return Status.OK_STATUS;
    }

    @Override
    public boolean belongsTo(Object family) { return family == FAMILY; }
}
