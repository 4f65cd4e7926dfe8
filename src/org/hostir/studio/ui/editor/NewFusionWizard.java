package org.hostir.studio.ui.editor;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import org.eclipse.core.resources.IContainer;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.runtime.Adapters;
import org.eclipse.core.runtime.ILog;
import org.eclipse.core.runtime.Platform;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.jface.wizard.Wizard;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.ui.INewWizard;
import org.eclipse.ui.IWorkbench;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.dialogs.WizardNewFileCreationPage;
import org.eclipse.ui.ide.IDE;
import org.eclipse.ui.wizards.newresource.BasicNewResourceWizard;
import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.ui.editor.model.FusionEdits;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;

/**
 * File > New > Fusion: an empty fusion or one of the seeds' examples (the bundle's {@code templates/}
 * folder), named after the new file.
 */
public final class NewFusionWizard extends Wizard implements INewWizard {
    public static final String EMPTY = "(empty fusion)";
    private IStructuredSelection selection;
    private IWorkbench workbench;
    private Page page;

    @Override
    public void init(IWorkbench workbench, IStructuredSelection selection) {
        this.workbench = workbench;
        this.selection = folderOf(workbench, selection);
        setWindowTitle("New Fusion");
    }

    /**
     * The folder the new file goes to: the selected folder or project, the folder of a selected file, else the
     * folder of the file in the active editor (File > New with the fusion editor active selects graph nodes).
     */
    static IStructuredSelection folderOf(IWorkbench workbench, IStructuredSelection selection) {
        if (selection != null) {
            for (Object o : selection.toList()) {
                IResource r = Adapters.adapt(o, IResource.class);
                if (r instanceof IContainer c) return new StructuredSelection(c);
                if (r != null && r.getParent() != null) return new StructuredSelection(r.getParent());
            }
        }
        var window = workbench == null ? null : workbench.getActiveWorkbenchWindow();
        var editor = window == null || window.getActivePage() == null ? null : window.getActivePage().getActiveEditor();
        IFile file = editor == null ? null : editor.getEditorInput().getAdapter(IFile.class);
        return file != null ? new StructuredSelection(file.getParent()) : selection;
    }

    /** The folder the wizard's page proposes (for tests), as a workspace path. */
    public String proposedFolder() { return page == null ? null : page.getContainerFullPath().toString(); }

    @Override
    public void addPages() {
        page = new Page(selection);
        addPage(page);
    }

    @Override
    public boolean performFinish() {
        IFile file = page.createNewFile();
        if (file == null) return false;
        // shown where it was made (the Project Explorer selects it), then opened
        BasicNewResourceWizard.selectAndReveal(file, workbench.getActiveWorkbenchWindow());
        try {
            IDE.openEditor(workbench.getActiveWorkbenchWindow().getActivePage(), file, FusionEditor.ID);
        } catch (PartInitException e) {
            ILog.of(getClass()).error("could not open " + file, e);
        }
        return true;
    }

    /** The templates shipped in the bundle: file names under templates/, sorted; the empty fusion first. */
    public static List<String> templates() {
        List<String> out = new ArrayList<>();
        Bundle bundle = FrameworkUtil.getBundle(NewFusionWizard.class);
        Enumeration<URL> urls = bundle == null ? null : bundle.findEntries("templates", "*.fusion", false);
        if (urls != null) {
            for (URL u : Collections.list(urls)) {
                String path = u.getPath();
                out.add(path.substring(path.lastIndexOf('/') + 1, path.length() - ".fusion".length()));
            }
        }
        Collections.sort(out);
        out.add(0, EMPTY);
        return out;
    }

    /** The text of a new fusion named {@code name} from {@code template} (formatted as the editor writes). */
    public static String contents(String template, String name) {
        FusionDocument t = template(template);
        FusionDocument doc = t == null ? FusionEdits.empty(name) : new FusionDocument(name, t.description(),
                t.symbols(), t.tensors(), t.ops(), t.inputs(), t.outputs(), t.layout());
        return FusionWriter.write(doc);
    }

    /** What a template is, its file's description (the wizard shows it under the choice); empty for none. */
    public static String description(String template) {
        FusionDocument t = template(template);
        return template.equals(EMPTY) ? "A fusion without tensors or ops, to draw from the palette."
                : t == null || t.description() == null ? "" : t.description();
    }

    /** A shipped template read, or null (the empty fusion, or a template that cannot be read: logged). */
    private static FusionDocument template(String template) {
        Bundle bundle = Platform.getBundle("org.hostir.studio");
        URL url = template.equals(EMPTY) || bundle == null ? null : bundle.getEntry("templates/" + template + ".fusion");
        if (url == null) return null;
        try (InputStream in = url.openStream()) {
            return FusionReader.read(new String(in.readAllBytes(), StandardCharsets.UTF_8), template).document();
        } catch (IOException | FusionFileException e) {
            ILog.of(NewFusionWizard.class).error("template " + template + " is unreadable", e);
            return null;
        }
    }

    private static final class Page extends WizardNewFileCreationPage {
        private Combo template;

        Page(IStructuredSelection selection) {
            super("fusion", selection);
            setTitle("Fusion");
            setDescription("Create a fusion file, empty or from one of the seeds' examples.");
            setFileExtension("fusion");
            setFileName("fusion.fusion");
        }

        @Override
        protected void createAdvancedControls(Composite parent) {
            Composite row = new Composite(parent, SWT.NONE);
            row.setLayout(new GridLayout(2, false));
            row.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
            new Label(row, SWT.NONE).setText("Template:");
            template = new Combo(row, SWT.READ_ONLY);
            template.setItems(templates().toArray(String[]::new));
            template.select(0);
            template.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
            // what the chosen template is: its file's description (the list gave names only, issue 35)
            Label about = new Label(row, SWT.WRAP);
            GridData wide = new GridData(SWT.FILL, SWT.TOP, true, false, 2, 1);
            wide.widthHint = 400;
            about.setLayoutData(wide);
            about.setText(description(template.getText()));
            template.addListener(SWT.Selection, e -> {
                about.setText(description(template.getText()));
                row.getParent().layout(true, true);
            });
            super.createAdvancedControls(parent);
        }

        @Override
        protected InputStream getInitialContents() {
            String name = FusionDocument.nameFor(getFileName().replaceFirst("\\.fusion$", ""));
            String t = template == null ? EMPTY : template.getText();
            return new ByteArrayInputStream(contents(t, name).getBytes(StandardCharsets.UTF_8));
        }
    }
}
