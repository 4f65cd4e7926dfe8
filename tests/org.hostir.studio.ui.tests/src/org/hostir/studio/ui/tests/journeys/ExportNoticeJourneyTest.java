package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.jface.wizard.WizardDialog;
import org.eclipse.swt.custom.CLabel;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.ui.editor.ExportNvFuserWizard;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, Deliver 6 (export wizards): after Finish, File > Export's nvFuser wizards did not say where the file
 * went. Now, as Eclipse's own export wizards do, a file written into the workspace is selected and revealed in the
 * Project Explorer, and the status line names the file's full path (the only sign for a file outside the
 * workspace). A person clicks Finish, or types a target outside the workspace first.
 */
public class ExportNoticeJourneyTest extends JourneyTest {
    private static final String SEED = "examples/seeds/ag_matmul_p2p.fusion";

    @Test
    public void anExportIntoTheWorkspaceIsRevealedAndNamedOnTheStatusLine() throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace("export-notice", SEED, "notice.fusion");
        IViewPart explorer = page.showView(IPageLayout.ID_PROJECT_EXPLORER);
        page.activate(explorer);
        Path written = Path.of(file.getLocation().removeLastSegments(1).append("notice.cpp").toOSString());
        Files.deleteIfExists(written);
        try {
            finish(new ExportNvFuserWizard.CppTest(), file, null);
            assertTrue(Files.exists(written), "the wizard wrote " + written);
            IFile exported = ResourcesPlugin.getWorkspace().getRoot().getFileForLocation(
                    org.eclipse.core.runtime.IPath.fromOSString(written.toString()));
            var selection = (IStructuredSelection) explorer.getSite().getSelectionProvider().getSelection();
            assertEquals(List.of(exported), selection.toList(), "the Project Explorer selects the exported file");
            Tree tree = ViewTestSupport.descendants(journey.shell(), Tree.class).stream()
                    .filter(t -> t.isVisible() && t.getSelectionCount() == 1
                            && t.getSelection()[0].getText().equals("notice.cpp"))
                    .findFirst().orElseThrow(() -> new AssertionError("no tree shows notice.cpp selected"));
            assertTrue(tree.getSelection()[0].getBounds().height > 0, "the selected row is revealed");
            assertStatusLine("Exported nvFuser C++ test to " + written);
            ViewTestSupport.screenshot(journey.shell(), "export-revealed.png");
        } finally {
            Files.deleteIfExists(written);
            file.getParent().refreshLocal(1, null);
        }
    }

    @Test
    public void anExportOutsideTheWorkspaceIsNamedOnTheStatusLine() throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace("export-notice", SEED, "outside.fusion");
        Path folder = Files.createTempDirectory("hir-export-");
        Path written = folder.resolve("outside.py");
        try {
            finish(new ExportNvFuserWizard.PythonScript(), file, written.toString());
            assertTrue(Files.exists(written), "the wizard wrote " + written);
            assertEquals(0, ResourcesPlugin.getWorkspace().getRoot()
                    .findFilesForLocationURI(written.toUri()).length, "the file is outside the workspace");
            assertStatusLine("Exported nvFuser Python script to " + written);
        } finally {
            Files.deleteIfExists(written);
            Files.deleteIfExists(folder);
        }
    }

    /** The wizard on {@code file} opened as File > Export... does; the target typed when given; Finish clicked. */
    private void finish(ExportNvFuserWizard wizard, IFile file, String target) {
        wizard.init(PlatformUI.getWorkbench(), new StructuredSelection(file));
        WizardDialog dialog = new WizardDialog(journey.shell(), wizard);
        dialog.setBlockOnOpen(false);
        dialog.open();
        person.settle(300);
        try {
            if (target != null) {
                Text field = ViewTestSupport.descendants(dialog.getShell(), Text.class).get(1);   // "To file:"
                person.retype(field, target);
                assertEquals(target, field.getText());
            }
            Button finish = ViewTestSupport.descendants(dialog.getShell(), Button.class).stream()
                    .filter(b -> b.getText().replace("&", "").equals("Finish")).findFirst().orElseThrow();
            person.clickCenter(finish);
            person.settle(500);
        } finally {
            if (dialog.getShell() != null) dialog.close();
        }
        person.settle(300);
    }

    /** The workbench window's status line shows {@code text}. */
    private void assertStatusLine(String text) {
        person.until(3000, () -> statusLine().contains(text));
        person.settle(500);   // and it stays
        assertTrue(statusLine().contains(text), "the status line shows " + statusLine() + ", not " + text);
    }

    private List<String> statusLine() {
        return ViewTestSupport.descendants(journey.shell(), CLabel.class).stream()
                .filter(l -> l.isVisible() && l.getText() != null).map(CLabel::getText).toList();
    }
}
