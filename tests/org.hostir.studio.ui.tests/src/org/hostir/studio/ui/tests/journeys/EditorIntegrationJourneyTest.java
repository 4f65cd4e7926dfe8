package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.commands.Command;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IMarker;
import org.eclipse.core.runtime.ILogListener;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Platform;
import org.eclipse.jface.text.ITextSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CCombo;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.commands.ICommandService;
import org.eclipse.ui.texteditor.ITextEditor;
import org.eclipse.ui.views.properties.PropertySheet;
import org.eclipse.ui.views.properties.PropertySheetPage;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.FusionOutlinePage;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.SampleFusions;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, the editor's place in Eclipse, by keys and clicks: Undo and Redo while Properties has the focus and Ctrl+Y
 * on Linux, a multi-selection's common values in Properties, the Device mesh cell offering {@code all}, an op with an
 * error framed in red and its problem opened by a double-click in the Problems view, the Outline's tree in step with the
 * graph (and its overview dragged without an error logged), and the quick fix that sets a mesh to all.
 */
public class EditorIntegrationJourneyTest extends JourneyTest {

    private FusionEditor open(String seed, String as) throws Exception {
        FusionEditor e = journey.openSeed("integration", seed, as);
        page.activate(e);
        person.settle(150);
        return e;
    }

    private FusionEditor openFile(IFile f) throws Exception {
        FusionEditor e = journey.open(f);
        page.activate(e);
        person.settle(200);
        return e;
    }

    private static Tree propertiesTree() throws Exception {
        PropertySheet sheet = (PropertySheet) ViewTestSupport.page().showView(IPageLayout.ID_PROP_SHEET);
        return (Tree) assertInstanceOf(PropertySheetPage.class, sheet.getCurrentPage()).getControl();
    }

    /** The Properties row shown as {@code name} (its categories expanded as a person expands them). */
    private static TreeItem row(Tree tree, String name) {
        List<TreeItem> todo = new ArrayList<>(List.of(tree.getItems()));
        while (!todo.isEmpty()) {
            TreeItem item = todo.remove(0);
            if (name.equals(item.getText(0))) return item;
            if (!item.getExpanded() && item.getItemCount() > 0) {   // a person opens the category
                var ev = new Event();
                ev.item = item;
                tree.notifyListeners(SWT.Expand, ev);
                item.setExpanded(true);
            }
            todo.addAll(List.of(item.getItems()));
        }
        throw new AssertionError("no Properties row " + name);
    }

    @Test
    public void undoAndRedoWorkWhilePropertiesHasTheFocusAndCtrlYRedoes() throws Exception {
        FusionEditor e = open("ag_matmul_p2p", "undo.fusion");
        GraphViewer g = ShownGraph.of(e);
        FusionDocument before = e.model();
        person.click(g.getControl(), g.center("tv1"), 0).press(SWT.CTRL, 'd');
        FusionDocument after = e.model();
        assertNotEquals(before, after, "Ctrl+D made an edit");
        Tree tree = propertiesTree();
        person.settle(200);
        person.click(tree, 20, 8);
        Control focus = person.focus();
        while (focus != null && focus != tree) focus = focus.getParent();
        assertEquals(tree, focus, "Properties has the focus (its tree or a cell of it): " + person.focus());
        Command undo = ViewTestSupport.window().getService(ICommandService.class).getCommand("org.eclipse.ui.edit.undo");
        assertTrue(undo.isEnabled(), "Edit > Undo is enabled while Properties has the focus");
        person.press(SWT.CTRL, 'z');
        assertEquals(before, e.model(), "Ctrl+Z in Properties undid the graph's edit");
        person.press(SWT.CTRL, 'y');
        assertEquals(after, e.model(), "Ctrl+Y in Properties redid it");
        page.activate(e);
        person.click(g.getControl(), g.center("tv0"), 0).press(SWT.CTRL, 'z');
        assertEquals(before, e.model(), "Ctrl+Z on the graph");
        person.press(SWT.CTRL, 'y');
        assertEquals(after, e.model(), "Ctrl+Y on the graph redoes, on Linux too");
    }

