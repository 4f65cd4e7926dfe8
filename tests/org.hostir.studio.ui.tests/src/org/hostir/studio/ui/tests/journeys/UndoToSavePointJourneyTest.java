package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.custom.CTabItem;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, found driving the Studio by hand: a word typed over on the Source page and undone with Ctrl+Z back to the
 * saved text left the tab's '*' and File > Save enabled. As in Eclipse's text editors and GEF's CommandStack save
 * location, the editor is clean whenever its undo history is back at the save point: on the Source page, on the Graph
 * page (a node moved and moved back with Ctrl+Z), after redo away from it (dirty) and after a save (an undo dirties).
 */
public class UndoToSavePointJourneyTest extends JourneyTest {
    private static final String NAME = "savepoint.fusion";

    @Test
    public void undoBackToTheSavePointCleansTheEditorOnBothPages() throws Exception {
        FusionEditor e = journey.openSeed("undo", "ag_matmul_p2p", NAME);
        page.activate(e);
        person.settle(150);
        assertClean(e, "as opened");

        // Source page: a word double-clicked and typed over, then Ctrl+Z until the saved text is back
        String saved = ShownGraph.source(e).get();
        StyledText text = ShownGraph.typeOverInSource(e, person, "tv1", "float", "double");
        assertTrue(text.getText().contains("\"tv1\", \"dtype\": \"double\""), "the word typed over");
        assertDirty(e, "after typing");
        for (int i = 0; i < 12 && !text.getText().equals(saved); i++) person.press(SWT.CTRL, 'z');
        person.settle(600);
        assertEquals(saved, text.getText(), "Ctrl+Z brought the saved text back");
        ViewTestSupport.screenshot(journey.shell(), "undo-to-save-point-source.png");
        assertClean(e, "the Source page's undo back at the save point");
        person.press(SWT.CTRL | SWT.SHIFT, 'z');
        assertDirty(e, "redo away from the save point");
        person.press(SWT.CTRL, 'z');
        assertClean(e, "and undo back to it");

        // Graph page: a node moved, then Ctrl+Z; redo with Ctrl+Y; a save; an undo after it
        ShownGraph.showPage(e, FusionEditor.GRAPH_PAGE);
        GraphViewer g = ShownGraph.of(e);
        Control canvas = g.getControl();
        int[] c = g.center("tv1");
        int x = g.bounds("tv1")[0];
        person.drag(canvas, c[0], c[1], c[0] + 40, c[1] + 30);
        assertNotEquals(x, g.bounds("tv1")[0], "the node moved");
        assertDirty(e, "after the move");
        person.press(SWT.CTRL, 'z');
        assertEquals(x, g.bounds("tv1")[0], "Ctrl+Z put the node back");
        ViewTestSupport.screenshot(journey.shell(), "undo-to-save-point-graph.png");
        assertClean(e, "the Graph page's undo back at the save point");
        person.press(SWT.CTRL, 'y');
        assertNotEquals(x, g.bounds("tv1")[0], "Ctrl+Y moved it again");
        assertDirty(e, "redo away from the save point");
        person.press(SWT.CTRL, 's');
        person.settle(300);
        assertClean(e, "saved with the node moved");
        person.press(SWT.CTRL, 'z');
        assertDirty(e, "an undo after the save");
        person.press(SWT.CTRL | SWT.SHIFT, 'z');
        assertClean(e, "redo back to the new save point");
    }

    private void assertClean(FusionEditor e, String when) {
        person.settle(100);
        assertFalse(e.isDirty(), "clean " + when);
        assertEquals(NAME, tab().getText(), "the tab has no '*' " + when);
    }

    private void assertDirty(FusionEditor e, String when) {
        person.settle(100);
        assertTrue(e.isDirty(), "dirty " + when);
        assertEquals("*" + NAME, tab().getText(), "the tab shows '*' " + when);
    }

    /** The editor's tab in the editor area (its title is the file's name, '*' before it while dirty). */
    private CTabItem tab() {
        for (CTabFolder folder : ViewTestSupport.descendants(journey.shell(), CTabFolder.class)) {
            if (!folder.isVisible()) continue;
            for (CTabItem item : folder.getItems()) if (item.getText().replace("*", "").equals(NAME)) return item;
        }
        throw new AssertionError("no tab " + NAME);
    }
}
