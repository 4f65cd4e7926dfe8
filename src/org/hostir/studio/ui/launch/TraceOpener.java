package org.hostir.studio.ui.launch;

import java.io.IOException;
import java.nio.file.Path;

import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.swt.widgets.Display;
import org.hostir.studio.trace.ChromeTraceReader;
import org.hostir.studio.ui.timeline.TimelineView;

/** Opens a run's Chrome trace in the timeline view (on the UI thread). */
final class TraceOpener {
    private TraceOpener() {}

    static void open(Path trace, String title) {
        try {
            TimelineView.show(ChromeTraceReader.read(trace), title);
        } catch (IOException e) {
            MessageDialog.openError(Display.getCurrent().getActiveShell(), "Host IR trace",
                    "Cannot read the trace " + trace + ": " + e.getMessage());
        }
    }
}
