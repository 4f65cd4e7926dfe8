package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.custom.CTabItem;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Table;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.PassInspector;
import org.hostir.studio.ui.tests.ShownLowering;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: maximizing the Lowering view by a double click on its tab and restoring it by another left the keyboard
 * focus in no control, so that the next key (a Ctrl+Z) was lost. After both, the view is the active part and its
 * pass list has the keyboard again: Down selects the next pass.
 */
public class ZoomFocusJourneyTest extends JourneyTest {
    @Test
    public void aKeyAfterMaximizingAndRestoringTheLoweringViewReachesIt() throws Exception {
        journey.openSeed("zoom-focus", "ag_matmul_p2p", "zoom.fusion");
        LoweringView view = journey.show(LoweringView.ID);
        journey.waitForLowering();
        PassInspector inspector = ShownLowering.of(view);
        Table passes = (Table) inspector.passList();
        Rectangle first = passes.getItem(0).getBounds();
        person.click(passes, first.x + 20, first.y + first.height / 2);
        person.settle(300);
        assertEquals(passes.getItem(0).getText(0).strip().replace("\u25cf ", ""), inspector.selectedPass(),
                "the click chose the first pass");

        var ref = page.getReference(view);
        doubleClickTab(view);
        assertEquals(IWorkbenchPage.STATE_MAXIMIZED, page.getPartState(ref), "the double click maximized the view");
        doubleClickTab(view);
        assertEquals(IWorkbenchPage.STATE_RESTORED, page.getPartState(ref), "the second one restored it");
        person.settle(600);

        assertSame(view, page.getActivePart(), "the Lowering view is still the active part");
        Control focus = passes.getDisplay().getFocusControl();
        assertNotNull(focus, "no control has the keyboard after maximize and restore");
        assertTrue(inside(focus, ShownLowering.top(view)), "the keyboard is in the active part: " + focus);

        String before = inspector.selectedPass();
        int at = passes.getSelectionIndex();
        person.press(SWT.ARROW_DOWN);
        person.settle(400);
        assertEquals(at + 1, passes.getSelectionIndex(), "Down reached the pass list (" + focus + " had the keyboard)");
        assertTrue(!before.equals(inspector.selectedPass()), "the view shows the next pass: " + inspector.selectedPass());
        assertTrue(passes.getItem(at + 1).getText(0).contains(inspector.selectedPass()),
                "the selected row is the pass shown: " + passes.getItem(at + 1).getText(0));
    }

    /** A double click on the view's tab, where a person aims: the middle of its title. */
    private void doubleClickTab(LoweringView view) {
        CTabFolder folder = null;
        CTabItem tab = null;
        for (Control c = ShownLowering.top(view); c != null && tab == null; c = c.getParent()) {
            if (c instanceof CTabFolder f) {
                for (CTabItem item : f.getItems()) {
                    if (item.getText().equals("Lowering")) {
                        folder = f;
                        tab = item;
                    }
                }
            }
        }
        assertNotNull(tab, "the Lowering view's tab");
        Rectangle b = tab.getBounds();
        person.doubleClick(folder, b.x + b.width / 2, b.y + b.height / 2);
        person.settle(800);
    }

    private static boolean inside(Control c, Control ancestor) {
        for (Control a = c; a != null; a = a.getParent()) if (a == ancestor) return true;
        return false;
    }
}
