package org.hostir.studio.ui.launch;

import java.nio.file.Path;
import java.util.HashMap;
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

    /**
     * {@code file}, {@code settings} and {@code lowering} (any may be null): the run's fusion file, its settings for
     * Predict and its lowering for Show In.
     */
    static void open(Path trace, String title, String file, String settings, String lowering) {
        var workbench = PlatformUI.getWorkbench();
        Command command = workbench.getService(ICommandService.class).getCommand(SHOW_TRACE);
        Map<String, Object> parameters = new HashMap<>(Map.of("path", trace.toString(), "title", title));
        if (file != null && (settings != null || lowering != null)) parameters.put("file", file);
        if (file != null && settings != null) parameters.put("settings", settings);
        if (file != null && lowering != null) parameters.put("lowering", lowering);
        ParameterizedCommand show = ParameterizedCommand.generateCommand(command, parameters);
        try {
            workbench.getService(IHandlerService.class).executeCommand(show, null);
        } catch (CommandException e) {
            ILog.of(TraceOpener.class).error("could not show the trace " + trace, e);
        }
    }
}
