package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.e4.ui.model.application.MApplication;
import org.eclipse.e4.ui.model.application.ui.MUIElement;
import org.eclipse.e4.ui.model.application.ui.basic.MWindow;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeColumn;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.SampleFusions;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand: in the Host IR perspective the Problems view showed Eclipse's first look, the Errors
 * group collapsed and a narrow Description column, so a person saw no error text. In a workspace where the view
 * has never shown (its part without a memento), the person opens a fusion with an error and shows the Problems view
 * (Alt+Shift+Q X):
 * the Errors group is expanded, the error's row is in sight and its Description column holds the whole text, at
 * 1280 x 800 and at 1600 x 1000.
 */
public class ProblemsViewDefaultsJourneyTest {
    private Journey journey;

    @AfterEach
    public void tidy() {
        if (journey == null) return;
        journey.hide(IPageLayout.ID_PROBLEM_VIEW);
        journey.closeEditors();
    }

    @Test
    public void at1280x800TheErrorReads() throws Exception { errorReads(1280, 800); }

    @Test
    public void at1600x1000TheErrorReads() throws Exception { errorReads(1600, 1000); }

    private void errorReads(int width, int height) throws Exception {
        neverShown();
        journey = Journey.inResetStudio(width, height);
        Person person = journey.person();
        IFile f = ViewTestSupport.workspaceFile("problems-defaults", "mismatch.fusion", SampleFusions.MISMATCH);
        FusionEditor editor = journey.open(f);
        assertTrue(f.findMarkers(FusionEditor.MARKER, true, 0).length > 0, "the fusion has its error marker");
        // Alt+Shift+Q X, Eclipse's key for the Problems view (a press on a part stack's tab starts the stack's drag
        // tracker under the posted press, which waits for a release that comes only after it)
        page(journey).activate(editor);
        person.lookAt(journey.shell());
        person.press(SWT.ALT | SWT.SHIFT, 'q');
        person.press(0, 'x');
        Tree tree = null;
        TreeItem row = null;
        for (int tries = 0; tries < 30 && row == null; tries++) {
            person.settle(300);
            tree = problemsTree(journey);
            row = tree == null ? null : shownRow(tree, "contracted");
        }
        String size = width + " x " + height;
        ViewTestSupport.screenshot(journey.shell(), "problems-defaults-" + width + ".png");
        assertNotNull(tree, size + ": the Problems view shows");
        assertNotNull(row, size + ": the error's row shows without a click on its group: " + rows(tree));
        TreeItem group = row.getParentItem();
        assertTrue(group != null && group.getText(0).startsWith("Errors") && group.getExpanded(),
                size + ": under the expanded Errors group");
        TreeColumn description = tree.getColumn(tree.getColumnOrder()[0]);
        assertEquals("Description", description.getText(), size + ": Description first");
        GC gc = new GC(tree);
        int text = gc.textExtent(row.getText(0)).x;
        gc.dispose();
        Rectangle image = row.getImageBounds(0);
        int ends = image.x + image.width + 4 + text + tree.getHorizontalBar().getSelection();
        assertTrue(ends <= description.getWidth(), size + ": the Description column (" + description.getWidth()
                + " px) holds \"" + row.getText(0) + "\", which ends at " + ends + " px");
        Rectangle area = tree.getClientArea();
        Rectangle at = row.getBounds(0);
        assertTrue(at.y >= 0 && at.y + at.height <= area.height && description.getWidth() <= area.width,
                size + ": the row and its description in the view's " + area + ": " + at);
        assertEquals(f, editor.getEditorInput().getAdapter(IFile.class));
    }

    /**
     * The Problems view as in a workspace where it never showed: closed, and its part without the memento that a
     * showing leaves (the compatibility layer's key), so that the perspective's reset places it afresh.
     */
    private static void neverShown() {
        var page = ViewTestSupport.page();
        var ref = page.findViewReference(IPageLayout.ID_PROBLEM_VIEW);
        if (ref != null) page.hideView(ref);
        MApplication app = PlatformUI.getWorkbench().getService(MApplication.class);
        for (MWindow w : app.getChildren()) {
            for (MUIElement e : w.getSharedElements()) {
                if (IPageLayout.ID_PROBLEM_VIEW.equals(e.getElementId())) e.getPersistedState().remove("memento");
            }
        }
    }

    private static org.eclipse.ui.IWorkbenchPage page(Journey journey) { return journey.page(); }

    /** The Problems view's tree, once it shows. */
    private static Tree problemsTree(Journey journey) {
        var view = journey.page().findView(IPageLayout.ID_PROBLEM_VIEW);
        if (view == null) return null;
        return view.getSite().getSelectionProvider() instanceof org.eclipse.jface.viewers.TreeViewer v
                && v.getControl().isVisible() ? v.getTree() : null;
    }

    /** The row saying {@code text} that the tree shows: under expanded groups only, as a person sees them. */
    private static TreeItem shownRow(Tree tree, String text) {
        for (TreeItem group : tree.getItems()) {
            if (!group.getExpanded()) continue;
            for (TreeItem item : group.getItems()) if (item.getText(0).contains(text)) return item;
        }
        return null;
    }

    private static List<String> rows(Tree tree) {
        List<String> rows = new ArrayList<>();
        if (tree != null) for (TreeItem group : tree.getItems()) rows.add(group.getText(0) + (group.getExpanded() ? " v" : " >"));
        return rows;
    }
}
