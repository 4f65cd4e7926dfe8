package org.hostir.studio.ui.launch;

import java.nio.file.Path;
import java.util.Map;

import org.eclipse.core.commands.Command;
import org.eclipse.core.commands.ParameterizedCommand;
import org.eclipse.core.commands.common.CommandException;
import org.eclipse.core.runtime.ILog;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.commands.ICommandService;
import org.eclipse.ui.handlers.IHandlerService;

/**
 * Opens a run's Chrome trace in the Timeline view (on the UI thread) through the timeline's "Show Trace" command,
 * so the launch does not depend on the view's classes: the views and the launch talk through the workbench.
 */
final class TraceOpener {
    static final String SHOW_TRACE = "org.hostir.studio.ui.timeline.showTrace";

    private TraceOpener() {}

    static void open(Path trace, String title) {
        var workbench = PlatformUI.getWorkbench();
        Command command = workbench.getService(ICommandService.class).getCommand(SHOW_TRACE);
        ParameterizedCommand show = ParameterizedCommand.generateCommand(command,
                Map.of("path", trace.toString(), "title", title));
        try {
            workbench.getService(IHandlerService.class).executeCommand(show, null);
        } catch (CommandException e) {
            ILog.of(TraceOpener.class).error("could not show the trace " + trace, e);
        }
    }
}
