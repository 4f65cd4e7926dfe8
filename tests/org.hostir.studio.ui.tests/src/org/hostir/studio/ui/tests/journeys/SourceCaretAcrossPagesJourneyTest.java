package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CLabel;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.Point;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Found driving the Studio (issue 35): the caret put on the Source page's outputs line, then the Graph page, tv1
 * duplicated there with Ctrl+D, then back to Source: the caret was on the first line and the text scrolled to its top,
 * as if the file had been opened anew. Eclipse's multi-page editors (PDE's manifest editor) keep the source's caret
 * through an edit on another page. The caret must be where it was in the text (the outputs line, the same column),
 * the status line's position field must say so, and the line must be in view.
 */
public class SourceCaretAcrossPagesJourneyTest extends JourneyTest {
    @Test
    public void anEditOnTheGraphPageLeavesTheSourceCaretWhereItWas() throws Exception {
        FusionEditor e = journey.openSeed("caretpages", "ag_matmul_p2p", "caret.fusion");
        ShownGraph.showPage(e, FusionEditor.SOURCE_PAGE);
        person.settle(300);
        StyledText text = ShownGraph.sourceWidget(e);
        int at = text.getText().indexOf("\"outputs\"") + 1;
        Point p = text.getLocationAtOffset(at);
        person.click(text, p.x + 1, p.y + text.getLineHeight(at) / 2);
        String line = caretLine(text);
        int column = caretColumn(text);
        assertTrue(line.contains("\"outputs\""), "the click put the caret on the outputs line: " + line);

        ShownGraph.showPage(e, FusionEditor.GRAPH_PAGE);
        person.settle(300);
        GraphViewer graph = ShownGraph.of(e);
        int tensors = e.model().tensors().size();
        person.click(graph.getControl(), graph.center("tv1"), 0);
        person.press(SWT.CTRL, 'd');
        assertEquals(tensors + 1, e.model().tensors().size(), "Ctrl+D on the Graph page duplicated tv1");

        ShownGraph.showPage(e, FusionEditor.SOURCE_PAGE);
        person.settle(300);
        ViewTestSupport.screenshot(journey.shell(), "source-caret-after-graph-edit.png");
        // the edit adds a layout section after the outputs line, which gains a comma: the line, not its whole text
        assertTrue(caretLine(text).contains("\"outputs\""), "back on the Source page the caret is on the outputs"
                + " line it was on (" + line.strip() + "), not on " + caretLine(text).strip());
        assertEquals(column, caretColumn(text), "and at its column");
        int caretLine = text.getLineAtOffset(text.getCaretOffset());
        int rows = text.getClientArea().height / text.getLineHeight();
        assertTrue(caretLine >= text.getTopIndex() && caretLine < text.getTopIndex() + rows, "the caret's line "
                + (caretLine + 1) + " is in view (lines " + (text.getTopIndex() + 1) + " on, " + rows + " shown)");
        String position = (caretLine + 1) + " : " + (column + 1);
        assertTrue(shownPosition().startsWith(position + " "), "the status line says " + position + ": "
                + shownPosition());
    }

    private static String caretLine(StyledText text) { return text.getLine(text.getLineAtOffset(text.getCaretOffset())); }

    private static int caretColumn(StyledText text) {
        return text.getCaretOffset() - text.getOffsetAtLine(text.getLineAtOffset(text.getCaretOffset()));
    }

    /** The status line's position field as shown ("line : column : offset"), or "" when none shows. */
    private String shownPosition() {
        List<String> shown = ViewTestSupport.descendants(journey.shell(), CLabel.class).stream()
                .filter(l -> l.isVisible() && l.getParent().getClass().getSimpleName().equals("StatusLine"))
                .map(CLabel::getText).filter(t -> t != null && t.matches("\\d+ : \\d+.*")).toList();
        return shown.isEmpty() ? "" : shown.get(0);
    }
}
