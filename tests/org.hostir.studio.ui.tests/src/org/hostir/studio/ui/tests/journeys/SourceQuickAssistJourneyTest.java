package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IMarker;
import org.eclipse.core.resources.IResource;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ScreenPixels;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, found driving the Studio by hand: Ctrl+1 on an error line of the Source page showed nothing. As in
 * Eclipse's editors it opens the quick assist list: the problem's quick fixes (those of the Problems view), one
 * picked with Enter and applied to the text and the model, or "No suggestions available" for a problem without any.
 */
public class SourceQuickAssistJourneyTest extends JourneyTest {
    @Test
    public void ctrl1OnAnErrorLineOffersItsQuickFixesOrSaysThereAreNone() throws Exception {
        FusionEditor e = journey.openSeed("quick-assist", "ag_matmul_p2p", "assist.fusion");
        IFile file = e.getEditorInput().getAdapter(IFile.class);
        page.activate(e);

        // an output that is no tensor: a problem on its line, which no quick fix mends
        StyledText text = ShownGraph.typeOverInSource(e, person, "outputs", "tv2", "tv9");
        person.settle(600);
        int outputs = text.getLineAtOffset(text.getCaretOffset()) + 1;
        assertTrue(markerLines(file).contains(outputs), "a problem on the outputs line " + outputs + ": " + e.problems());
        person.press(SWT.CTRL, '1');
        person.settle(500);
        assertEquals(List.of("No suggestions available"), proposals(), "Ctrl+1 where no fix applies");
        assertFitsItsRows(1);
        ViewTestSupport.screenshot(journey.shell(), "source-quick-assist-none.png");
        person.press(SWT.ESC);
        person.settle(200);
        assertEquals(List.of(), proposals(), "Escape closes the list");
        ShownGraph.typeOverInSource(e, person, "outputs", "tv9", "tv2");
        person.settle(600);

        // tv0's mesh by keys: "all" selected and deleted with its quotes, a list naming device 0 twice typed
        ShownGraph.typeOverInSource(e, person, "tv0", "all", "");
        person.press(SWT.BS).press(SWT.ARROW_RIGHT).press(SWT.BS).press(SWT.BS).type("[0, 0]", 30);
        person.settle(900);
        int line = text.getLineAtOffset(text.getCaretOffset()) + 1;
        assertTrue(text.getLine(line - 1).contains("\"mesh\": [0, 0]}"), text.getLine(line - 1));
        assertTrue(markerLines(file).contains(line), "a problem on tv0's line " + line + ": " + e.problems());
        person.press(SWT.CTRL, '1');
        person.settle(500);
        assertEquals(List.of("Set the mesh of tv0 to all"), proposals(), "Ctrl+1 offers the marker's quick fix: "
                + e.problems());
        ViewTestSupport.screenshot(journey.shell(), "source-quick-assist-fix.png");
        assertFitsItsRows(1);
        person.press(SWT.CR);
        person.settle(800);
        assertEquals(List.of(), proposals(), "Enter applied the fix and closed the list");
        assertEquals(MeshSpec.ALL, e.model().tensor("tv0").get().mesh(), "the model's tv0 has the mesh all");
        String tv0 = text.getText().substring(text.getText().indexOf("\"tv0\""));
        assertTrue(tv0.substring(0, tv0.indexOf('\n')).contains("\"mesh\": \"all\""), "the text shows it: " + tv0);
        assertTrue(e.problems().isEmpty(), "no problem left: " + e.problems());
        assertTrue(markerLines(file).isEmpty(), "and no marker");
        assertFalse(text.isDisposed());
    }

    /**
     * Round 18's hand drive at 1280 x 800: the list opened at JFace's default of ten rows for one proposal, tall and
     * cut by the screen's bottom edge; round 19's: fitted, it still showed one empty row below its one proposal. The
     * list's window lies on the monitor and holds exactly its rows: its table is as tall as they are (to the nearest
     * row) and, on the screen, what lies below the last row's drawing is less than half a row of background.
     */
    private void assertFitsItsRows(int rows) {
        for (Shell s : journey.shell().getDisplay().getShells()) {
            if (s == journey.shell() || !s.isVisible()) continue;
            for (Table t : ViewTestSupport.descendants(s, Table.class)) {
                if (!t.isVisible()) continue;
                Rectangle shown = s.getBounds(), screen = s.getMonitor().getBounds();
                int row = t.getItemHeight(), blank = blankBelowLastRow(t);
                System.out.println("quick assist list at " + shown + " (client " + s.getClientArea() + ") on " + screen
                        + ": table " + t.getBounds() + " (client " + t.getClientArea() + "), " + t.getItemCount()
                        + " rows of " + row + " px, the last at " + t.getItem(t.getItemCount() - 1).getBounds() + ", "
                        + blank + " px of background below it");
                assertTrue(screen.contains(shown.x, shown.y) && shown.x + shown.width <= screen.x + screen.width
                        && shown.y + shown.height <= screen.y + screen.height, "the list " + shown + " lies on the"
                        + " monitor " + screen);
                assertEquals(rows, Math.round((float) t.getSize().y / row), "the list's table shows as many rows as"
                        + " it holds: " + t.getSize().y + " px tall, rows of " + row + " px");
                assertTrue(blank < row / 2, "no empty row below the last proposal: " + blank + " px of background"
                        + " below it on the screen, rows of " + row + " px");
                assertTrue(shown.width >= 200, "the list is wide enough to read: " + shown.width);
                return;
            }
        }
        throw new AssertionError("no quick assist list on the screen");
    }

    /**
     * The pixel rows of the table's background, as the screen shows the table, from its bottom edge up to the last
     * row's drawing (its text, or the selection's colour). The right edge, where an overlay scroll bar may be drawn,
     * is left out.
     */
    private static int blankBelowLastRow(Table t) {
        ImageData shot = ScreenPixels.of(t);
        RGB background = t.getBackground().getRGB();
        int blank = 0;
        for (int y = shot.height - 1; y >= 0; y--) {
            for (int x = 2; x < shot.width - 16; x++) {
                RGB p = shot.palette.getRGB(shot.getPixel(x, y));
                if (Math.abs(p.red - background.red) + Math.abs(p.green - background.green)
                        + Math.abs(p.blue - background.blue) > 24) return blank;
            }
            blank++;
        }
        return blank;
    }

    /** The lines of the file's fusion problem markers. */
    private static List<Integer> markerLines(IFile file) throws Exception {
        return Arrays.stream(file.findMarkers(FusionEditor.MARKER, true, IResource.DEPTH_ZERO))
                .map(m -> m.getAttribute(IMarker.LINE_NUMBER, -1)).toList();
    }

    /** The lines of the proposals list on screen (a popup shell's table), none when it is closed. */
    private List<String> proposals() {
        List<String> shown = new ArrayList<>();
        for (Shell s : journey.shell().getDisplay().getShells()) {
            if (s == journey.shell() || !s.isVisible()) continue;
            for (Table t : ViewTestSupport.descendants(s, Table.class)) {
                if (!t.isVisible()) continue;
                for (TableItem item : t.getItems()) shown.add(item.getText());
            }
        }
        return shown;
    }
}
