package org.hostir.studio.ui.launch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.eclipse.debug.core.model.IProcess;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.console.IConsole;
import org.eclipse.ui.console.IOConsole;
import org.eclipse.ui.console.IOConsoleOutputStream;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.ui.LoweringShown;
import org.hostir.studio.ui.ViewIds;

/**
 * A run's console line when the run does not lower its file as the Lowering view shows it: a launch takes its
 * configuration's devices and options (Run Configurations...), and a person who had set 4 devices in the view saw a
 * 2-device run with no word about it (issue 35).
 */
final class LoweringViewNote {
    /** How often, 100 ms apart, the note waits for the process's console to exist. */
    private static final int CONSOLE_TRIES = 50;

    private LoweringViewNote() {}

    /**
     * The note for a run with {@code run} while the Lowering view shows {@code shown}: each setting that differs,
     * the run's value first; null when they agree or the view shows another file (or none).
     */
    static String of(LaunchSettings run, LoweringShown shown) {
        if (shown == null || !shown.file().equals(run.file())) return null;
        Map<String, String> ran = new LinkedHashMap<>(LoweringOptions.DEFAULTS.asMap());
        ran.putAll(run.loweringOptions());
        List<String> differ = new ArrayList<>();
        if (shown.devices() != run.devices()) differ.add(run.devices() + " devices (the view: " + shown.devices() + ")");
        new TreeMap<>(shown.options()).forEach((key, viewed) -> {
            String value = ran.get(key);
            if (value != null && !value.equals(viewed)) differ.add(key + "=" + value + " (the view: " + viewed + ")");
        });
        return differ.isEmpty() ? null
                : "note: this run lowers with its launch configuration's settings, not the Lowering view's: "
                        + String.join(", ", differ) + "; Run > Run Configurations... sets them";
    }

    /** Writes the note, if any, for the run of {@code process} into its console (on the UI thread, soon). */
    static void tell(IProcess process, LaunchSettings run) {
        if (!PlatformUI.isWorkbenchRunning()) return;
        Display display = PlatformUI.getWorkbench().getDisplay();
        display.asyncExec(() -> {
            String note = of(run, shown());
            if (note != null) write(process, note, CONSOLE_TRIES);
        });
    }

    /** What the Lowering view of the active window shows, or null (no window, no view, no file). */
    private static LoweringShown shown() {
        IWorkbenchWindow window = PlatformUI.getWorkbench().getActiveWorkbenchWindow();
        if (window == null || window.getActivePage() == null) return null;
        IViewPart view = window.getActivePage().findView(ViewIds.LOWERING);
        return view == null ? null : view.getAdapter(LoweringShown.class);
    }

    /** The process's console is made when the debug UI hears of the process: until then, tries again. */
    private static void write(IProcess process, String note, int tries) {
        IConsole console = DebugUITools.getConsole(process);
        if (console instanceof IOConsole io) {
            try (IOConsoleOutputStream out = io.newOutputStream()) {
                out.write(note + System.lineSeparator());
            } catch (IOException e) {
                // the console was closed meanwhile: there is no one to tell
            }
        } else if (tries > 0) {
            Display.getCurrent().timerExec(100, () -> write(process, note, tries - 1));
        }
    }
}
