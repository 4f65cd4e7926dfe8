package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Spinner;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.PassInspector;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, Deliver 7: the Lowering view's rank-vs-rank diff, by the mouse and keys. "Compare with: rank 1" beside
 * rank 0 lowers rank 1 too and shows, for the selected pass, rank 0's program against rank 1's: the tree is their
 * structural diff (ag_matmul_p2p's ranks lower to the same program: no row changed), the text panes the two
 * programs side by side.
 */
public class LoweringCompareJourneyTest extends JourneyTest {

    @Test
    public void compareWithRank1ShowsTheTwoRanksPrograms() throws Exception {
        journey.openSeed("lowering-compare", "ag_matmul_p2p", "compare.fusion");
        LoweringView view = journey.show(LoweringView.ID);
        journey.waitForLowering();
        PassInspector inspector = ShownLowering.of(view);
        String last = inspector.visibleEntries().getLast().step().pass();
        // first a pass that changed the program: the AFTER pane selects its first change
        String changed = inspector.visibleEntries().stream().filter(e -> e.step().changed()).findFirst()
                .orElseThrow().step().pass();
        inspector.selectPass(changed);
        person.settle(300);
        assertTrue(inspector.panes().getLast().getSelectionCount() > 0,
                "the AFTER pane selects " + changed + "'s change");
        Combo against = ViewTestSupport.descendants(view.getViewSite().getShell(), Combo.class).stream()
                .filter(c -> c.getItemCount() > 0 && c.getItem(0).equals("none") && c.isVisible()).findFirst()
                .orElseThrow(() -> new AssertionError("no Compare with combo"));
        assertEquals(List.of("none", "rank 1"), List.of(against.getItems()), "every rank but the one shown");
        try {
            person.click(against, against.getSize().x / 2, against.getSize().y / 2);
            person.settle(300);
            person.press(SWT.ARROW_DOWN).press(SWT.CR);   // rank 1, the first offered beside rank 0
            person.settle(200);
            assertEquals("rank 1", against.getText(), "picked from the list");
            journey.waitForLowering();
            PassTrace.RankTrace compared = inspector.comparedRank();
            assertNotNull(compared, "rank 1 is compared");
            ranksAlikeKeepNoStaleSelection(view, inspector, changed);
            inspector.selectPass(last);
            person.settle(200);
            assertEquals(1, compared.rank());
            assertEquals(0, inspector.rank().rank(), "with the rank shown");
            List<PassRow> expected = PassRow.flatten(PassRow.of(inspector.rank().result(), compared.result()));
            assertEquals(expected.stream().map(r -> r.kind() + " " + r.text()).toList(),
                    inspector.treeRows().stream().map(r -> r.kind() + " " + r.text()).toList(),
                    "the tree is the two final programs' diff");
            // ag_matmul_p2p's two ranks lower to one program (peers are expressions of the device index, as in
            // nvFuser's Host IR): the diff says so, no row changed
            assertTrue(inspector.treeRows().stream().noneMatch(PassRow::isChange), "the two ranks' programs are alike");
            assertTrue(view.getContentDescription().contains(last + ": rank 1 against rank 0"), view.getContentDescription());
            ViewTestSupport.screenshot(journey.shell(), "lowering-rank-compare.png");
        } finally {
            against.select(0);   // as the other tests expect the view
            against.notifyListeners(SWT.Selection, new Event());
            person.settle(100);
        }
    }
    /**
     * Issue 35, driven by hand: "Compare with" offered the rank shown (rank 0 against rank 0, nothing to see). It lists
     * every other rank: rank 1 beside rank 0, rank 0 beside rank 1; a person compares rank 1 with rank 0, then picks
     * rank 1 under Rank: the two change places (rank 0 is compared), rank 1 is not offered.
     */
    @Test
    public void compareWithLeavesOutTheRankShown() throws Exception {
        journey.openSeed("lowering-compare", "ag_matmul_p2p", "compare-others.fusion");
        LoweringView view = journey.show(LoweringView.ID);
        journey.waitForLowering();
        PassInspector inspector = ShownLowering.of(view);
        List<Combo> combos = ViewTestSupport.descendants(ShownLowering.fields(view), Combo.class);
        Combo rank = combos.getFirst(), against = combos.get(1);
        assertEquals("0", rank.getText());
        assertEquals(List.of("none", "rank 1"), List.of(against.getItems()), "beside rank 0");
        try {
            pick(against, 1);
            journey.waitForLowering();
            assertEquals("rank 1", against.getText());
            assertEquals(1, inspector.comparedRank().rank(), "rank 1 compared");
            pick(rank, 1);
            journey.waitForLowering();
            assertEquals("1", rank.getText());
            assertEquals(List.of("none", "rank 0"), List.of(against.getItems()), "beside rank 1");
            assertEquals("rank 0", against.getText(), "the ranks changed places");
            assertEquals(1, inspector.rank().rank());
            assertEquals(0, inspector.comparedRank().rank(), "rank 0 compared with rank 1");
            assertTrue(view.getContentDescription().contains(": rank 0 against rank 1"), view.getContentDescription());
            ViewTestSupport.screenshot(journey.shell(), "lowering-rank-compare-others.png");
        } finally {
            rank.select(0);   // as the other tests expect the view
            rank.notifyListeners(SWT.Selection, new Event());
            against.select(0);
            against.notifyListeners(SWT.Selection, new Event());
            person.settle(100);
        }
    }

    /** A person opens {@code combo}'s list and goes down {@code downs} items from the chosen one, Enter. */
    private void pick(Combo combo, int downs) {
        person.click(combo, combo.getSize().x / 2, combo.getSize().y / 2);
        person.settle(300);
        for (int i = 0; i < downs; i++) person.press(SWT.ARROW_DOWN);
        person.press(SWT.CR);
        person.settle(200);
    }

    /**
     * Rank 1 compared with rank 0, then the person types 3 into Devices: the view lowered rank 0 again but not rank
     * 1, and showed rank 0's BEFORE and AFTER while "Compare with" still said rank 1 (issue 35, driven by hand: after
     * the Timeline's Show in Lowering took a run's 8 devices). Now the compared rank is lowered with the new
     * settings too, and the panes go on comparing the two ranks.
     */
    @Test
    public void theComparedRankIsLoweredAgainWhenTheDevicesChange() throws Exception {
        journey.openSeed("lowering-compare", "ag_matmul_p2p", "compare-devices.fusion");
        LoweringView view = journey.show(LoweringView.ID);
        journey.waitForLowering();
        PassInspector inspector = ShownLowering.of(view);
        Combo against = ViewTestSupport.descendants(view.getViewSite().getShell(), Combo.class).stream()
                .filter(c -> c.getItemCount() > 0 && c.getItem(0).equals("none") && c.isVisible()).findFirst()
                .orElseThrow(() -> new AssertionError("no Compare with combo"));
        Spinner devices = ShownLowering.spinner(view, "Devices");
        try {
            person.click(against, against.getSize().x / 2, against.getSize().y / 2);
            person.settle(300);
            person.press(SWT.ARROW_DOWN).press(SWT.CR);   // rank 1, the first offered beside rank 0
            person.settle(200);
            journey.waitForLowering();
            assertNotNull(inspector.comparedRank(), "rank 1 is compared");

            person.click(devices, 10, devices.getSize().y / 2);
            person.press(SWT.CTRL, 'a');
            person.type("3", 30);
            person.press(SWT.TAB);
            journey.waitForLowering();
            assertEquals(3, view.devices(), "the view lowers for 3 devices");
            assertEquals("rank 1", against.getText(), "Compare with still says rank 1");
            PassTrace.RankTrace compared = inspector.comparedRank();
            assertNotNull(compared, "so rank 1 is compared, lowered for 3 devices: " + view.getContentDescription());
            assertEquals(1, compared.rank());
            String last = inspector.visibleEntries().getLast().step().pass();
            inspector.selectPass(last);
            person.settle(200);
            assertTrue(view.getContentDescription().contains(last + ": rank 1 against rank 0"),
                    "the panes compare the ranks: " + view.getContentDescription());
            ViewTestSupport.screenshot(journey.shell(), "lowering-rank-compare-3-devices.png");
        } finally {
            against.select(0);   // as the other tests expect the view
            against.notifyListeners(SWT.Selection, new Event());
            devices.setSelection(2);
            devices.notifyListeners(SWT.Selection, new Event());
            journey.waitForLowering();
        }
    }

    /**
     * Issue 35, driven by hand in Light at 1600 x 1000: after a changed pass's BEFORE and AFTER, "Compare with: rank 1"
     * showed the two ranks' programs, alike for ag_matmul_p2p, with the change's lines still selected, as if the ranks
     * differed there, and a description that did not say they are the same.
     */
    private void ranksAlikeKeepNoStaleSelection(LoweringView view, PassInspector inspector, String changed) {
        person.settle(300);
        List<StyledText> panes = inspector.panes();
        assertEquals(panes.getFirst().getText(), panes.getLast().getText(), "ag_matmul_p2p's ranks lower alike");
        ViewTestSupport.screenshot(journey.shell(), "lowering-rank-compare-alike.png");
        for (StyledText pane : panes) {
            assertEquals("", pane.getSelectionText(), "no line of the two alike programs is shown selected");
        }
        assertTrue(view.getContentDescription().endsWith(changed + ": rank 1 against rank 0, the same program"),
                view.getContentDescription());
    }
}
