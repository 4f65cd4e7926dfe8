package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IFolder;
import org.eclipse.core.resources.IProject;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.jface.wizard.WizardDialog;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Menu;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.ide.IDE;
import org.eclipse.ui.part.ISetSelectionTarget;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.NewFusionWizard;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * The workbench around the views, used as a person does: a right-click on a .fusion file in the Project
 * Explorer offers Run As > Host IR Program; File > New lists Fusion; the wizard proposes the folder of what is
 * selected or edited.
 */
public class WorkbenchJourneyTest extends JourneyTest {

    /** Issue 18, defect 3: Run As > Host IR Program in the Project Explorer's context menu of a .fusion file. */
    @Test
    public void rightClickOnAFusionOffersRunAsHostIrProgram() throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace("runas", "examples/seeds/ag_matmul_p2p.fusion", "runas.fusion");
        IViewPart explorer = page.showView(IPageLayout.ID_PROJECT_EXPLORER);
        ((ISetSelectionTarget) explorer).selectReveal(new StructuredSelection(file));
        person.settle(300);
        // the explorer's tree: the one whose selection is the file
        Tree tree = ViewTestSupport.descendants(explorer.getViewSite().getShell(), Tree.class).stream()
                .filter(t -> t.isVisible() && t.getSelectionCount() == 1 && t.getSelection()[0].getText()
                        .equals("runas.fusion")).findFirst().orElseThrow();
        TreeItem item = tree.getSelection()[0];
        assertEquals("runas.fusion", item.getText());
        var b = item.getBounds();
        person.click(tree, b.x + b.width / 2, b.y + b.height / 2, 3, 0);   // the right button
        person.settle(400);
        Menu menu = tree.getMenu();
        assertNotNull(menu, "the explorer has a context menu");
        try {
            MenuItem runAs = find(menu, "Run As");
            assertNotNull(runAs, "Run As is in the context menu: " + texts(menu));
            Menu sub = runAs.getMenu();
            sub.notifyListeners(SWT.Show, new Event());   // what opening the submenu does: fill it
            person.settle(200);
            List<String> items = texts(sub);
            assertTrue(items.stream().anyMatch(t -> t.contains("Host IR Program")), "Run As offers: " + items);
            sub.notifyListeners(SWT.Hide, new Event());
        } finally {
            menu.setVisible(false);
            person.press(SWT.ESC);
        }
    }

    private static MenuItem find(Menu menu, String prefix) {
        for (MenuItem i : menu.getItems()) if (i.getText().replace("&", "").startsWith(prefix)) return i;
        return null;
    }

    private static List<String> texts(Menu menu) {
        List<String> out = new ArrayList<>();
        for (MenuItem i : menu.getItems()) out.add(i.getText().replace("&", ""));
        return out;
    }

    /** Issue 18, defect 9: File > New lists Fusion (not only under Other...) in the Host IR perspective. */
    @Test
    public void fileNewListsFusion() {
        page.setPerspective(PlatformUI.getWorkbench().getPerspectiveRegistry()
                .findPerspectiveWithId("org.hostir.studio.ui.studio.perspective"));
        page.resetPerspective();
        person.settle(300);
        assertTrue(List.of(page.getNewWizardShortcuts()).contains("org.hostir.studio.ui.editor.NewFusionWizard"),
                "File > New shortcuts: " + List.of(page.getNewWizardShortcuts()));
    }

    /** Issue 18, defect 9: the New Fusion wizard proposes the folder of the file being edited. */
    @Test
    public void theWizardProposesTheEditedFilesFolder() throws Exception {
        IProject p = ResourcesPlugin.getWorkspace().getRoot().getProject("wizard-folder");
        if (!p.exists()) p.create(null);
        if (!p.isOpen()) p.open(null);
        IFolder folder = p.getFolder("models");
        if (!folder.exists()) folder.create(true, true, null);
        IFile f = ViewTestSupport.workspaceFile("wizard-folder", "models/one.fusion",
                NewFusionWizard.contents("ag_matmul_p2p", "one"));
        FusionEditor e = (FusionEditor) IDE.openEditor(page, f, FusionEditor.ID);
        person.settle(200);
        NewFusionWizard wizard = new NewFusionWizard();
        // what File > New passes while the fusion editor is active: its selection (graph nodes, no resource)
        wizard.init(PlatformUI.getWorkbench(), (org.eclipse.jface.viewers.IStructuredSelection) e.getSite()
                .getSelectionProvider().getSelection());
        WizardDialog dialog = new WizardDialog(page.getWorkbenchWindow().getShell(), wizard);
        dialog.setBlockOnOpen(false);
        dialog.open();
        try {
            person.settle(300);
            assertEquals("/wizard-folder/models", wizard.proposedFolder());
            // issue 35, "templates have no descriptions": the chosen template's description is shown under it
            String empty = NewFusionWizard.description(NewFusionWizard.EMPTY);
            assertTrue(ViewTestSupport.descendants(dialog.getShell(), org.eclipse.swt.widgets.Label.class).stream()
                    .anyMatch(l -> l.isVisible() && l.getText().equals(empty)), "the empty fusion's description is shown");
            String allreduce = NewFusionWizard.description("allreduce");
            assertTrue(allreduce.startsWith("nvFuser MultiDeviceStreamParallelTypeTest.Allreduce"),
                    "a template's description is its file's: " + allreduce);
        } finally {
            dialog.close();
        }
    }
}
