package org.hostir.studio.ui.timeline;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.swt.widgets.Display;
import org.hostir.studio.trace.TraceRun;
import org.hostir.studio.trace.analysis.TraceComparison;
import org.hostir.studio.trace.imported.TraceFiles;

/**
 * Compare With...: reads the other run's trace files ({@link TraceFiles}: the Studio's, a PyTorch profile of one
 * file per rank, NVFUSER_TRACE) and compares the shown run with it ({@link TraceComparison}, what
 * {@code hirstudio trace diff A B} prints), off the UI thread; the result or a one-line reason why not comes back
 * on it. A job of the view's summary family, so that tests and callers can join it.
 */
final class CompareJob extends Job {
    private final TraceRun shown;
    private final List<Path> files;
    private final Display display;
    private final Consumer<TraceComparison> done;
    private final Consumer<String> failed;

    private CompareJob(TraceRun shown, List<Path> files, Display display, Consumer<TraceComparison> done,
                       Consumer<String> failed) {
        super("Compare traces");
        this.shown = shown;
        this.files = List.copyOf(files);
        this.display = display;
        this.done = done;
        this.failed = failed;
        setSystem(true);
    }

    /** Compares {@code shown} (A) with the run in {@code files} (B); {@code done} or {@code failed} on the UI thread. */
    static void schedule(TraceRun shown, List<Path> files, Display display, Consumer<TraceComparison> done,
                         Consumer<String> failed) {
        new CompareJob(shown, files, display, done, failed).schedule();
    }

    @Override
    protected IStatus run(IProgressMonitor monitor) {
        try {
            TraceComparison c = TraceComparison.of(shown, named(TraceFiles.open(files).run(), files));
            display.asyncExec(() -> done.accept(c));
        } catch (IOException | RuntimeException e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            display.asyncExec(() -> failed.accept("Cannot compare with " + files + ": " + why));
        }
        return Status.OK_STATUS;
    }

    @Override
    public boolean belongsTo(Object family) { return family == TimelineView.SUMMARY_FAMILY; }

    /** A run's name in the view and its reports: its file, or its first file and how many there are. */
    static String label(List<Path> files) {
        return files.size() == 1 ? files.getFirst().getFileName().toString()
                : files.size() + " files from " + files.getFirst().getFileName();
    }

    /** {@code run} named by its files' names ({@link #label}), not by their whole paths. */
    static TraceRun named(TraceRun run, List<Path> files) {
        return new TraceRun(label(files), run.timeline(), run.launches(), run.counters());
    }
}
