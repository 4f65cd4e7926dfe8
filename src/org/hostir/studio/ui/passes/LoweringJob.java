package org.hostir.studio.ui.passes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.SubMonitor;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.swt.widgets.Display;
import org.hostir.studio.lower.LoweringOptions;

/**
 * Lowers one workspace fusion file (the text of its editor when one is open, else the file) for every rank off the UI thread, for the lowering view: progress per rank,
 * cancellable between ranks, and the result (a failure too) handed to the UI thread unless cancelled. It belongs
 * to {@link LoweringView#JOB_FAMILY}, so that tests and callers can join it.
 */
final class LoweringJob extends Job {
    private final IFile file;
    /** The editor's text to lower (unsaved changes included), or null to read the file. */
    private final String text;
    private final int devices;
    private final LoweringOptions options;
    private final Display display;
    private final Consumer<LoweringResult> done;

    /** {@code done} runs on {@code display}'s thread. */
    LoweringJob(IFile file, String text, int devices, LoweringOptions options, Display display,
                Consumer<LoweringResult> done) {
        super("Lowering " + file.getName());
        this.file = file;
        this.text = text;
        this.devices = devices;
        this.options = options;
        this.display = display;
        this.done = done;
    }

    @Override
    protected IStatus run(IProgressMonitor monitor) {
        SubMonitor sub = SubMonitor.convert(monitor, "Lowering " + file.getName(), devices + 1);
        String source = text;
        if (source == null) {
            try (var in = file.getContents(true)) {
                source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (CoreException | IOException e) {
                source = null;
            }
        }
        String path = file.getFullPath().toString();
        sub.worked(1);
        LoweringResult r = source == null
                ? new LoweringResult.Failed(path, List.of(path + ": cannot read the file"))
                : LoweringResult.lower(source, path, devices, options, (rank, of) -> {
                    sub.subTask("rank " + rank + " of " + of);
                    sub.worked(1);
                    return !sub.isCanceled();
                });
        if (r == null || monitor.isCanceled()) return Status.CANCEL_STATUS;
        display.asyncExec(() -> done.accept(r));
        return Status.OK_STATUS;
    }

    @Override
    public boolean belongsTo(Object family) { return family == LoweringView.JOB_FAMILY; }
}
