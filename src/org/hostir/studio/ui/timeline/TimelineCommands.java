package org.hostir.studio.ui.timeline;

import java.io.IOException;
import java.nio.file.Path;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.Adapters;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.handlers.HandlerUtil;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.trace.ChromeTraceReader;
import org.hostir.studio.ui.LoweringShown;
import org.hostir.studio.ui.ViewIds;

/**
 * The handler of the timeline commands (plugin.xml), dispatched on the command id: the view's toolbar commands
 * and "Run on CPU and show timeline" (with the lowering view's settings, or with settings asked for), which takes
 * the selected .fusion file or the active editor's.
 */
public class TimelineCommands extends AbstractHandler {
    private static final String P = "org.hostir.studio.ui.timeline.";

    @Override
    public Object execute(ExecutionEvent event) {
        String command = event.getCommand().getId().substring(P.length());
        if (command.equals("runOnCpu") || command.equals("runOnCpuWith")) {
            IFile file = fusionFile(event);
            if (file == null) return null;
            RunSettings settings = settingsFor(file);
            if (command.equals("runOnCpuWith")) {
                settings = ask(HandlerUtil.getActiveShell(event), file, settings);
                if (settings == null) return null;
            }
            CpuRun.schedule(file, PlatformUI.getWorkbench().getDisplay(), settings);
            return null;
        }
        if (command.equals("scheduleSweep")) {
            IFile file = fusionFile(event);
            if (file == null && view(event) instanceof TimelineView v) file = v.source();
            if (file == null) {
                MessageDialog.openInformation(HandlerUtil.getActiveShell(event), ScheduleSweepDialog.TITLE,
                        "Select a .fusion file (or open it in the editor) to sweep its schedules.");
                return null;
            }
            ScheduleSweepDialog.open(HandlerUtil.getActiveShell(event), file);
            return null;
        }
        if (command.equals("predictAbove") || command.equals("comparePredicted")) {
            predictAbove(view(event), HandlerUtil.getActiveShell(event), command.equals("comparePredicted"));
            return null;
        }
        if (command.equals("showTrace")) {
            showTrace(Path.of(event.getParameter("path")), event.getParameter("title"), event.getParameter("file"),
                    event.getParameter("settings"), event.getParameter("lowering"));
            return null;
        }
        TimelineView view = view(event);
        if (view == null) return null;
        switch (command) {
            case "fit" -> view.fit();
            case "zoomIn" -> view.zoom(0.5);
            case "zoomOut" -> view.zoom(2);
            case "openTrace" -> view.openTrace();
            case "exportJson" -> view.exportInteractively(false);
            case "exportPng" -> view.exportInteractively(true);
            case "exportSvg" -> view.exportSvgInteractively();
            case "compareWith" -> view.compareWith();
            case "showInLowering" -> view.showInLowering();
            default -> { }
        }
        return null;
    }

    /** Shows a trace file in the view; a file that cannot be read is said in a dialog. */
    private static void showTrace(Path trace, String title, String file, String settings, String lowering) {
        try {
            TimelineView view = TimelineView.show(ChromeTraceReader.read(trace), title == null ? trace.toString()
                    : title, workspaceFile(file), runSettings(settings));
            if (view != null) view.setLoweringShown(loweringShown(file, lowering));
        } catch (IOException e) {
            MessageDialog.openError(Display.getCurrent().getActiveShell(), "Host IR trace",
                    "Cannot read the trace " + trace + ": " + e.getMessage());
        }
    }

    /** The workspace file a launched run came from, or null when there is none (or it is gone). */
    private static IFile workspaceFile(String path) {
        if (path == null) return null;
        IFile f = ResourcesPlugin.getWorkspace().getRoot().getFile(
                org.eclipse.core.runtime.Path.fromPortableString(path));
        return f.exists() ? f : null;
    }

    /** A launched run's lowering ({@code devices=N KEY=VALUE ...}) for Show In; null when absent or unreadable. */
    static LoweringShown loweringShown(String file, String line) {
        if (file == null || line == null) return null;
        int devices = 0;
        java.util.Map<String, String> options = new java.util.LinkedHashMap<>();
        for (String word : line.trim().split("\\s+")) {
            int eq = word.indexOf('=');
            if (eq <= 0) return null;
            String key = word.substring(0, eq), value = word.substring(eq + 1);
            if (!key.equals("devices")) {
                options.put(key, value);
            } else if (value.matches("[1-9][0-9]{0,5}")) {
                devices = Integer.parseInt(value);
            }
        }
        return devices > 0 ? new LoweringShown(file, devices, options) : null;
    }

