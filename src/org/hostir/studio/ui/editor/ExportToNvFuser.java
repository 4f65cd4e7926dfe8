package org.hostir.studio.ui.editor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.jface.dialogs.InputDialog;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.window.Window;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.FileDialog;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.handlers.HandlerUtil;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.rules.FusionBindings;

/**
 * File > Export as nvFuser C++ Test... / Python Script...: the fusion of the active editor (or the {@code .fusion}
 * file selected in a navigator) exported through the engine ({@code hirstudio export}'s code) to a file the user
 * chooses; an existing file is replaced only after the dialog's overwrite question.
 */
public class ExportToNvFuser extends AbstractHandler {
    public static final String CPP_COMMAND = "org.hostir.studio.ui.editor.exportCpp";
    public static final String PYTHON_COMMAND = "org.hostir.studio.ui.editor.exportPython";

    @Override
    public Object execute(ExecutionEvent event) {
        Shell shell = HandlerUtil.getActiveShell(event);
        IFile file = fusionFile(event);
        if (file == null) {
            MessageDialog.openInformation(shell, "Export to nvFuser", "Open or select a .fusion file first.");
            return null;
        }
        boolean cpp = CPP_COMMAND.equals(event.getCommand().getId());
        // as many devices as the file's meshes need, as `hirstudio export` and the launch tab take (a fixed 2
        // refused a fusion on mesh {2 3})
        InputDialog devices = new InputDialog(shell, "Export to nvFuser", "Devices (sizes the example inputs):",
                Integer.toString(suggestedDevices(file)),
                s -> s.matches("[1-9][0-9]{0,3}") ? null : "a device count from 1 to 9999");
        if (devices.open() != Window.OK) return null;
        String code;
        try {
            code = code(file, Integer.parseInt(devices.getValue()), cpp);
        } catch (EngineFailure e) {
            MessageDialog.openError(shell, "Export to nvFuser", String.join("\n", e.lines()));
            return null;
        } catch (CoreException | IOException e) {
            MessageDialog.openError(shell, "Export to nvFuser", file.getFullPath() + ": cannot read the file");
            return null;
        }
        save(shell, HandlerUtil.getActiveWorkbenchWindow(event), file, code, cpp);
        return null;
    }

    /** What an export writes, as the status line names it. */
    static String what(boolean cpp) { return cpp ? "nvFuser C++ test" : "nvFuser Python script"; }

    /** The devices {@code file}'s meshes need (at least 2); 2 when it cannot be read (exporting then says why). */
    static int suggestedDevices(IFile file) {
        try (var in = file.getContents(true)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return Engine.defaultDevices(new FusionSource.Text(text, file.getFullPath().toString()));
        } catch (CoreException | IOException e) {
            return FusionBindings.DEFAULT_DEVICES;
        }
    }

    /** The fusion of {@code file} (as saved) exported for {@code devices} devices, as C++ or Python. */
    static String code(IFile file, int devices, boolean cpp) throws EngineFailure, CoreException, IOException {
        try (var in = file.getContents(true)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            var loaded = Engine.load(new FusionSource.Text(text, file.getFullPath().toString()), devices, Map.of());
            return Engine.export(loaded, cpp ? Engine.ExportLanguage.CPP : Engine.ExportLanguage.PYTHON);
        }
    }

    private static void save(Shell shell, IWorkbenchWindow window, IFile file, String code, boolean cpp) {
        String extension = cpp ? ".cpp" : ".py";
        FileDialog d = new FileDialog(shell, SWT.SAVE);
        d.setOverwrite(true);
        d.setFileName(file.getName().replaceFirst("\\.fusion$", "") + extension);
        // beside the fusion (the dialog opened in the Studio's installation folder, issue 35 driven by hand)
        if (file.getLocation() != null) d.setFilterPath(file.getLocation().removeLastSegments(1).toOSString());
        String target = d.open();
        if (target == null) return;
        try {
            Files.writeString(Path.of(target), code);
            ExportNotice.tell(window, what(cpp), Path.of(target));
        } catch (IOException e) {
            MessageDialog.openError(shell, "Export to nvFuser", target + ": " + e.getMessage());
        }
    }

    /** The editor's file when the editor is the active part (its graph menu), else the selected file (a navigator's). */
    private static IFile fusionFile(ExecutionEvent event) {
        IEditorPart editor = HandlerUtil.getActiveEditor(event);
        boolean inEditor = editor != null && HandlerUtil.getActivePart(event) == editor;
        IFile f = inEditor ? editor.getEditorInput().getAdapter(IFile.class) : null;
        if (f == null && HandlerUtil.getCurrentStructuredSelection(event).getFirstElement() instanceof IFile s) f = s;
        if (f == null && editor != null) f = editor.getEditorInput().getAdapter(IFile.class);
        return f != null && "fusion".equals(f.getFileExtension()) ? f : null;
    }
}
