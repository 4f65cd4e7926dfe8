package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.core.commands.operations.OperationHistoryFactory;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.ScrolledComposite;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.engine.ShardingReport;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.editor.model.AxisText;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, the editing basics of GEF's Logic example, by keys and clicks on ag_matmul_p2p (tv0, tv1 -> matmul ->
 * tv2): arrow keys and Tab between nodes, Ctrl+A, copy / paste / duplicate with fresh names and the connections among
 * the copies kept, align and distribute from the palette, Connect's rubber-band line, and a palette op dropped with
 * nothing selected. Each edit is one operation on the editor's history. None of these keys or buttons existed before.
 */
public class EditingBasicsJourneyTest extends JourneyTest {

    private FusionEditor open(String as) throws Exception {
        FusionEditor e = journey.openSeed("editing", "ag_matmul_p2p", as);
        page.activate(e);
        person.settle(150);
        return e;
    }

    private static GraphViewer graph(FusionEditor e) { return ShownGraph.of(e); }

    private int undoable(FusionEditor e) {
        return OperationHistoryFactory.getOperationHistory().getUndoHistory(e.commands().undoContext()).length;
    }

    @Test
    public void arrowKeysAndTabWalkTheNodesAndCtrlASelectsAll() throws Exception {
        FusionEditor e = open("walk.fusion");
        GraphViewer g = graph(e);
        Control canvas = g.getControl();
        person.click(canvas, g.center("tv0"), 0);
        assertEquals(List.of("tv0"), g.selectedKeys());
        person.press(SWT.ARROW_RIGHT);
        String right = g.selectedKeys().get(0);
        assertEquals(1, g.selectedKeys().size());
        assertTrue(g.center(right)[0] > g.center("tv0")[0], "Right goes to a node on the right of tv0: " + right);
        person.press(SWT.ARROW_LEFT);
        assertTrue(g.center(g.selectedKeys().get(0))[0] < g.center(right)[0], "Left comes back leftwards");
        person.press(SWT.SHIFT, (char) 0, SWT.ARROW_RIGHT);
        assertEquals(2, g.selectedKeys().size(), "Shift+Right adds the node on the right: " + g.selectedKeys());

        // Tab: the next node in reading order (column by column), from the node selected last
        List<String> order = new ArrayList<>(g.keys());
        order.sort(Comparator.<String>comparingInt(k -> g.bounds(k)[0]).thenComparingInt(k -> g.bounds(k)[1]));
        person.click(canvas, canvas.getSize().x - 30, canvas.getSize().y - 30);   // the empty canvas clears the selection
        person.click(canvas, g.center(order.get(0)), 0);
        person.press(SWT.TAB);
        assertEquals(List.of(order.get(1)), g.selectedKeys(), "Tab goes to the next node in reading order " + order);
        assertEquals(canvas, person.focus(), "and the keyboard stays on the graph");
        person.press(SWT.SHIFT, (char) 0, SWT.TAB);
        assertEquals(List.of(order.get(0)), g.selectedKeys(), "Shift+Tab goes back");

        person.press(SWT.CTRL, 'a');
        assertEquals(Set.copyOf(g.keys()), Set.copyOf(g.selectedKeys()), "Ctrl+A selects every node");
    }

    @Test
    public void copyPasteAndDuplicateMakeFreshNamesAndKeepTheConnectionsAmongTheCopies() throws Exception {
        FusionEditor e = open("copy.fusion");
        GraphViewer g = graph(e);
        Control canvas = g.getControl();
        FusionDocument before = e.model();
        person.click(canvas, g.center("tv0"), 0).click(canvas, g.center("op:tv2"), SWT.CTRL)
                .click(canvas, g.center("tv2"), SWT.CTRL);
        int history = undoable(e);
        person.press(SWT.CTRL, 'c').press(SWT.CTRL, 'v');
        FusionDocument pasted = e.model();
        assertEquals(before.tensors().size() + 2, pasted.tensors().size(), "tv0 and tv2 copied");
        assertEquals(before.ops().size() + 1, pasted.ops().size(), "and the matmul");
        Set<String> names = new HashSet<>();
        for (TensorSpec t : pasted.tensors()) assertTrue(names.add(t.name()), "tensor names stay unique: " + t.name());
        OpSpec copy = pasted.ops().get(pasted.ops().size() - 1);
        String tv0Copy = copy.inputs().get(0);
        assertFalse(before.tensor(tv0Copy).isPresent(), "the copied matmul reads the copy of tv0, " + tv0Copy);
        assertEquals("tv1", copy.inputs().get(1), "and the original tv1, which was not copied");
        assertFalse(before.tensor(copy.output()).isPresent(), "its output is a new tensor");
        assertTrue(pasted.inputs().contains(tv0Copy), "the copy of an input is an input");
        assertEquals(Set.of(tv0Copy, "op:" + copy.output(), copy.output()), Set.copyOf(g.selectedKeys()),
                "the pasted nodes are selected");
        assertEquals(g.bounds("tv0")[0] + 40, g.bounds(tv0Copy)[0], "the copies land beside the originals");
        assertTrue(e.problems().isEmpty(), "the pasted fusion is valid: " + e.problems());
        assertEquals(history + 1, undoable(e), "one paste, one operation");
        person.press(SWT.CTRL, 'z');
        assertEquals(before, e.model(), "one Ctrl+Z takes the whole paste back");

        person.click(canvas, g.center("tv1"), 0);
        person.press(SWT.CTRL, 'd');
        FusionDocument duplicated = e.model();
        assertEquals(before.tensors().size() + 1, duplicated.tensors().size(), "Ctrl+D duplicated tv1");
        TensorSpec dup = duplicated.tensors().get(duplicated.tensors().size() - 1);
        assertEquals(AxisText.format(before.tensor("tv1").get().axes()), AxisText.format(dup.axes()), "with tv1's axes");
        assertEquals(List.of(dup.name()), g.selectedKeys(), "the duplicate is selected");
        person.press(SWT.CTRL, 'z');
        assertEquals(before, e.model());
    }

