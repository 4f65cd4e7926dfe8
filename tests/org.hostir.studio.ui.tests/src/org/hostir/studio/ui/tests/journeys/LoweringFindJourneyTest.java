package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.widgets.Tree;
import org.hostir.studio.ui.passes.PassInspector;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, Deliver 7: search in the Lowering view's program tree, by keys. Ctrl+F in the view opens a find bar over
 * the tree; typing selects the first row whose text holds the word and says "1 of N", Enter goes to the next, a word
 * found nowhere says "not found", Esc closes the bar and gives the keyboard back to the tree.
 */
public class LoweringFindJourneyTest extends JourneyTest {

    @Test
    public void ctrlFFindsANodeInTheProgramTree() throws Exception {
        PassInspector inspector = LoweredFinalProgram.shown(journey, "lowering-find", "ag_matmul_p2p", "find.fusion");
        Tree tree = LoweredFinalProgram.openFindInTree(person, inspector);
        assertSame(inspector.findField(), person.focus(), "the find field has the keyboard");

        List<PassRow> matmuls = inspector.treeRows().stream()
                .filter(r -> r.text().toLowerCase(Locale.ROOT).contains("matmul")).toList();
        assertTrue(!matmuls.isEmpty(), "the final program has a matmul row: " + inspector.treeRows());
        person.type("matmul", 40);
        person.settle(100);
        assertSame(matmuls.get(0), inspector.tree().getStructuredSelection().getFirstElement(), "the first match");
        assertTrue(tree.getSelection()[0].getText().contains(matmuls.get(0).text()), "the tree shows it selected");
        assertEquals("1 of " + matmuls.size(), inspector.findCount());
        person.press(SWT.CR);
        assertSame(matmuls.get(1 % matmuls.size()), inspector.tree().getStructuredSelection().getFirstElement(),
                "Enter: the next match");
        assertEquals((1 % matmuls.size() + 1) + " of " + matmuls.size(), inspector.findCount());
        ViewTestSupport.screenshot(journey.shell(), "lowering-find.png");

        person.type("qqq", 40);
        assertEquals("not found", inspector.findCount(), "a word found nowhere");
        person.press(SWT.ESC);
        assertNull(inspector.findField(), "Esc closed the bar");
        assertSame(tree, person.focus(), "and gave the keyboard back to the tree");
    }

    /**
     * Ctrl+F with the keyboard in a text pane finds in that pane's text: typing selects and scrolls to the first
     * occurrence (case aside) in the pane's StyledText, Enter the next, the bar says "1 of N" for the pane's own count;
     * Esc gives the keyboard back to the pane. The other pane, clicked, then Ctrl+F, finds in its own text.
     */
    /** Typed in lower case: the program says {@code streamIdx} (the stream loop's index), many times. */
    private static final String WORD = "streamidx";

