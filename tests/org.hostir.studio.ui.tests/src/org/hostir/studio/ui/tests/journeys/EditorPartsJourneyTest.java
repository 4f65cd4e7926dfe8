package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.ui.FusionElement;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.editor.EditorBenchmarkTest;
import org.junit.jupiter.api.Test;

/**
 * Issue 32, Deliver 4: the graph is kept by parts, one per tensor, op and arrow, and an edit touches only the figures
 * of what it changed. The viewer counts the figures it makes or redraws; the whole graph was rebuilt on every edit
 * before (every node and every arrow), now one Properties edit of a tensor redraws that tensor alone, a node dragged
 * with the mouse redraws nothing, and the Delete key removes the op's and its output's figures and draws nothing.
 */
public class EditorPartsJourneyTest extends JourneyTest {
    /** 5 ops: no tensor has 4 readers, so no arrow is a stub and none turns into one when the last op goes. */
    private static final int OPS = 5;

    @Test
    public void anEditRedrawsOnlyTheFiguresOfWhatItChanged() throws Exception {
        FusionDocument doc = EditorBenchmarkTest.generated(OPS);
        IFile f = ViewTestSupport.workspaceFile("parts", "parts.fusion", FusionWriter.write(doc));
        FusionEditor e = journey.open(f);
        page.activate(e);
        person.settle(200);
        GraphViewer graph = ShownGraph.of(e);
        int nodes = doc.tensors().size() + doc.ops().size();
        int edges = 3 * OPS;   // two operands and an output per op
        assertEquals(nodes, graph.keys().size());
        assertEquals(nodes + edges, graph.figuresDrawn(), "opening draws every node and arrow once");

        // one Properties edit of the last tensor (nothing reads it): its figure alone is redrawn
        String last = doc.outputs().get(0);
        int drawn = graph.figuresDrawn();
        e.propertySource(FusionElement.tensor(e.workspacePath(), last)).setPropertyValue("memory", "local");
        person.settle(100);
        assertEquals("local", e.model().tensor(last).get().memoryOrDefault().dumpName(), "the edit was made");
        assertEquals(drawn + 1, graph.figuresDrawn(), "one tensor changed: one figure redrawn, not " + (nodes + edges));

        // a node dragged with the mouse: the move is one edit of the layout, and no figure is redrawn
        Control canvas = graph.getControl();
        int[] c = graph.center("tv1");
        int[] before = graph.bounds("tv1");
        drawn = graph.figuresDrawn();
        person.drag(canvas, c[0], c[1], c[0] + 40, c[1] + 30);
        assertNotEquals(before[0], graph.bounds("tv1")[0], "the node moved");
        assertEquals(drawn, graph.figuresDrawn(), "a move redraws no figure");

        // the last op clicked and deleted with the Delete key: its node, its output's and their arrows go
        e.select(List.of(FusionElement.op(e.workspacePath(), OPS - 1)));
        person.settle(100);
        String op = "op:" + last;
        person.click(canvas, graph.center(op), 0);
        assertEquals(List.of(op), graph.selectedKeys());
        drawn = graph.figuresDrawn();
        int[] tv1 = graph.bounds("tv1");
        person.press(SWT.DEL);
        assertTrue(e.model().tensor(last).isEmpty(), "the Delete key deleted the op and its output");
        assertEquals(nodes - 2, graph.keys().size());
        assertEquals(drawn, graph.figuresDrawn(), "a deletion draws nothing");
        assertEquals(List.of(tv1[0], tv1[1]), List.of(graph.bounds("tv1")[0], graph.bounds("tv1")[1]),
                "the other nodes stay where they were");
    }
}
