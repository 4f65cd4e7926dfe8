package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Listener;
import org.eclipse.swt.widgets.Scrollable;
import org.eclipse.ui.IWorkbenchPart;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * CI hung once on a Ctrl+click meant for a tensor below the graph's canvas: the press fell on a view's tab row below
 * it, whose drag tracker waited for a release the test never posted. Person.click now refuses a point outside its
 * control's client area, before the pointer moves, and says which control, its size and the point; a click inside
 * goes through as before, and a folder's tab (outside the folder's client area) is clicked by naming the tab.
 */
public class ClickOutsideRefusedJourneyTest extends JourneyTest {
    @Test
    public void aClickBelowTheCanvasIsRefusedAndPressesNothing() throws Exception {
        FusionEditor e = journey.openSeedActive("click-outside", "ag_matmul_p2p", "outside.fusion");
        GraphViewer g = ShownGraph.of(e);
        Control canvas = g.getControl();
        person.click(canvas, g.center("tv0"), 0);
        assertEquals(List.of("tv0"), g.selectedKeys(), "a click inside selects as before");
        IWorkbenchPart active = page.getActivePart();
        Point pointer = Display.getCurrent().getCursorLocation();
        int[] downs = new int[1];
        Listener down = ev -> downs[0]++;
        Display.getCurrent().addFilter(SWT.MouseDown, down);
        try {
            int below = ((Scrollable) canvas).getClientArea().height + 12;
            String said = refused(() -> person.click(canvas, 40, below, 1, SWT.CTRL), "a Ctrl+click below the canvas");
            assertTrue(said.contains("40," + below) && said.contains(canvas.toString())
                    && said.contains(canvas.getSize().x + " x " + canvas.getSize().y), "it names the point, the control"
                    + " and its size: " + said);
            refused(() -> person.click(canvas, -5, 20), "a click left of it");
            person.settle(200);
        } finally {
            Display.getCurrent().removeFilter(SWT.MouseDown, down);
        }
        assertEquals(0, downs[0], "no button went down anywhere");
        assertEquals(pointer, Display.getCurrent().getCursorLocation(), "the pointer stayed where it was");
        assertSame(active, page.getActivePart(), "no part was activated below");
        assertEquals(List.of("tv0"), g.selectedKeys(), "the selection is as it was");
        ViewTestSupport.screenshot(journey.shell(), "click-outside-refused.png");

        CTabFolder pages = (CTabFolder) ShownGraph.page(e).getParent();
        assertNotEquals(FusionEditor.SOURCE_PAGE, pages.getSelectionIndex());
        person.clickTab(pages.getItem(FusionEditor.SOURCE_PAGE), 1);
        assertEquals(FusionEditor.SOURCE_PAGE, pages.getSelectionIndex(), "a click on the Source tab shows Source");
        person.clickTab(pages.getItem(FusionEditor.GRAPH_PAGE), 1);
        assertEquals(FusionEditor.GRAPH_PAGE, pages.getSelectionIndex(), "and on the Graph tab the graph");
    }

    /** What Person said refusing {@code click}; fails where it clicked. */
    private static String refused(Runnable click, String what) {
        try {
            click.run();
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        throw new AssertionError(what + " was not refused");
    }
}
