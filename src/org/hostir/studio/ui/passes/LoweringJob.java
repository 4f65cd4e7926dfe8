package org.hostir.studio.ui.passes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.function.Function;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.SubMonitor;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.swt.widgets.Display;

/**
 * Lowers for the Lowering view off the UI thread: the rank it shows of the text an edit left (or of the file), or
 * one more rank of a fusion already loaded. Progress per rank, cancellable between ranks, and the result (a failure
 * too) handed to the UI thread unless cancelled. It belongs to {@link LoweringView#JOB_FAMILY}, so that tests and
 * callers can join it.
 */
final class LoweringJob extends Job {
    private final Function<LoweringResult.Progress, LoweringResult> work;
    private final Display display;
    private final Consumer<LoweringResult> done;

    /** {@code work} runs in the job with a progress that reports to its monitor; {@code done} on {@code display}'s thread. */
    LoweringJob(String name, Function<LoweringResult.Progress, LoweringResult> work, Display display,
                Consumer<LoweringResult> done) {
        super("Lowering " + name);
        this.work = work;
        this.display = display;
        this.done = done;
    }

    @Override
    protected IStatus run(IProgressMonitor monitor) {
        SubMonitor sub = SubMonitor.convert(monitor, getName(), 2);
        LoweringResult r = work.apply((rank, of) -> {
            sub.subTask("rank " + rank + " of " + of);
            sub.worked(1);
            return !sub.isCanceled();
        });
        if (r == null || monitor.isCanceled()) return Status.CANCEL_STATUS;
        display.asyncExec(() -> done.accept(r));
        return Status.OK_STATUS;
    }

    /** The saved text of {@code file}, or null when it cannot be read (the result then says so). */
    static String read(IFile file) {
        try (var in = file.getContents(true)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (CoreException | IOException e) {
            return null;
        }
    }

    @Override
    public boolean belongsTo(Object family) { return family == LoweringView.JOB_FAMILY; }
}
