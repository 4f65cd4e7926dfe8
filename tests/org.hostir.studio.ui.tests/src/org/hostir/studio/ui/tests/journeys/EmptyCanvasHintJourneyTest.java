package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.editor.NewFusionWizard;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35 (polish): an empty fusion's graph said nothing about what to do. A new empty fusion (File > New >
 * Fusion's "(empty fusion)") opens with a hint drawn on the canvas that names the palette's real entries; dragging
 * "Input tensor" onto the graph, as the hint says, adds a tensor and the hint goes; Ctrl+Z empties the graph and
 * it is back.
 */
public class EmptyCanvasHintJourneyTest extends JourneyTest {

    @Test
    public void anEmptyFusionShowsAHintThatGoesWithTheFirstNode() throws Exception {
        IFile f = ViewTestSupport.workspaceFile("emptyhint", "emptyhint.fusion",
                NewFusionWizard.contents(NewFusionWizard.EMPTY, "emptyhint"));
        FusionEditor e = journey.open(f);
        page.activate(e);
        person.settle(200);
        assertTrue(e.model().tensors().isEmpty() && e.model().ops().isEmpty(), "an empty fusion");
        GraphViewer graph = ShownGraph.of(e);
        String hint = graph.emptyHint();
        assertNotNull(hint, "the empty graph shows a hint");
        // the hint names what the palette has: a person can find each entry it mentions
        for (String entry : List.of("Input tensor", "add", "matmul")) {
            assertTrue(hint.contains(entry), hint);
            button(ShownGraph.page(e), entry);
        }
        assertTrue(hint.contains("Source page"), hint);
        Control canvas = graph.getControl();
        int[] at = graph.emptyHintBounds();
        assertTrue(at[0] >= 0 && at[1] >= 0 && at[0] + at[2] <= canvas.getSize().x && at[1] + at[3] <= canvas.getSize().y,
                "the hint lies on the visible canvas: " + java.util.Arrays.toString(at) + " in " + canvas.getSize());
        File shot = ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "empty-canvas-hint.png");
        if (shot != null) {
            var origin = Screens.inShot(page.getWorkbenchWindow().getShell(), canvas);
            double drawn = Screens.contrastingFraction(shot, origin.x + at[0], origin.y + at[1], at[2], at[3],
                    canvas.getBackground().getRGB());
            assertTrue(drawn > 0.02, "the hint's text is drawn, readable on the canvas: " + drawn);
        }

        Button input = button(ShownGraph.page(e), "Input tensor");
        person.dragTo(input, input.getSize().x / 2, input.getSize().y / 2, canvas, canvas.getSize().x / 2,
                canvas.getSize().y / 2);
        assertEquals(1, e.model().tensors().size(), "the dragged input tensor was added");
        assertNull(ShownGraph.of(e).emptyHint(), "the hint goes with the first node");
        assertNull(ShownGraph.of(e).emptyHintBounds());
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "empty-canvas-hint-gone.png");

        page.activate(e);
        person.settle(100);
        person.press(SWT.CTRL, 'z');
        assertTrue(e.model().tensors().isEmpty(), "Ctrl+Z removes the tensor again");
        assertNotNull(ShownGraph.of(e).emptyHint(), "and the empty graph shows the hint again");
    }

    private static Button button(Control root, String text) {
        return ViewTestSupport.descendants(root, Button.class).stream().filter(b -> text.equals(b.getText()))
                .findFirst().orElseThrow(() -> new AssertionError("no palette entry " + text));
    }
}
