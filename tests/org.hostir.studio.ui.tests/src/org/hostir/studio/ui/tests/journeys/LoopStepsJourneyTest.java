package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.core.commands.operations.IOperationHistory;
import org.eclipse.core.commands.operations.OperationHistoryFactory;
import org.eclipse.core.resources.IFile;
import org.eclipse.jface.viewers.CellEditor;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.views.properties.IPropertySheetEntry;
import org.eclipse.ui.views.properties.PropertySheet;
import org.eclipse.ui.views.properties.PropertySheetEntry;
import org.eclipse.ui.views.properties.PropertySheetPage;
import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.LoopStep;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.model.FusionCheck;
import org.hostir.studio.ui.tests.ShownProperties;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.junit.jupiter.api.Test;

/**
 * Issue 19, item 2: a person shards seed 000's weight tv1 [K, N] column-wise through its loop domain from the
 * Properties view: clicks tv1, clicks its "Loop steps" row, types nvFuser-like calls and Return. Bad text is
 * refused with one line; steps that break a loop rule are marked on the file's line; each edit is one undoable
 * operation; saving writes hostir-fusion/2.
 */
public class LoopStepsJourneyTest extends JourneyTest {
    private static final String SPLIT = "outer_split(1, D); parallelize(1, DIDx)";


    @Test
    public void aPersonLoopSplitsATensorInTheProperties() throws Exception {
        FusionEditor e = journey.openSeed("journeys", "ag_matmul_p2p", "loopsplit.fusion");
        FusionDocument before = e.model();
        assertEquals(FusionDocument.FORMAT, before.format(), "the seed is a version 1 file");
        person.click(ShownGraph.of(e).getControl(), ShownGraph.of(e).center("tv1"), 0);
        assertEquals(List.of("tv1"), ShownGraph.of(e).selectedKeys());
        PropertySheet sheet = (PropertySheet) page.showView(IPageLayout.ID_PROP_SHEET);
        // the sheet shows the selection once the workbench's post-selection delay has passed: wait for its row
        person.until(5000, () -> sheet.getCurrentPage() instanceof PropertySheetPage p
                && p.getControl() instanceof Tree t && ShownProperties.find(t, "Loop steps") != null);
        Tree tree = (Tree) assertInstanceOf(PropertySheetPage.class, sheet.getCurrentPage()).getControl();

        // text that is not loop steps: the cell says why in one line, Return changes nothing. The row's cell
        // editor is fetched before the click (the entry makes it once; fetching it resets its text)
        CellEditor editor = ((PropertySheetEntry) entry(tree, "Loop steps")).getEditor(tree);
        Text cell = editLoopSteps(tree);
        person.type("outer_split(1 D)", 20);
        assertEquals("outer_split(1 D)", cell.getText(), "the keys went into the row's text field");
        assertEquals("step 1: outer_split takes 2 arguments, as outer_split(0, D), given 1", editor.getErrorMessage());
        person.press(SWT.CR);
        assertEquals(before, e.model(), "refused text leaves the model as it was");
        if (!cell.isDisposed() && cell.isVisible()) person.press(SWT.ESC);

        IOperationHistory history = OperationHistoryFactory.getOperationHistory();
        int undoable = history.getUndoHistory(e.commands().undoContext()).length;
        cell = editLoopSteps(tree);
        person.type(SPLIT, 20);
        assertEquals(SPLIT, cell.getText());
        person.press(SWT.CR);
        person.settle(300);
        FusionDocument split = e.model();
        assertEquals(List.of(new LoopStep.Split(1, new ExtentSpec.Symbol("D"), false),
                new LoopStep.Parallelize(1, ParallelType.DIDX)), split.tensor("tv1").orElseThrow().loop());
        assertEquals(before.tensor("tv1").get().axes(), split.tensor("tv1").get().axes(), "logical axes unchanged");
        assertEquals(FusionDocument.FORMAT_2, split.format(), "loop steps make the file version 2");
        assertEquals(undoable + 1, history.getUndoHistory(e.commands().undoContext()).length, "one undoable operation");
        assertNull(e.commands().lastError(), e.commands().lastError());
        assertEquals("float [K, N | outer_split 1 by D, DIDx 1]", ShownGraph.of(e).shapeText("tv1"), "the node shows the split");
        assertNull(ShownGraph.of(e).error("tv1"), "a valid column-parallel weight: " + ShownGraph.of(e).error("tv1"));
        assertEquals(SPLIT, text(tree, "Loop steps"), "the Properties row shows the steps as typed");
        ViewTestSupport.screenshot(journey.shell(), "editor-loop-split.png");

        page.activate(e);
        person.settle(100);
        person.press(SWT.CTRL, 'z');
        assertEquals(before, e.model(), "Ctrl+Z removes the steps");
        assertEquals("float [K, N]", ShownGraph.of(e).shapeText("tv1"));
        person.press(SWT.CTRL | SWT.SHIFT, 'z');
        assertEquals(split, e.model(), "Shift+Ctrl+Z puts them back");
        assertEquals("float [K, N | outer_split 1 by D, DIDx 1]", ShownGraph.of(e).shapeText("tv1"));

        // steps that parse but break a loop rule are applied and marked on the file's line, as any problem
        person.click(ShownGraph.of(e).getControl(), ShownGraph.of(e).center("tv1"), 0);
        page.activate(sheet);
        person.settle(200);
        tree = (Tree) ((PropertySheetPage) sheet.getCurrentPage()).getControl();
        cell = editLoopSteps(tree);
        assertEquals(SPLIT, cell.getSelectionText(), "the row's text, all selected: typing replaces it");
        person.type("split(1, D); parallelize(2, DIDx)", 20).press(SWT.CR);
        person.settle(300);
        FusionCheck.Problem p = e.problems().stream().filter(q -> q.rule().equals("loop.did-inner-split"))
                .findFirst().orElseThrow(() -> new AssertionError("no loop.did-inner-split among " + e.problems()));
        assertTrue(p.line() > 0, "on a line of the file: " + p);
        assertEquals("tv1", p.tensor());
        assertNotNull(ShownGraph.of(e).error("tv1"), "the node has the red frame");
        page.activate(e);
        person.settle(100);
        person.press(SWT.CTRL, 'z');
        assertEquals(split, e.model(), "Ctrl+Z restores the valid split");
        assertNull(ShownGraph.of(e).error("tv1"));

        person.press(SWT.CTRL, 's');
        person.settle(300);
        Path file = e.getEditorInput().getAdapter(IFile.class).getLocation().toFile().toPath();
        String saved = Files.readString(file);
        assertTrue(saved.contains("\"format\": \"hostir-fusion/2\""), saved);
        assertTrue(saved.contains("{\"outer_split\": 1, \"factor\": \"D\"}"), saved);
    }

    /** Clicks the "Loop steps" row as a person does; its text cell editor opens with the keyboard focus. */
    private Text editLoopSteps(Tree tree) {
        TreeItem item = item(tree, "Loop steps");
        tree.showItem(item);
        person.settle(50);
        Rectangle r = item.getBounds(1);
        person.click(tree, r.x + r.width / 2, r.y + r.height / 2);
        person.until(3000, () -> person.focus() instanceof Text);
        return assertInstanceOf(Text.class, person.focus(), "the click opened the row's text editor");
    }

    private static String text(Tree tree, String name) {
        return item(tree, name).getText(1);
    }

    private static IPropertySheetEntry entry(Tree tree, String name) {
        return (IPropertySheetEntry) item(tree, name).getData();
    }

    private static TreeItem item(Tree tree, String name) { return ShownProperties.item(tree, name); }
}