    @Test
    public void aMultiSelectionShowsWhatIsCommonAndTheMeshCellOffersAll() throws Exception {
        FusionEditor e = open("ag_matmul_p2p", "multi-props.fusion");
        GraphViewer g = ShownGraph.of(e);
        person.click(g.getControl(), g.center("tv0"), 0).click(g.getControl(), g.center("tv1"), SWT.CTRL);
        Tree tree = propertiesTree();
        person.settle(300);
        assertEquals("float", row(tree, "Data type").getText(1), "both are float: shown");
        assertEquals("all", row(tree, "Device mesh").getText(1), "both on all: shown");
        assertEquals("", row(tree, "Axes").getText(1), "the axes differ: blank, not tv0's");
        assertEquals("", row(tree, "Name").getText(1), "the names differ: blank");
    }

    /**
     * The Device mesh cell is a combo that offers {@code all} and takes typed text. Disabled on 2026-11-28 after a merge
     * (the posted click opened no combo within three tries); enabled again on w35-studio, where it passed in both Tycho
     * runs without a change to the product or to the clicks. The cause of those failures was not reproduced: should it
     * come back, the failure message lists each try's focus, mouse and selection events and the combos in the tree.
     */
    @Test
    public void theMeshCellOffersAll() throws Exception {
        FusionEditor e = open("ag_matmul_p2p", "mesh-cell.fusion");
        GraphViewer g = ShownGraph.of(e);
        page.activate(e);
        person.click(g.getControl(), g.center("tv1"), 0);
        Tree tree = propertiesTree();
        person.settle(300);
        TreeItem mesh = row(tree, "Device mesh");
        tree.showItem(mesh);   // scrolled into the view, as a person scrolls to it
        person.settle(100);
        var cell = mesh.getBounds(1);
        CCombo combo = null;
        List<String> log = new ArrayList<>();
        org.eclipse.swt.widgets.Listener logger = ev -> log.add(ev.type + ":" + ev.widget.getClass().getSimpleName()
                + (ev.widget instanceof CCombo c ? "(" + c.getText() + ")" : ""));
        int[] types = { SWT.FocusIn, SWT.FocusOut, SWT.MouseDown, SWT.Activate, SWT.Deactivate, SWT.Selection };
        for (int t : types) tree.getDisplay().addFilter(t, logger);
        try {
            // a click on a row already selected opens no cell editor (no selection event): a person clicks once more
            for (int tries = 0; tries < 3 && combo == null; tries++) {
                log.add("try " + tries + " cell " + cell + " top " + tree.getTopItem().getText(0) + " part "
                        + page.getActivePart().getTitle());
                person.click(tree, cell.x + 20, cell.y + cell.height / 2);
                person.settle(200);
                combo = ViewTestSupport.descendants(tree, CCombo.class).stream()
                        .filter(c -> c.isVisible() && c.getText().equals("all")).findFirst().orElse(null);
                for (CCombo c : ViewTestSupport.descendants(tree, CCombo.class)) {
                    log.add("combo visible=" + c.isVisible() + " text=" + c.getText() + " bounds=" + c.getBounds());
                }
                log.add("selection " + List.of(tree.getSelection()).stream().map(i -> i.getText(0)).toList()
                        + " focus " + person.focus());
                if (combo == null) person.click(tree, 20, 8);
            }
        } finally {
            for (int t : types) tree.getDisplay().removeFilter(t, logger);
        }
        assertNotNull(combo, "the Device mesh cell is a combo: " + String.join("; ", log));
        assertTrue(List.of(combo.getItems()).contains("all"), "it offers all: " + List.of(combo.getItems()));
        person.press(SWT.CTRL, 'a');
        person.type("0 1", 30).press(SWT.CR);
        assertEquals(new MeshSpec.Devices(List.of(0, 1), List.of(2)), e.model().tensor("tv1").get().mesh(),
                "typed text is taken too");
        page.activate(e);
        person.press(SWT.CTRL, 'z');
        assertEquals(MeshSpec.ALL, e.model().tensor("tv1").get().mesh());
    }