    @Test
    public void alignAndDistributeArrangeTheSelectionAsOneEdit() throws Exception {
        FusionEditor e = open("align.fusion");
        GraphViewer g = graph(e);
        Control canvas = g.getControl();
        person.click(canvas, g.center("tv0"), 0).click(canvas, g.center("tv1"), SWT.CTRL)
                .click(canvas, g.center("tv2"), SWT.CTRL);
        int primaryX = g.bounds("tv2")[0];
        List<Integer> xs = List.of(g.bounds("tv0")[0], g.bounds("tv1")[0], g.bounds("tv2")[0]);
        int history = undoable(e);
        // the Arrange drawer is closed as the editor opens: the person clicks its header, then Align left
        ShownGraph.press(e, "Align left");
        for (String k : List.of("tv0", "tv1", "tv2")) {
            assertEquals(primaryX, g.bounds(k)[0], k + " aligned on the left edge of tv2, the node selected last");
        }
        assertEquals(history + 1, undoable(e), "one alignment, one operation");
        assertEquals(canvas, person.focus(), "the palette gives the keyboard back to the graph");

        ShownGraph.press(e, "Distribute V");
        List<int[]> boxes = new ArrayList<>(List.of(g.bounds("tv0"), g.bounds("tv1"), g.bounds("tv2")));
        boxes.sort(Comparator.comparingInt(b -> b[1]));
        int gap1 = boxes.get(1)[1] - (boxes.get(0)[1] + boxes.get(0)[3]);
        int gap2 = boxes.get(2)[1] - (boxes.get(1)[1] + boxes.get(1)[3]);
        assertTrue(Math.abs(gap1 - gap2) <= 1, "equal gaps after Distribute V: " + gap1 + " and " + gap2);
        person.press(SWT.CTRL, 'z').press(SWT.CTRL, 'z');
        assertEquals(history, undoable(e), "two Ctrl+Z undid both edits");
        // the file stored no places before the alignment: undoing it gives the nodes back to the layout, which runs
        // in the background. Under load it had not answered when the test looked (the nodes still showed aligned,
        // as if the second Ctrl+Z had been lost); a person waits for the graph to be drawn, and so does the test.
        g = graph(e);
        assertEquals(xs, List.of(g.bounds("tv0")[0], g.bounds("tv1")[0], g.bounds("tv2")[0]), "two Ctrl+Z put the nodes back");
        ViewTestSupport.screenshot(journey.shell(), "editor-align.png");
    }

    @Test
    public void connectModeDrawsARubberBandFromTheTensorToThePointer() throws Exception {
        FusionEditor e = journey.openSeed("editing", "allgather", "band.fusion");
        page.activate(e);
        GraphViewer g = graph(e);
        Control canvas = g.getControl();
        String input = e.model().inputs().get(0);
        ShownGraph.press(e, "Connect");
        person.click(canvas, g.center(input), 0);
        int[] c = g.center(input);
        person.moveTo(canvas, c[0] + 150, c[1] + 60);
        int[] band = g.feedbackLine();
        assertNotNull(band, "a line follows the pointer once a tensor is chosen");
        assertEquals(List.of(c[0] + 150, c[1] + 60), List.of(band[2], band[3]), "it ends at the pointer");
        int[] b = g.bounds(input);
        assertTrue(Math.abs(band[0] - c[0]) <= b[2] / 2 + 2 && Math.abs(band[1] - c[1]) <= b[3] / 2 + 2,
                "it starts on the tensor's border: " + band[0] + "," + band[1]);
        person.moveTo(canvas, c[0] + 90, c[1] + 120);
        assertEquals(List.of(c[0] + 90, c[1] + 120), List.of(g.feedbackLine()[2], g.feedbackLine()[3]), "and follows it");
        ViewTestSupport.screenshot(journey.shell(), "editor-connect-band.png");
        person.press(SWT.ESC);
        assertNull(g.feedbackLine(), "Esc ends Connect mode and the line goes");
    }

