package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.core.commands.operations.OperationHistoryFactory;
import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Tree;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.LoopStep;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.editor.NewFusionWizard;
import org.hostir.studio.ui.passes.LoweringResult;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ShownProperties;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 34, "Done means" (the posted-input journey): a person builds a row-parallel linear from an empty fusion with
 * the palette (its items dragged onto the graph), shards only its inputs x [M, K] and w [N, K] by typing in the Properties view (K split by the devices,
 * the outer part DIDx: nvFuser's inputs-only form, tests/python/multidevice/test_matmul.py's row-parallel linear),
 * and sees what nvFuser's propagation infers for the output (its reduction axis K outlined as an inferred DIDx, with
 * where it came from in the tooltip and in Properties) and the Allreduce of the partial sums in the Lowering view.
 * Then the sharding is edited live (w cleared to inferred with I: the output's DIDx now comes from x), made explicit
 * with E and undone, and an unconnected tensor without a mesh is a conflict marked on its node with nvFuser's rule.
 */
public class InferredShardingJourneyTest extends JourneyTest {
    private static final String DEVICE_SPLIT = "outer_split(1, D); parallelize(1, DIDx)";

    @AfterEach
    public void hideLowering() { journey.hide(LoweringView.ID); }

    @Test
    public void aRowParallelLinearShardedOnlyByItsInputsShowsItsInferredOutputAndTheAllreduce() throws Exception {
        LoweringView lowering = journey.show(LoweringView.ID);
        IFile file = ViewTestSupport.workspaceFile("propagation", "row_linear.fusion",
                NewFusionWizard.contents(NewFusionWizard.EMPTY, "row_linear"));
        FusionEditor e = journey.open(file);
        GraphViewer graph = ShownGraph.of(e);
        Control canvas = graph.getControl();

        drop(e, "Input tensor", 40, 80);
        drop(e, "Input tensor", 40, 280);
        assertEquals(List.of("tv0", "tv1"), e.model().inputs(), "two inputs from the palette: " + e.commands().lastError());
        shardInput(e, "tv0", "M, K");
        shardInput(e, "tv1", "N, K");

        page.activate(e);
        person.click(canvas, graph.center("tv0"), 0).click(canvas, graph.center("tv1"), SWT.CTRL);
        drop(e, "linear", 340, 180);
        FusionDocument built = e.model();
        assertEquals("linear", built.ops().getFirst().op().fileName());
        assertEquals(List.of("tv0", "tv1"), built.ops().getFirst().inputs(), "linear(x, w) in selection order");
        var out = built.tensor("tv2").orElseThrow();
        assertEquals(MeshSpec.ABSENT, out.mesh(), "the output states no mesh");
        assertTrue(out.loop().isEmpty() && out.axes().stream().allMatch(a -> a.parallel().fileName().equals("Serial")),
                "nor any parallel type: " + out);
        assertEquals(List.of(), e.problems(), "a valid inputs-only fusion");

        // the graph: the reduction axis K of the output is DIDx, inferred (outlined, italic), its mesh too (dashed)
        assertEquals(List.of("S", "S", "DIDx (inferred)"), graph.badges("tv2"));
        assertEquals(List.of("S", "DIDx"), graph.badges("tv1"), "the input's written DIDx is filled");
        assertTrue(graph.meshInferred("tv2") && !graph.meshInferred("tv1"));
        String tip = graph.toolTip("tv2");
        assertTrue(tip.contains("mesh {0 1}, inferred from tv1 (T1) through linear"), tip);
        assertTrue(tip.contains("axis 2 DIDx (outer split by 2), inferred from tv1 (T1) through linear"), tip);
        // the pointer rests near the node's left end, so that the tooltip to its right fits in the window
        person.moveTo(canvas, graph.center("tv2")[0] - (int) (graph.bounds("tv2")[2] * graph.zoom() / 2) + 12, graph.center("tv2")[1]);
        person.settle(1500);   // Draw2d shows a tooltip after the pointer rests
        ViewTestSupport.screenshot(journey.shell(), "editor-inferred-sharding.png");

        // Properties say where each came from
        person.click(canvas, graph.center("tv2"), 0);
        Tree props = ShownProperties.show(page, person);
        assertEquals("DIDx (outer split by 2), inferred from tv1 (T1) through linear",
                ShownProperties.text(props, "Axis 2 sharding"));
        assertEquals("{0 1}, inferred from tv1 (T1) through linear", ShownProperties.text(props, "Mesh"));
        assertEquals("Serial, unstated", ShownProperties.text(props, "Axis 0 sharding"));

        // the Lowering view: propagation is its first pass, and the linear lowers to a partial product + Allreduce
        journey.waitForLowering();
        var lowered = assertInstanceOf(LoweringResult.Lowered.class, lowering.result(), ShownLowering.message(lowering));
        assertEquals(org.hostir.studio.lower.PropagateShardingsPass.NAME, lowered.trace().ranks().getFirst().steps().getFirst().pass());
        journey.show(LoweringView.ID);   // in front of the Properties view, its neighbour in the bottom folder
        page.activate(e);
        person.click(canvas, graph.center("op:tv2"), 0);
        person.settle(800);   // post-selection listeners run after the workbench's delay
        List<CommunicationType> revealed = ShownLowering.of(lowering).tree().getStructuredSelection().toList().stream()
                .map(o -> ((PassRow) o).node()).filter(n -> n instanceof Communication)
                .map(n -> ((Communication) n).type()).toList();
        assertEquals(List.of(CommunicationType.ALLREDUCE), revealed, "the linear's nodes, its Allreduce among them");

        editLive(e, graph, canvas, built);
        conflictOnAnUnconnectedTensor(e, graph, canvas);
        pictureOfTheAllreduce(e, graph, canvas, lowering);
    }

    /**
     * The picture of the Lowering view alone with the linear's nodes selected, maximized as a person does to read
     * it (below the editor its lists were a few rows at 1280 x 800); taken last, so that no step after it depends
     * on where the maximize and restore leave the keyboard.
     */
    private void pictureOfTheAllreduce(FusionEditor e, GraphViewer graph, Control canvas, LoweringView lowering)
            throws Exception {
        journey.waitForLowering();
        journey.show(LoweringView.ID);
        page.activate(e);
        person.click(canvas, graph.center("op:tv2"), 0);
        person.until(3000, () -> !ShownLowering.of(lowering).tree().getStructuredSelection().isEmpty());
        var loweringRef = page.findViewReference(LoweringView.ID);
        page.setPartState(loweringRef, org.eclipse.ui.IWorkbenchPage.STATE_MAXIMIZED);
        person.settle(400);
        ShownLowering.of(lowering).tree().getTree().showSelection();
        person.settle(200);
        ViewTestSupport.screenshot(journey.shell(), "lowering-row-parallel-allreduce.png");
        page.setPartState(loweringRef, org.eclipse.ui.IWorkbenchPage.STATE_RESTORED);
        person.settle(400);
    }

    /** Drags palette item {@code item} onto the graph at {@code x, y} of the canvas (an op reads the selection). */
    private void drop(FusionEditor e, String item, int x, int y) {
        Button b = ShownGraph.button(e, item);
        Control palette = b.getParent().getParent();   // the palette's scroller: the wheel brings the item into view
        for (int i = 0; i < 40 && offView(b, palette) != 0; i++) {
            // an item below the view: the wheel down (a notch of -1); above it (scrolled past): up. The pointer
            // moves a little each time: xdotool's synchronous move to where the pointer already is waits long
            person.wheel(palette, 20 + 4 * (i % 2), palette.getSize().y / 2, -offView(b, palette), 0);
        }
        assertEquals(0, offView(b, palette), item + " scrolled into view");
        person.dragTo(b, b.getSize().x / 2, b.getSize().y / 2, ShownGraph.of(e).getControl(), x, y);
    }

    /** 0 when {@code c} is wholly in the scroller's view, 1 when it is (partly) below it, -1 when above it. */
    private static int offView(Control c, Control scroller) {
        int top = c.toDisplay(0, 0).y - scroller.toDisplay(0, 0).y;
        return top < 0 ? -1 : top + c.getSize().y > scroller.getSize().y - 4 ? 1 : 0;
    }

    /** Selects the input on the graph and types its axes, mesh and device split into the Properties view. */
    private void shardInput(FusionEditor e, String name, String axes) throws Exception {
        page.activate(e);
        person.click(ShownGraph.of(e).getControl(), ShownGraph.of(e).center(name), 0);
        Tree props = ShownProperties.show(page, person);
        ShownProperties.type(person, props, "Axes", axes);
        ShownProperties.type(person, props, "Device mesh", "all");
        ShownProperties.type(person, props, "Loop steps", DEVICE_SPLIT);
        var t = e.model().tensor(name).orElseThrow();
        assertEquals(MeshSpec.ALL, t.mesh(), name + "'s mesh typed");
        assertEquals(2, t.loop().size(), name + "'s device split typed: " + t.loop());
        assertNull(e.commands().lastError(), e.commands().lastError());
    }

    /**
     * I clears w's sharding: the output's DIDx is now inferred from x and w's mesh from the output (backward), at
     * once; Ctrl+Z puts w back (one operation). E writes the output's inferred sharding into the file (its badges
     * filled), Ctrl+Z makes it inferred again.
     */
    private void editLive(FusionEditor e, GraphViewer graph, Control canvas, FusionDocument built) {
        var history = OperationHistoryFactory.getOperationHistory();
        int undoable = history.getUndoHistory(e.commands().undoContext()).length;
        page.activate(e);
        person.click(canvas, graph.center("tv1"), 0).press(0, 'i');
        var w = e.model().tensor("tv1").orElseThrow();
        assertEquals(MeshSpec.ABSENT, w.mesh(), "I cleared w's mesh");
        assertTrue(w.loop().isEmpty(), "and its device split: " + w.loop());
        assertEquals(undoable + 1, history.getUndoHistory(e.commands().undoContext()).length, "one operation");
        assertTrue(graph.toolTip("tv2").contains("axis 2 DIDx (outer split by 2), inferred from tv0 (T0) through linear"),
                graph.toolTip("tv2"));
        assertTrue(graph.meshInferred("tv1"), "w's mesh is inferred now");
        assertTrue(graph.toolTip("tv1").contains("inferred from tv2 (T2) through linear, backward"), graph.toolTip("tv1"));
        person.press(SWT.CTRL, 'z');
        assertEquals(built, e.model(), "Ctrl+Z writes w's sharding back");
        assertTrue(graph.toolTip("tv2").contains("inferred from tv1 (T1) through linear"), graph.toolTip("tv2"));

        person.click(canvas, graph.center("tv2"), 0).press(0, 'e');
        var y = e.model().tensor("tv2").orElseThrow();
        assertEquals(MeshSpec.ALL, y.mesh(), "E wrote the mesh as the inputs spell it");
        assertEquals(List.of(new LoopStep.Split(2, new org.hostir.studio.file.ExtentSpec.Symbol("D"), false),
                new LoopStep.Parallelize(2, org.hostir.studio.ir.ParallelType.DIDX)), y.loop(), "and the device split");
        assertEquals(List.of("S", "S", "DIDx"), graph.badges("tv2"), "written now: filled");
        assertFalse(graph.meshInferred("tv2"));
        assertEquals(List.of(), e.problems(), "the explicit form is valid too");
        page.activate(e);
        // the keyboard in the graph again, as a person clicks the node before the next key: the Lowering view
        // lowers the explicit form meanwhile (a Tycho run under load sent this Ctrl+Z elsewhere)
        person.click(canvas, graph.center("tv2"), 0);
        var keyboard = person.focus();
        person.press(SWT.CTRL, 'z');
        assertEquals(built, e.model(), "Ctrl+Z makes it inferred again (the keyboard was in " + keyboard + ", the graph is "
                + canvas + ")");
        assertEquals(List.of("S", "S", "DIDx (inferred)"), graph.badges("tv2"));

        // E and I are the graph's keys only: typed into the find bar (Ctrl+F) with tv2 selected they are text. (The
        // Properties cells typed into above, 'outer_split(1, D); parallelize(1, DIDx)' with an input selected, are
        // the same case: an I there would have cleared the mesh typed just before.)
        person.click(canvas, graph.center("tv2"), 0);
        var typedIn = person.focus();
        person.press(SWT.CTRL, 'f');
        // as a person waits for the bar to show before typing (under load it took longer than 200 ms in CI)
        person.until(5_000, () -> ShownGraph.findField(e) != null);
        var field = ShownGraph.findField(e);
        assertNotNull(field, "Ctrl+F opened the find bar (the keyboard was in " + typedIn + ", the graph is " + canvas
                + ")");
        assertEquals(field, person.focus(), "with the keyboard in its field");
        int before = history.getUndoHistory(e.commands().undoContext()).length;
        person.type("linear", 20);
        person.settle(200);
        assertEquals("linear", field.getText(), "e and i typed as text");
        assertEquals(built, e.model(), "neither E nor I acted on the graph");
        assertEquals(before, history.getUndoHistory(e.commands().undoContext()).length, "no operation");
        person.press(SWT.ESC);
        assertNull(ShownGraph.findField(e), "Esc closed the bar");
    }

    /** A new input cleared to inferred, read by no op: propagation cannot reach it, a marker on its node says so. */
    private void conflictOnAnUnconnectedTensor(FusionEditor e, GraphViewer graph, Control canvas) throws Exception {
        person.click(canvas, 5, 5);   // nothing selected: the new input is alone
        // dropped above the linear, where a person sees it at either guide size (the canvas's lower right corner
        // at 1600 x 1000 is off the canvas at 1280 x 800)
        drop(e, "Input tensor", graph.center("op:tv2")[0] + 40, 16);
        String added = e.model().inputs().getLast();
        person.click(canvas, graph.center(added), 0).press(0, 'i');
        var p = e.problems().stream().filter(q -> q.rule().equals("propagation.no-mesh")).findFirst()
                .orElseThrow(() -> new AssertionError("no propagation.no-mesh among " + e.problems()));
        assertEquals(added, p.tensor(), "on the tensor");
        assertTrue(p.line() > 0, "at its line of the file: " + p);
        assertNotNull(graph.error(added), "the node has the red frame");
        assertTrue(graph.error(added).contains("[propagation.no-mesh]"), graph.error(added));
        assertTrue(java.util.Arrays.stream(file(e).findMarkers(FusionEditor.MARKER, true, 0))
                .anyMatch(m -> m.getAttribute("rule", "").equals("propagation.no-mesh")), "a marker in Problems");
        ViewTestSupport.screenshot(journey.shell(), "editor-propagation-conflict.png");
        person.press(SWT.DEL);
        assertTrue(e.problems().isEmpty(), "deleting it ends the conflict: " + e.problems());
    }

    private static IFile file(FusionEditor e) { return e.getEditorInput().getAdapter(IFile.class); }
}