    @Test
    public void anOpWithAnErrorIsFramedRedAndItsProblemOpensByDoubleClick() throws Exception {
        IFile f = ViewTestSupport.workspaceFile("integration", "mismatch.fusion", SampleFusions.MISMATCH);
        FusionEditor e = openFile(f);
        GraphViewer g = ShownGraph.of(e);
        assertNotNull(g.error("op:tv2"), "the matmul has the error");
        assertTrue(redPixels(g, "op:tv2") > 40, "and a red frame on the graph: " + redPixels(g, "op:tv2") + " red pixels");
        IMarker marker = List.of(f.findMarkers(FusionEditor.MARKER, true, 0)).stream()
                .filter(m -> m.getAttribute(IMarker.MESSAGE, "").contains("contracted")).findFirst().orElseThrow();

        Tree problems = problemsTree("contracted");
        person.click(g.getControl(), g.center("tv0"), 0);
        person.settle(500);   // the Problems view may still be adding other files' rows
        TreeItem item = itemWith(problems, "contracted");
        problems.showItem(item);
        var r = item.getBounds(0);
        person.doubleClick(problems, r.x + 30, r.y + r.height / 2);
        assertEquals(List.of("op:tv2"), g.selectedKeys(), "the double-click selected the matmul");
        ITextSelection caret = (ITextSelection) e.getAdapter(ITextEditor.class).getSelectionProvider().getSelection();
        assertEquals(marker.getAttribute(IMarker.LINE_NUMBER, -1), caret.getStartLine() + 1, "and put the Source caret on its line");
        journey.hide(IPageLayout.ID_PROBLEM_VIEW);
    }

    /** Shows the Problems view and waits (its refresh is delayed) until its tree lists a problem saying {@code text}. */
    private Tree problemsTree(String text) throws Exception {
        journey.show(IPageLayout.ID_PROBLEM_VIEW);
        for (int tries = 0; tries < 20; tries++) {
            person.settle(300);
            for (Tree t : ViewTestSupport.descendants(journey.shell(), Tree.class)) {
                if (t.isVisible() && itemWith(t, text) != null) return t;
            }
        }
        throw new AssertionError("the Problems view lists no problem saying " + text);
    }

    private static TreeItem itemWith(Tree tree, String text) {
        List<TreeItem> todo = new ArrayList<>(List.of(tree.getItems()));
        while (!todo.isEmpty()) {
            TreeItem item = todo.remove(0);
            if (item.getText(0).contains(text)) return item;
            if (!item.getExpanded() && item.getItemCount() > 0) {   // a group opened, its rows made by the viewer
                var ev = new Event();
                ev.item = item;
                tree.notifyListeners(SWT.Expand, ev);
                item.setExpanded(true);
            }
            todo.addAll(List.of(item.getItems()));
        }
        return null;
    }

    /** The pixels of the error colour painted within a node's box on the graph's canvas. */
    private static int redPixels(GraphViewer g, String key) {
        Control c = g.getControl();
        Image shot = new Image(c.getDisplay(), c.getSize().x, c.getSize().y);
        GC gc = new GC(c);
        gc.copyArea(shot, 0, 0);
        gc.dispose();
        ImageData data = shot.getImageData();
        shot.dispose();
        int[] center = g.center(key), b = g.shownBounds(key);   // as drawn, at the zoom shown
        int n = 0;
        for (int x = center[0] - b[2] / 2; x < center[0] + b[2] / 2; x++) {
            for (int y = center[1] - b[3] / 2; y < center[1] + b[3] / 2; y++) {
                if (x < 0 || y < 0 || x >= data.width || y >= data.height) continue;
                RGB rgb = data.palette.getRGB(data.getPixel(x, y));
                if (rgb.red > 180 && rgb.green < 80 && rgb.blue < 80) n++;
            }
        }
        return n;
    }

    @Test
    public void theOutlineIsATreeInStepWithTheGraphAndItsOverviewDragsWithoutAnError() throws Exception {
        FusionEditor e = open("ag_matmul_p2p", "outline-tree.fusion");
        journey.show(IPageLayout.ID_OUTLINE);
        page.activate(e);
        person.settle(300);
        FusionOutlinePage outline = ShownGraph.outlinePage(e);
        assertNotNull(outline, "the Outline shows the editor's page");
        Tree tree = outline.tree();
        TreeItem matmul = itemWith(tree, "tv2 = matmul(tv0, tv1)");
        assertNotNull(matmul, "the Outline lists the op");
        assertNotNull(itemWith(tree, "tv0 : float"), "and the tensors");
        var r = matmul.getBounds();
        person.click(tree, r.x + 10, r.y + r.height / 2);
        person.settle(200);
        assertEquals(List.of("op:tv2"), ShownGraph.of(e).selectedKeys(), "a click in the Outline selects on the graph");
        page.activate(e);
        GraphViewer g = ShownGraph.of(e);
        person.click(g.getControl(), g.center("tv1"), 0);
        assertEquals(1, tree.getSelection().length);
        assertTrue(tree.getSelection()[0].getText().startsWith("tv1 :"), "the graph's selection shows in the tree: "
                + tree.getSelection()[0].getText());

        List<IStatus> logged = new ArrayList<>();
        ILogListener listener = (status, plugin) -> { if (status.getSeverity() == IStatus.ERROR) logged.add(status); };
        Platform.addLogListener(listener);
        try {
            Control overview = outline.overview();
            int[] box = outline.viewportBox();
            int w = overview.getSize().x, h = overview.getSize().y;
            person.drag(overview, box[0] + box[2] / 2, box[1] + box[3] / 2, w / 2 + 10, h / 2 + 10);
            person.drag(overview, w - 4, h - 4, 4, 4);
            person.drag(overview, 2, h - 3, w - 3, 2);
        } finally {
            Platform.removeLogListener(listener);
        }
        assertEquals(List.of(), logged.stream().map(s -> s.getMessage() + " " + s.getException()).toList(),
                "dragging in the overview logs nothing");
        journey.hide(IPageLayout.ID_OUTLINE);
    }

