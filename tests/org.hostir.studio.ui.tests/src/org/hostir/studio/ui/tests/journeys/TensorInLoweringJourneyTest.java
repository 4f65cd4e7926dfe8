package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.swt.widgets.TreeItem;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand: clicking tensor tv1 of seed 000 in the graph selected {@code ALLOCATE T2} in the Lowering
 * view (the first node of the matmul that reads tv1); a person looks for {@code T1}, the name the dump prints. The
 * click selects the rows that name T1 (the matmul), the tree shows them, and the op's click still selects its nodes.
 */
public class TensorInLoweringJourneyTest extends JourneyTest {
    @AfterEach
    public void hideLowering() { journey.hide(LoweringView.ID); }

    @Test
    public void clickingAnInputTensorSelectsTheRowsThatNameIt() throws Exception {
        journey = Journey.inResetStudio(1600, 1000);   // the Studio's perspective: the editor above the Lowering view
        page = journey.page();
        person = journey.person();
        FusionEditor e = journey.openSeedWithLowering("tensor-in-lowering");
        LoweringView lowering = journey.show(LoweringView.ID);
        journey.waitForLowering();
        GraphViewer graph = ShownGraph.of(e);
        page.activate(e);
        person.click(graph.getControl(), graph.center("tv1"), 0);
        person.until(3000, () -> !ShownLowering.of(lowering).tree().getStructuredSelection().isEmpty());
        person.settle(300);

        assertEquals(List.of("tv1"), ShownGraph.of(e).selectedKeys(), "the click selected tv1");
        List<String> rows = ShownLowering.of(lowering).tree().getStructuredSelection().toList().stream()
                .map(o -> ((PassRow) o).text()).toList();
        assertFalse(rows.isEmpty(), "the click selected rows in the Lowering view");
        assertTrue(rows.stream().allMatch(r -> r.contains("T1_g_float[")), "every selected row names T1: " + rows);
        assertTrue(rows.stream().anyMatch(r -> r.contains("= matmul(")), "the matmul that reads it: " + rows);
        TreeItem[] shown = ShownLowering.of(lowering).tree().getTree().getSelection();
        assertEquals(rows.size(), shown.length, "the tree shows the selection");
        for (TreeItem item : shown) {
            assertTrue(item.getText().contains("T1_g_float["), "the selected row reads T1: " + item.getText());
        }
        var tree = ShownLowering.of(lowering).tree().getTree();
        var item = shown[0].getBounds();
        assertTrue(item.y >= 0 && item.y + item.height <= tree.getClientArea().height,
                "the selected row is scrolled into the tree: " + item + " in " + tree.getClientArea());
        ViewTestSupport.screenshot(journey.shell(), "graph-tensor-in-lowering.png");

        // the op still selects every node lowered from it, the allocation of its output among them
        person.click(graph.getControl(), graph.center("op:tv2"), 0);
        person.until(3000, () -> ShownLowering.of(lowering).tree().getStructuredSelection().size() > rows.size());
        List<String> ofOp = ShownLowering.of(lowering).tree().getStructuredSelection().toList().stream()
                .map(o -> ((PassRow) o).text()).toList();
        assertTrue(ofOp.stream().anyMatch(r -> r.contains("ALLOCATE(buffer=T2_g_float")), "the op's nodes: " + ofOp);
    }
}
