package org.hostir.studio.ui.editor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.Adapters;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.wizard.Wizard;
import org.eclipse.jface.wizard.WizardPage;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.FileDialog;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Spinner;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IExportWizard;
import org.eclipse.ui.IWorkbench;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.rules.FusionBindings;

/**
 * File > Export... > Host IR > nvFuser C++ Test / nvFuser Python Script: a {@code .fusion} file of the workspace
 * (the one selected) exported through the engine, as {@link ExportToNvFuser} does, to a file on disk; an existing
 * file is replaced only after a question; after Finish the status line names the file written, and a file in the
 * workspace is selected in the Project Explorer ({@link ExportNotice}). {@link CppTest} and {@link PythonScript} are the two wizards.
 */
public abstract class ExportNvFuserWizard extends Wizard implements IExportWizard {
    private final boolean cpp;
    private IFile selected;
    private Page page;
    /** The window the wizard was opened from: its Project Explorer and status line say where the file went. */
    private org.eclipse.ui.IWorkbenchWindow window;

    ExportNvFuserWizard(boolean cpp) {
        this.cpp = cpp;
        setWindowTitle(cpp ? "Export as nvFuser C++ Test" : "Export as nvFuser Python Script");
    }

    /** File > Export... > Host IR > nvFuser C++ Test. */
    public static final class CppTest extends ExportNvFuserWizard {
        public CppTest() { super(true); }
    }

    /** File > Export... > Host IR > nvFuser Python Script. */
    public static final class PythonScript extends ExportNvFuserWizard {
        public PythonScript() { super(false); }
    }

    @Override
    public void init(IWorkbench workbench, IStructuredSelection selection) {
        Object first = selection == null ? null : selection.getFirstElement();
        IResource r = Adapters.adapt(first, IResource.class);
        if (r instanceof IFile f && "fusion".equals(f.getFileExtension())) selected = f;
        if (selected == null) selected = activeEditorsFusion(workbench);
        window = workbench == null ? null : workbench.getActiveWorkbenchWindow();
    }

    /**
     * With the fusion editor active, File > Export... passes the graph's selection, not the file: the wizard takes
     * the editor's file then, as Eclipse's own export wizards do (its fields were empty, issue 35 driven by hand).
     */
    private static IFile activeEditorsFusion(IWorkbench workbench) {
        var window = workbench == null ? null : workbench.getActiveWorkbenchWindow();
        var editor = window == null || window.getActivePage() == null ? null : window.getActivePage().getActiveEditor();
        IFile f = editor == null ? null : editor.getEditorInput().getAdapter(IFile.class);
        return f != null && "fusion".equals(f.getFileExtension()) ? f : null;
    }

    @Override
    public void addPages() {
        page = new Page();
        addPage(page);
    }

    @Override
    public boolean performFinish() {
        IFile file = page.fusion();
        Path target = Path.of(page.target.getText().strip());
        if (Files.exists(target) && !MessageDialog.openQuestion(getShell(), getWindowTitle(),
                target + " exists. Replace it?")) {
            return false;
        }
        try {
            Files.writeString(target, ExportToNvFuser.code(file, page.devices.getSelection(), cpp));
            ExportNotice.tell(window, ExportToNvFuser.what(cpp), target);
            return true;
        } catch (EngineFailure e) {
            page.setErrorMessage(String.join(" ", e.lines()));
        } catch (CoreException | IOException e) {
            page.setErrorMessage(target + ": " + e.getMessage());
        }
        return false;
    }

    /** The page: which fusion, for how many devices, to which file. */
    final class Page extends WizardPage {
        Text fusion;
        Spinner devices;
        Text target;
        /** The target last proposed for the fusion named (a target the person typed is kept). */
        private String proposed;

        Page() {
            super("nvfuser");
            setTitle(getWindowTitle());
            setDescription("Write a fusion as nvFuser " + (cpp ? "C++ test code" : "Python frontend code")
                    + "; the device count sizes the example inputs.");
        }

        @Override
        public void createControl(Composite parent) {
            Composite c = new Composite(parent, SWT.NONE);
            c.setLayout(new GridLayout(3, false));
            fusion = field(c, "Fusion file (workspace path):");
            fusion.setText(selected == null ? "" : selected.getFullPath().toString());
            new Label(c, SWT.NONE);
            new Label(c, SWT.NONE).setText("Devices:");
            devices = new Spinner(c, SWT.BORDER);
            // as many devices as the selected fusion's meshes need, as `hirstudio export` takes
            devices.setValues(selected == null ? FusionBindings.DEFAULT_DEVICES
                    : ExportToNvFuser.suggestedDevices(selected), 1, 9999, 0, 1, 8);
            new Label(c, SWT.NONE);
            target = field(c, "To file:");
            target.setText(selected == null ? "" : defaultTarget(selected));
            proposed = target.getText();
            Button browse = new Button(c, SWT.PUSH);
            browse.setText("Browse...");
            browse.addListener(SWT.Selection, e -> browse());
            fusion.addListener(SWT.Modify, e -> {
                propose();
                validate();
            });
            target.addListener(SWT.Modify, e -> validate());
            setControl(c);
            validate();
        }

        /**
         * A fusion named by typing gets a target beside it and its devices, as a selected one does, unless the
         * person wrote a target of their own (the field stayed empty).
         */
        private void propose() {
            IFile f = fusion();
            if (f == null) return;
            String proposal = defaultTarget(f);
            if (!target.getText().isBlank() && !target.getText().equals(proposed)) return;
            proposed = proposal;
            target.setText(proposal);
            devices.setSelection(ExportToNvFuser.suggestedDevices(f));
        }

        private Text field(Composite c, String label) {
            new Label(c, SWT.NONE).setText(label);
            Text t = new Text(c, SWT.BORDER);
            t.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
            return t;
        }

        private String defaultTarget(IFile f) {
            var location = f.getLocation();
            String name = f.getName().replaceFirst("\\.fusion$", "") + (cpp ? ".cpp" : ".py");
            return location == null ? name : location.removeLastSegments(1).append(name).toOSString();
        }

        private void browse() {
            FileDialog d = new FileDialog(getShell(), SWT.SAVE);
            d.setFileName(Path.of(target.getText().isBlank() ? "fusion" : target.getText()).getFileName().toString());
            Path folder = target.getText().isBlank() ? null : Path.of(target.getText()).toAbsolutePath().getParent();
            if (folder != null) d.setFilterPath(folder.toString());
            String f = d.open();
            if (f != null) target.setText(f);
        }

        /** The workspace file named in the field, or null. */
        IFile fusion() {
            String p = fusion.getText().strip();
            if (p.isEmpty()) return null;
            IResource r = ResourcesPlugin.getWorkspace().getRoot().findMember(p);
            return r instanceof IFile f && "fusion".equals(f.getFileExtension()) ? f : null;
        }

        private void validate() {
            String problem = fusion() == null ? "Name a .fusion file of the workspace (e.g. /examples/seeds/ag_matmul_p2p.fusion)"
                    : target.getText().isBlank() ? "Name the file to write" : null;
            setErrorMessage(problem);
            setPageComplete(problem == null);
        }
    }
}
