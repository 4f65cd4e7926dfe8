package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IMarker;
import org.eclipse.core.resources.IResource;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven with keys and clicks on the Source page: a comma deleted is reported on its own line as a
 * missing comma (Gson said "unterminated object" on the next line); the status line's red refusal goes once the
 * text is fixed; and an error left in the unsaved text, closed with Don't Save, leaves no marker on the saved file
 * (it stayed in Problems, on the file and the project, across restarts).
 */
public class SourceMistakeJourneyTest extends JourneyTest {
    @Test
    public void aMissingCommaIsNamedOnItsLineAndDontSaveLeavesNoMarker() throws Exception {
        FusionEditor editor = journey.openSeed("mistakes", "ag_matmul_p2p", "mistake.fusion");
        IFile file = (IFile) editor.getEditorInput().getAdapter(IFile.class);
        assertEquals(0, markers(file).length, "the seed is valid");
        ShownGraph.showPage(editor, FusionEditor.SOURCE_PAGE);
        StyledText text = ViewTestSupport.descendants(ShownGraph.page(editor).getParent(), StyledText.class).stream()
                .filter(StyledText::isVisible).findFirst().orElseThrow();
        int comma = text.getText().indexOf("\",", text.getText().indexOf("\"name\"")) + 1; // the comma's offset
        int line = text.getLineAtOffset(comma) + 1;

        // the comma after the name's value, deleted by a person
        caretAt(text, comma + 1);
        person.press(SWT.BS);
        person.settle(900);
        IMarker[] broken = markers(file);
        assertEquals(1, broken.length, "one problem: " + Arrays.toString(broken));
        assertEquals(line, broken[0].getAttribute(IMarker.LINE_NUMBER, 0), "on the line that lost its comma");
        assertTrue(broken[0].getAttribute(IMarker.MESSAGE, "").startsWith("missing ',' after this member"),
                broken[0].getAttribute(IMarker.MESSAGE, ""));

        // a graph edit is refused while the text does not parse: red in the status line
        ShownGraph.showPage(editor, FusionEditor.GRAPH_PAGE);
        String key = ShownGraph.of(editor).keys().iterator().next();
        person.click(ShownGraph.of(editor).getControl(), ShownGraph.of(editor).center(key), 0);
        person.press(SWT.DEL);
        assertNotNull(editor.commands().lastError(), "the delete is refused while the source does not parse");

        // the comma typed back: the text parses, the refusal is gone from the status line, and so is the marker
        ShownGraph.showPage(editor, FusionEditor.SOURCE_PAGE);
        caretAt(text, comma);
        person.type(",", 30);
        person.settle(900);
        assertNull(editor.commands().lastError(), "the status line's error cleared after the fix");
        assertEquals(0, markers(file).length, "no marker once fixed");

        // broken again, then closed with Don't Save: the saved file is valid, so no marker stays
        caretAt(text, comma + 1);
        person.press(SWT.BS);
        person.settle(900);
        assertEquals(1, markers(file).length, "the unsaved error is marked");
        answerDontSave();
        person.press(SWT.CTRL, 'w');
        person.settle(500);
        assertTrue(page.getEditorReferences().length == 0 || page.findEditor(editor.getEditorInput()) == null,
                "the editor closed");
        assertEquals(0, markers(file).length, "the markers are the saved file's: " + Arrays.toString(markers(file)));
    }

    /** A click that puts the caret at {@code offset} (before the character there). */
    private void caretAt(StyledText text, int offset) {
        text.setTopIndex(Math.max(0, text.getLineAtOffset(offset) - 3));
        person.settle(100);
        Point p = text.getLocationAtOffset(offset); // the left edge of the character at offset
        person.click(text, p.x + 1, p.y + text.getLineHeight() / 2);
        assertEquals(offset, text.getCaretOffset(), "the caret where the person clicked");
    }

    /**
     * When the "Save Resource" question comes up (Ctrl+W on a dirty editor), clicks its Don't Save; it looks again
     * every 200 ms for up to 30 s, as the question takes its time on a loaded machine.
     */
    private void answerDontSave() {
        Display display = Display.getCurrent();
        long until = System.currentTimeMillis() + 30_000;
        Runnable[] look = new Runnable[1];
        look[0] = () -> {
            for (Shell s : display.getShells()) {
                if (s == journey.shell() || !s.isVisible()) continue;
                for (Button b : ViewTestSupport.descendants(s, Button.class)) {
                    if (b.getText().replace("&", "").equals("Don't Save")) {
                        person.click(b, b.getSize().x / 2, b.getSize().y / 2);
                        return;
                    }
                }
            }
            if (System.currentTimeMillis() < until) display.timerExec(200, look[0]);
        };
        display.timerExec(200, look[0]);
    }

    private static IMarker[] markers(IFile f) throws Exception {
        return f.findMarkers(FusionEditor.MARKER, true, IResource.DEPTH_ZERO);
    }
}