    @Test
    public void ctrlFInATextPaneFindsInThatPanesText() throws Exception {
        PassInspector inspector = LoweredFinalProgram.shown(journey, "lowering-find", "ag_matmul_p2p", "find-text.fusion");
        StyledText before = inspector.panes().get(0), after = inspector.panes().get(1);
        assertSame(inspector.programText(), after, "the right pane is the AFTER pane");
        person.click(after, 60, 8);
        assertSame(after, person.focus(), "the click gave the AFTER pane the keyboard");
        person.press(SWT.CTRL, 'f');
        assertNotNull(inspector.paneFindField(), "Ctrl+F opened the text find bar");
        assertNull(inspector.findField(), "not the tree's");
        assertSame(inspector.paneFindField(), person.focus(), "the find field has the keyboard");

        List<Integer> at = occurrences(after.getText(), WORD);
        assertTrue(at.size() >= 2, "the final program's text names streamIdx more than once: " + after.getText());
        person.type(WORD, 40);
        person.settle(100);
        assertEquals(new Point(at.get(0), at.get(0) + WORD.length()), after.getSelection(), "the first one selected");
        assertEquals("streamIdx", after.getSelectionText(), "case aside");
        assertEquals("1 of " + at.size(), inspector.paneFindCount());
        person.press(SWT.CR);
        assertEquals(new Point(at.get(1), at.get(1) + WORD.length()), after.getSelection(), "Enter: the next one");
        assertEquals("2 of " + at.size(), inspector.paneFindCount());
        int line = after.getLineAtOffset(at.get(1));
        assertTrue(line >= after.getTopIndex() && line <= after.getTopIndex() + after.getClientArea().height
                / after.getLineHeight(), "the match's line " + line + " is scrolled into view");
        ViewTestSupport.screenshot(journey.shell(), "lowering-find-text.png");
        person.press(SWT.ESC);
        assertNull(inspector.paneFindField(), "Esc closed the bar");
        assertSame(after, person.focus(), "and gave the keyboard back to the pane");

        List<Integer> inBefore = occurrences(before.getText(), WORD);
        assertTrue(!inBefore.isEmpty(), "the BEFORE pane names streamIdx too");
        person.click(before, 60, 8);
        person.press(SWT.CTRL, 'f');
        assertSame(inspector.paneFindField(), person.focus(), "Ctrl+F in the BEFORE pane");
        person.type(WORD, 40);
        person.settle(100);
        assertEquals(new Point(inBefore.get(0), inBefore.get(0) + WORD.length()), before.getSelection(),
                "found in the BEFORE pane");
        assertEquals("1 of " + inBefore.size(), inspector.paneFindCount(), "its own count");
        person.press(SWT.ESC);
        assertSame(before, person.focus(), "Esc: the keyboard back to the BEFORE pane");
    }

    /**
     * Drive 17, finding 9: at 1280 x 800 the find bar leaves a pane three lines, and a hit on the third was half under
     * the pane's horizontal scroll bar. A person finds every occurrence in the AFTER pane of the final program with
     * Enter: each hit's line lies whole on the screen, inside the pane and above its horizontal scroll bar.
     */
    @Test
    public void eachHitInATextPaneShowsWholeAt1280x800() throws Exception {
        journey = Journey.inResetStudio(1280, 800);
        person = journey.person();
        PassInspector inspector = LoweredFinalProgram.shown(journey, "lowering-find", "ag_matmul_p2p", "find-whole.fusion");
        StyledText after = inspector.panes().get(1);
        person.click(after, 60, 8);
        person.press(SWT.CTRL, 'f');
        assertSame(inspector.paneFindField(), person.focus(), "Ctrl+F opened the text find bar");
        List<Integer> at = occurrences(after.getText(), WORD);
        person.type(WORD, 40);
        person.settle(100);
        for (int i = 0; i < at.size(); i++) {
            assertEquals((i + 1) + " of " + at.size(), inspector.paneFindCount());
            int line = after.getLineAtOffset(at.get(i));
            int top = after.getLinePixel(line), bottom = top + after.getLineHeight();
            var bar = after.getHorizontalBar();
            int barTop = bar != null && bar.isVisible() ? after.getClientArea().height - bar.getSize().y
                    : after.getClientArea().height;
            if (i == 0) ViewTestSupport.screenshot(journey.shell(), "lowering-find-whole-1280x800.png");
            assertTrue(top >= 0 && bottom <= barTop, "hit " + (i + 1) + " (line " + line + ") at y " + top + ".." + bottom
                    + ", the pane's lines end at " + barTop + " (client area " + after.getClientArea() + ", "
                    + after.getClientArea().height / after.getLineHeight() + " lines)");
            person.press(SWT.CR);
            person.settle(50);
        }
        person.press(SWT.ESC);
    }

    /** Where {@code word} occurs in {@code text}, case aside, in order. */
    private static List<Integer> occurrences(String text, String word) {
        List<Integer> at = new java.util.ArrayList<>();
        String t = text.toLowerCase(Locale.ROOT);
        for (int i = t.indexOf(word); i >= 0; i = t.indexOf(word, i + word.length())) at.add(i);
        return at;
    }
}
