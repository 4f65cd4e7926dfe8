package org.hostir.studio.ui.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
 * Follows one launched run: keeps the {@code error:} lines it prints, and when the process ends opens its trace
 * in the timeline view (exit 0 with a trace) or reports the failure in a dialog, naming the diagnostic the
 * console also shows. A terminated (cancelled) run is not an error.
 */
final class RunWatcher implements IDebugEventSetListener {
    private final IProcess process;
    private final Path trace;
    private final String file;
    private final List<String> errors = new ArrayList<>();
    private volatile boolean cancelled;

    RunWatcher(IProcess process, Path trace, String file) {
        this.process = process;
        this.trace = trace;
        this.file = file;
    }

    void watch() {
        IStreamMonitor err = process.getStreamsProxy() == null ? null : process.getStreamsProxy().getErrorStreamMonitor();
        if (err != null) {
            err.addListener((text, monitor) -> collect(text));
            collect(err.getContents());
        }
        DebugPlugin.getDefault().addDebugEventListener(this);
        if (process.isTerminated()) finished();
    }

    private synchronized void collect(String text) {
        for (String line : text.split("\\R")) {
            if (line.startsWith("error:") || line.startsWith("  ") && !errors.isEmpty()) errors.add(line);
        }
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
        if (exit == 0 && Files.isRegularFile(trace)) {
            display.asyncExec(() -> TraceOpener.open(trace, file));
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