    @Test
    public void anOpDroppedWithNothingSelectedGetsNewInputsOnTheFusionsMeshAndItsOutputInfersIt() throws Exception {
        FusionEditor e = open("drop-op.fusion");
        GraphViewer g = graph(e);
        Control canvas = g.getControl();
        person.click(canvas, canvas.getSize().x - 60, canvas.getSize().y - 40);
        assertEquals(List.of(), g.selectedKeys(), "nothing selected");
        FusionDocument before = e.model();
        int[] tv0 = g.bounds("tv0");
        Button add = EditorJourneyTest.button(ShownGraph.page(e), "add");
        ((ScrolledComposite) add.getParent().getParent()).showControl(add);   // the palette scrolled to it
        person.settle(100);
        person.dragTo(add, add.getSize().x / 2, add.getSize().y / 2, canvas, canvas.getSize().x - 200, canvas.getSize().y - 120);
        FusionDocument after = e.model();
        assertEquals(before.ops().size() + 1, after.ops().size(), "the add was dropped");
        OpSpec op = after.ops().get(after.ops().size() - 1);
        assertEquals(2, op.inputs().size(), "with two operands: " + op.inputs());
        for (String in : op.inputs()) {
            assertTrue(after.inputs().contains(in) && before.tensor(in).isEmpty(), in + " is a new fusion input");
            assertEquals(MeshSpec.ALL, after.tensor(in).get().mesh(), in + " on the fusion's mesh");
        }
        TensorSpec out = after.tensor(op.output()).get();
        assertEquals("M, N", AxisText.format(out.axes()), "the output is [M, N], not [1]");
        // the output states no mesh (issue 34: a palette op leaves its output's sharding to propagation), and
        // propagation puts it on its inputs' mesh, drawn as inferred (a dashed frame), so it is not mesh-less
        assertEquals(MeshSpec.ABSENT, out.mesh(), "the output's mesh is left to propagation");
        var inferred = e.shardings().get(out.name());
        assertNotNull(inferred, "propagation reports the output");
        assertEquals(ShardingReport.Origin.INFERRED, inferred.meshOrigin(), "its mesh is inferred");
        assertEquals(e.shardings().get(op.inputs().get(0)).mesh(), inferred.mesh(), "the inputs' mesh");
        assertTrue(g.meshInferred(out.name()), "and drawn as inferred");
        assertTrue(e.problems().isEmpty(), "and the fusion stays valid: " + e.problems());
        assertEquals(List.of(tv0[0], tv0[1]), List.of(g.bounds("tv0")[0], g.bounds("tv0")[1]), "tv0 stayed where it was");

    }

    /**
     * Issue 35: a node dropped from the palette was not selected afterwards. As with GEF's creation tool, the
     * dropped op (or input tensor) becomes the selection: the graph frames it and Properties is handed it.
     */
    @Test
    public void aDroppedNodeBecomesTheSelection() throws Exception {
        FusionEditor e = open("drop-select.fusion");
        GraphViewer g = graph(e);
        Control canvas = g.getControl();
        person.click(canvas, canvas.getSize().x - 60, canvas.getSize().y - 40);
        assertEquals(List.of(), g.selectedKeys(), "nothing selected");
        Button add = EditorJourneyTest.button(ShownGraph.page(e), "add");
        ((ScrolledComposite) add.getParent().getParent()).showControl(add);
        person.settle(100);
        person.dragTo(add, add.getSize().x / 2, add.getSize().y / 2, canvas, canvas.getSize().x - 200, canvas.getSize().y - 120);
        OpSpec op = e.model().ops().get(e.model().ops().size() - 1);
        assertEquals(List.of("op:" + op.output()), g.selectedKeys(), "the dropped add is selected");
        assertEquals(List.of(org.hostir.studio.ui.FusionElement.op(e.workspacePath(), e.model().ops().size() - 1)),
                siteSelection(e), "and handed to Properties");

        Button input = EditorJourneyTest.button(ShownGraph.page(e), "Input tensor");
        ((ScrolledComposite) input.getParent().getParent()).showControl(input);
        person.settle(100);
        int before = e.model().tensors().size();
        person.dragTo(input, input.getSize().x / 2, input.getSize().y / 2, canvas, 80, canvas.getSize().y - 60);
        assertEquals(before + 1, e.model().tensors().size(), "the input tensor was dropped");
        String made = e.model().inputs().get(e.model().inputs().size() - 1);
        assertEquals(List.of(made), g.selectedKeys(), "the dropped input tensor is selected");
        assertEquals(List.of(org.hostir.studio.ui.FusionElement.tensor(e.workspacePath(), made)), siteSelection(e));
    }

    private static List<?> siteSelection(FusionEditor e) {
        return ((org.eclipse.jface.viewers.IStructuredSelection) e.getSite().getSelectionProvider().getSelection()).toList();
    }
}
