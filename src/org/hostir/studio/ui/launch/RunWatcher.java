package org.hostir.studio.ui.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.eclipse.debug.core.DebugEvent;
import org.eclipse.debug.core.DebugException;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.IDebugEventSetListener;
import org.eclipse.debug.core.model.IProcess;
import org.eclipse.debug.core.model.IStreamMonitor;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.PlatformUI;

/**
 * Follows one launched run: keeps the {@code error:} lines it prints and its {@code validation:} line, and when
 * the process ends opens its trace in the timeline view (exit 0, or a validation FAIL, which the title marks:
 * {@link RunOutcome}) or reports the failure in a dialog, naming the diagnostic the console also shows. A
 * terminated (cancelled) run is not an error.
 */
final class RunWatcher implements IDebugEventSetListener {
    private final IProcess process;
    private final Path trace;
    private final String file;
    /** The fusion file's workspace path and the run's settings, for the Timeline's Predict (null: none). */
    private final String workspaceFile;
    private final String settings;
    /** The run's lowering for the Timeline's Show In ({@link LaunchSettings#loweringShown()}; null: none). */
    private final String lowering;
    private final List<String> errors = new ArrayList<>();
    private final StringBuilder validation = new StringBuilder();
    private volatile boolean cancelled;

    RunWatcher(IProcess process, Path trace, String file, String workspaceFile, String settings, String lowering) {
        this.process = process;
        this.trace = trace;
        this.file = file;
        this.workspaceFile = workspaceFile;
        this.settings = settings;
        this.lowering = lowering;
    }

    void watch() {
        IStreamMonitor err = process.getStreamsProxy() == null ? null : process.getStreamsProxy().getErrorStreamMonitor();
        if (err != null) {
            err.addListener((text, monitor) -> collect(text));
            collect(err.getContents());
        }
        IStreamMonitor out = process.getStreamsProxy() == null ? null : process.getStreamsProxy().getOutputStreamMonitor();
        if (out != null) {
            out.addListener((text, monitor) -> keepValidation(text));
            keepValidation(out.getContents());
        }
        DebugPlugin.getDefault().addDebugEventListener(this);
        if (process.isTerminated()) finished();
    }

    private synchronized void collect(String text) {
        for (String line : text.split("\\R")) {
            if (line.startsWith("error:") || line.startsWith("  ") && !errors.isEmpty()) errors.add(line);
        }
    }

    /** The last validation line so far (output arrives in pieces, so a partial line is kept until its end). */
    private synchronized void keepValidation(String text) {
        validation.append(text);
        int lastLine = validation.lastIndexOf("\n");
        String kept = RunOutcome.validationLine(validation.substring(0, Math.max(lastLine, 0))).orElse("");
        String partial = lastLine < 0 ? validation.toString() : validation.substring(lastLine + 1);
        validation.setLength(0);
        validation.append(kept).append('\n').append(partial);
    }

    @Override
    public void handleDebugEvents(DebugEvent[] events) {
        for (DebugEvent e : events) {
            if (e.getSource() == process && e.getKind() == DebugEvent.TERMINATE) {
                DebugPlugin.getDefault().removeDebugEventListener(this);
                finished();
            }
        }
    }

    /** Called when the user terminates the launch: no failure dialog for that. */
    void cancel() { cancelled = true; }

    private void finished() {
        int exit;
        try {
            exit = process.getExitValue();
        } catch (DebugException notYet) {
            return;
        }
        if (!PlatformUI.isWorkbenchRunning()) return;
        Display display = PlatformUI.getWorkbench().getDisplay();
        Optional<String> verdict;
        synchronized (this) {
            verdict = RunOutcome.validationLine(validation.toString());
        }
        if (RunOutcome.opensTrace(exit, verdict) && Files.isRegularFile(trace)) {
            display.asyncExec(() -> TraceOpener.open(trace, RunOutcome.timelineTitle(file, verdict), workspaceFile,
                    settings, lowering));
        } else if (!cancelled && exit != 0 && exit != 143 && exit != 137) {
            String why;
            synchronized (this) {
                why = errors.isEmpty() ? "the run exited with code " + exit + "; see the console"
                        : String.join("\n", errors);
            }
            display.asyncExec(() -> MessageDialog.openError(display.getActiveShell(), "Host IR run failed",
                    file + "\n\n" + why));
        }
    }
}
