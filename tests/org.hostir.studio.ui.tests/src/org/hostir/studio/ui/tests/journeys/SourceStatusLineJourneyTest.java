package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CLabel;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.ide.IDE;
import org.eclipse.ui.texteditor.ITextEditor;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, found driving the Studio: with the Source page in front the status line showed none of the fields the
 * Text Editor shows (Writable, Insert, line : column). The oracle is Eclipse's own Text Editor on the same text with
 * the same keys: a click before a digit, Right, Down, Insert (Overwrite), a digit typed over another, Insert again,
 * Ctrl+Z; after each, the Source page's fields must read as the Text Editor's did, and the position field must name
 * the caret's line and column. On the Graph page, which has no caret, the fields go; back on Source they return.
 */
public class SourceStatusLineJourneyTest extends JourneyTest {
    private static final String SEED = "ag_matmul_p2p";
    /** The Text Editor's fields: element state, input mode, line : column (: offset). */
    private static final Pattern STATE = Pattern.compile("Writable|Read Only");
    private static final Pattern MODE = Pattern.compile("(Smart )?Insert|Overwrite");
    private static final Pattern POSITION = Pattern.compile("(\\d+) : (\\d+).*");

    @Test
    public void theSourcePageShowsTheTextEditorsStatusFieldsAndTheyFollowTheCaret() throws Exception {
        IFile txt = ViewTestSupport.copyToWorkspace("statusline", "examples/seeds/" + SEED + ".fusion", "status.txt");
        ITextEditor plainEditor = (ITextEditor) IDE.openEditor(page, txt, "org.eclipse.ui.DefaultTextEditor");
        person.settle(300);
        List<String> oracle = walk((StyledText) plainEditor.getAdapter(Control.class), "text-editor");
        System.out.println("Text Editor's status line, step by step:\n  " + String.join("\n  ", oracle));
        assertTrue(oracle.stream().allMatch(s -> s.contains("Writable | ")), "the oracle shows its fields: " + oracle);
        page.closeEditor(plainEditor, false);

        FusionEditor e = journey.openSeed("statusline", SEED, "status.fusion");
        ShownGraph.showPage(e, FusionEditor.SOURCE_PAGE);
        person.settle(300);
        StyledText source = ShownGraph.sourceWidget(e);
        List<String> shown = walk(source, "source-page");
        System.out.println("Source page's status line, step by step:\n  " + String.join("\n  ", shown));
        assertEquals(String.join("\n", oracle), String.join("\n", shown),
                "the Source page's status line shows, step by step, what the Text Editor's shows for the same keys");

        List<String> before = fields();
        ShownGraph.showPage(e, FusionEditor.GRAPH_PAGE);
        person.settle(300);
        assertEquals(List.of(), fields(), "the Graph page has no caret: no text fields on the status line");
        ShownGraph.showPage(e, FusionEditor.SOURCE_PAGE);
        person.settle(300);
        assertEquals(before, fields(), "back on the Source page the fields return, the caret where it was");
        assertCaretShown(source, fields(), "back on the Source page");
    }

    /**
     * The keys of the journey in {@code text}: what the status line's fields show after each, as
     * "step: state | mode | position"; each position is asserted to be the caret's, each mode what typing does.
     */
    private List<String> walk(StyledText text, String who) {
        List<String> trace = new ArrayList<>();
        String original = text.getText();
        int four = original.indexOf("\"K\": 4") + 5;
        Point at = text.getLocationAtOffset(four);
        person.click(text, at.x + 1, at.y + text.getLineHeight(four) / 2);
        step(text, "click before K's 4", trace);
        person.press(SWT.ARROW_RIGHT);
        step(text, "Right", trace);
        person.press(SWT.ARROW_LEFT).press(SWT.ARROW_DOWN);
        step(text, "Left, Down", trace);
        person.press(SWT.ARROW_UP).press(SWT.INSERT);
        step(text, "Up, Insert", trace);
        ViewTestSupport.screenshot(journey.shell(), "status-line-" + who + ".png");
        person.type("5", 30);
        step(text, "5 typed", trace);
        assertEquals(original.length(), text.getText().length(), "Overwrite: the 5 replaced the 4 (" + who + ")");
        assertEquals('5', text.getText().charAt(four), "the 5 is where the 4 was (" + who + ")");
        person.press(SWT.INSERT);
        step(text, "Insert", trace);
        person.press(SWT.CTRL, 'z');
        person.settle(300);
        step(text, "Ctrl+Z", trace);
        assertEquals(original, text.getText(), "Ctrl+Z put the 4 back (" + who + ")");
        return trace;
    }

    private void step(StyledText text, String what, List<String> trace) {
        person.settle(150);
        List<String> shown = fields();
        assertCaretShown(text, shown, what);
        trace.add(what + ": " + String.join(" | ", shown));
    }

    /** The position field names the caret's line and column (counted from 1, as the Text Editor counts). */
    private static void assertCaretShown(StyledText text, List<String> shown, String after) {
        int caret = text.getCaretOffset();
        int line = text.getLineAtOffset(caret);
        String expected = (line + 1) + " : " + (caret - text.getOffsetAtLine(line) + 1);
        String position = shown.stream().filter(s -> POSITION.matcher(s).matches()).findFirst().orElse(null);
        assertTrue(position != null, "after " + after + " the status line shows a position field: " + shown);
        Matcher m = POSITION.matcher(position);
        assertTrue(m.matches() && (m.group(1) + " : " + m.group(2)).equals(expected),
                "after " + after + " the position field reads " + position + ", the caret is at " + expected);
    }

    /** The text fields of the workbench window's status line as shown (its visible labels), in their order. */
    private List<String> fields() {
        return ViewTestSupport.descendants(journey.shell(), CLabel.class).stream()
                .filter(l -> l.isVisible() && l.getParent().getClass().getSimpleName().equals("StatusLine"))
                .map(CLabel::getText).filter(t -> t != null
                        && (STATE.matcher(t).matches() || MODE.matcher(t).matches() || POSITION.matcher(t).matches()))
                .toList();
    }
}