    /**
     * Types Enter (Finish) in the Quick Fix dialog once it shows, looking every 300 ms at most {@code tries} times: a
     * fixed delay typed it before a slow dialog opened, which then waited for ever.
     */
    /**
     * Types Enter (Finish) into the Quick Fix dialog from inside its modal loop once it shows, again every few
     * seconds while it stays open (on a loaded machine the dialog can take longer than one try to show and a key can
     * arrive before it has focus), until {@code seconds} have passed: then the dialog is closed so that the test fails
     * at its assertions instead of waiting forever for a key nobody types.
     */
    private void finishQuickFixOnceShown(int seconds) {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        long[] pressed = {0};
        Runnable[] poll = new Runnable[1];
        poll[0] = () -> {
            Shell dialog = null;
            for (Shell shell : Display.getCurrent().getShells()) {
                if (shell.isVisible() && "Quick Fix".equals(shell.getText())) dialog = shell;
            }
            boolean open = dialog != null;
            if (!open && pressed[0] != 0) return; // shown, finished and gone
            if (System.nanoTime() > deadline) {
                if (open) dialog.close();
                return;
            }
            if (open && System.nanoTime() - pressed[0] > 3_000_000_000L) {
                dialog.forceActive();
                person.press(SWT.CR);
                pressed[0] = System.nanoTime();
            }
            Display.getCurrent().timerExec(300, poll[0]);
        };
        Display.getCurrent().timerExec(300, poll[0]);
    }

    private static final String MIXED = """
            {
              "format": "hostir-fusion/1",
              "name": "mixed",
              "symbols": {"S": 4},
              "tensors": [
                {"name": "tv0", "dtype": "float", "axes": ["S", {"extent": "D", "parallel": "DIDx"}]},
                {"name": "tv1", "dtype": "float", "axes": ["S", "D"]}
              ],
              "ops": [{"op": "set", "inputs": ["tv0"], "output": "tv1"}],
              "inputs": ["tv0"],
              "outputs": ["tv1"]
            }
            """;

    @Test
    public void aQuickFixInTheProblemsViewSetsTheMeshToAll() throws Exception {
        IFile f = ViewTestSupport.workspaceFile("integration", "mixed.fusion", MIXED);
        FusionEditor e = openFile(f);
        // since sharding propagation (issue 34) a tensor without a mesh beside one with a mesh is inferred, not
        // refused: the fix is for a DID axis in a fusion that names no mesh at all
        assertTrue(e.problems().stream().anyMatch(p -> p.rule().equals("mesh.missing")), "tv0 has no mesh: " + e.problems());
        Tree problems = problemsTree("but no device mesh");
        TreeItem item = itemWith(problems, "but no device mesh");
        var r = item.getBounds(0);
        person.click(problems, r.x + 30, r.y + r.height / 2);
        // Quick Fix opens a modal dialog (the first fix chosen, the marker ticked) whose event loop runs until it
        // closes: Enter, its Finish, is typed from inside that loop
        finishQuickFixOnceShown(120);
        person.press(SWT.CTRL, '1');
        person.settle(800);
        assertEquals(MeshSpec.ALL, e.model().tensor("tv0").get().mesh(), "the quick fix set tv0's mesh to all");
        assertTrue(e.problems().isEmpty(), "and the problem is gone: " + e.problems());
        journey.hide(IPageLayout.ID_PROBLEM_VIEW);
    }
}
