package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.ToolItem;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.ui.passes.LoweringResult;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35 (rounds 17 and 19): the Lowering view's toolbar tooltips name their keys ("Next pass (F6)") only while the
 * view's key context is active. A Lowering view made while the editor was active (as at the perspective's start)
 * kept tooltips without keys, also after a click into it. Here the view is made while the fusion editor is active; a
 * person clicks a pass in its list and hovers each action with a key: its tooltip names that key, once. The view
 * shares the Timeline's ToolTipKeys (TimelineToolTipKeysJourneyTest).
 */
public class LoweringToolTipKeysJourneyTest extends JourneyTest {
    @Test
    public void theActionsTooltipsNameTheirKeysOnceThePersonIsInTheView() throws Exception {
        journey.hide(LoweringView.ID);
        journey.openSeed("lowering-tooltip-keys", "ag_matmul_p2p", "ag_matmul_p2p.fusion");
        LoweringView view = (LoweringView) page.showView(LoweringView.ID, null, IWorkbenchPage.VIEW_VISIBLE);
        assertNotSame(view, page.getActivePart(), "the Lowering view was made while the editor was active");
        journey.waitForLowering();
        assertTrue(view.result() instanceof LoweringResult.Lowered, "the editor's file lowered: " + view.result());

        Table list = (Table) ShownLowering.of(view).passList();
        Rectangle cell = list.getItem(list.getTopIndex()).getBounds();
        person.click(list, cell.x + cell.width / 2, cell.y + cell.height / 2);   // a pass in sight
        person.settle(500);
        assertSame(view, page.getActivePart(), "the click made the Lowering view the active part");
        List<ToolItem> items = Arrays.stream(LoweringToolbarJourneyTest.toolbar(journey.shell()).getItems())
                .filter(i -> (i.getStyle() & SWT.SEPARATOR) == 0).toList();
        assertEquals(LoweringToolbarJourneyTest.ACTIONS.size(), items.size(), "the Lowering view's actions: " + items);
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            var action = LoweringToolbarJourneyTest.ACTIONS.get(i);
            if (action.key() == null) continue;
            String tip = HoveredToolTip.read(person, items.get(i));
            if (i == 1) ViewTestSupport.screenshot(journey.shell(), "lowering-tooltip-keys.png");
            System.out.println("LoweringToolTipKeysJourneyTest: hovering " + action.name() + ": \"" + tip + "\"");
            String key = "(" + action.key() + ")";
            if (!tip.contains(key) || tip.indexOf(key) != tip.lastIndexOf(key)) {
                wrong.add(action.name() + ": \"" + tip + "\" should name " + key + " once");
            }
        }
        assertTrue(person.restAway(journey.shell()), "a tooltip stays");
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }
}