    /** A launched run's settings as "Run on CPU" spells them, or null when absent or beyond what it can express. */
    private static RunSettings runSettings(String line) {
        if (line == null) return null;
        try {
            return RunSettings.parse(line);
        } catch (IllegalArgumentException beyond) { // e.g. more than 64 devices: Predict then says it cannot
            return null;
        }
    }

    /**
     * The settings a run of {@code file} starts from: the lowering view's devices and options when it shows the
     * same file (what a person just looked at is what runs), the defaults otherwise. The view answers its
     * {@link LoweringShown} as an adapter, so this needs only its id.
     */
    public static RunSettings settingsFor(IFile file) {
        var window = PlatformUI.getWorkbench().getActiveWorkbenchWindow();
        IViewPart lowering = window == null || window.getActivePage() == null ? null
                : window.getActivePage().findView(ViewIds.LOWERING);
        LoweringShown context = lowering == null ? null : Adapters.adapt(lowering, LoweringShown.class);
        if (context == null || !context.file().equals(file.getFullPath().toString())) return RunSettings.DEFAULTS;
        return new RunSettings(context.devices(), context.options(), java.util.Map.of());
    }

    /** "Run on CPU with Settings...": one line of key=value words, checked as it is typed; null when cancelled. */
    private static RunSettings ask(org.eclipse.swt.widgets.Shell shell, IFile file, RunSettings start) {
        var dialog = new org.eclipse.jface.dialogs.InputDialog(shell, "Run " + file.getName() + " on CPU",
                "Devices, lowering options and symbol bindings, as key=value words, e.g.\n"
                        + "devices=2 numberOfStreams=4 allgather=p2p N=1024", start.format(), text -> {
                    try {
                        RunSettings.parse(text);
                        return null;
                    } catch (IllegalArgumentException e) {
                        return e.getMessage();
                    }
                });
        return dialog.open() == org.eclipse.jface.window.Window.OK ? RunSettings.parse(dialog.getValue()) : null;
    }

    /**
     * "Show Prediction Above..." and "Compare With Prediction...": the machine asked for, then the shown run's
     * prediction stacked above it, or compared with it ({@code compare}).
     */
    private static void predictAbove(TimelineView view, org.eclipse.swt.widgets.Shell shell, boolean compare) {
        if (view == null) return;
        if (view.runSettings() == null || view.source() == null) {
            MessageDialog.openInformation(shell, ProfileDialog.TITLE, "The Timeline shows no run made in the Studio."
                    + " Run a .fusion file first (Run on CPU and Show Timeline); its prediction is then "
                    + (compare ? "compared with it." : "shown above it."));
            return;
        }
        new ProfileDialog(shell, RunRequest.DEFAULT_PROFILE, compare,
                profile -> {
                    if (compare) Prediction.compare(view, profile);
                    else Prediction.schedule(view, profile);
                }).open();
    }

    private static IFile fusionFile(ExecutionEvent event) {
        ISelection selection = HandlerUtil.getCurrentSelection(event);
        if (selection instanceof IStructuredSelection s && s.getFirstElement() != null) {
            Object o = s.getFirstElement();
            IFile f = o instanceof IFile file ? file
                    : o instanceof org.eclipse.core.runtime.IAdaptable a ? a.getAdapter(IFile.class) : null;
            if (f != null && "fusion".equals(f.getFileExtension())) return f;
        }
        IEditorPart editor = HandlerUtil.getActiveEditor(event);
        if (editor != null) {
            IFile f = editor.getEditorInput().getAdapter(IFile.class);
            if (f != null && "fusion".equals(f.getFileExtension())) return f;
        }
        return null;
    }

    private static TimelineView view(ExecutionEvent event) {
        IWorkbenchPart part = HandlerUtil.getActivePart(event);
        if (part instanceof TimelineView v) return v;
        var window = HandlerUtil.getActiveWorkbenchWindow(event);
        if (window == null || window.getActivePage() == null) return null;
        try {
            IViewPart v = window.getActivePage().showView(TimelineView.ID);
            return v instanceof TimelineView tv ? tv : null;
        } catch (PartInitException e) {
            return null;
        }
    }
}
