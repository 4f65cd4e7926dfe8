package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.swt.custom.CLabel;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.PassInspector;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Drive 17, findings 7 and 10. While an edit is lowered again the view keeps what it showed: its description line and
 * the panes' BEFORE/AFTER titles stayed blank for about a second, and the view jumped up a line and back. And the time
 * column's tooltip says that the first lowering after start includes the JVM's warm-up.
 */
public class LoweringRelowerJourneyTest extends JourneyTest {
    @AfterEach
    public void hide() { journey.hide(LoweringView.ID); }

    @Test
    public void anEditIsLoweredAgainWithoutBlankingTheView() throws Exception {
        LoweringView view = journey.show(LoweringView.ID);
        FusionEditor e = journey.openSeed("journeys", "ag_matmul_p2p", "relower.fusion");
        page.activate(e);
        journey.waitForLowering();
        PassInspector inspector = ShownLowering.of(view);
        inspector.selectPass("StreamParallelType");
        person.settle(200);
        String description = view.getContentDescription();
        assertTrue(description.contains("StreamParallelType"), description);
        assertEquals(2, titles(inspector).size(), "BEFORE and AFTER titled: " + titles(inspector));

        // sampled from the first key until the new lowering is in and painted, every 10 ms
        List<String> samples = new ArrayList<>();
        Display display = journey.shell().getDisplay();
        boolean[] sampling = {true};
        Runnable sample = new Runnable() {
            @Override
            public void run() {
                if (!sampling[0] || view.getViewSite().getShell().isDisposed()) return;
                samples.add(view.getContentDescription() + " | " + titles(inspector) + " | pass "
                        + inspector.selectedPass() + ", rank " + (inspector.rank() == null ? null : inspector.rank().rank())
                        + ", " + (view.result() == null ? null : view.result().getClass().getSimpleName()));
                display.timerExec(10, this);
            }
        };
        display.timerExec(0, sample);
        var result = view.result();
        ShownGraph.typeOverInSource(e, person, "M", "8", "16");   // M = 16: a new program, lowered again
        journey.waitForLowering();
        person.settle(300);
        sampling[0] = false;
        assertTrue(view.result() != result, "the edit was lowered again");
        ViewTestSupport.screenshot(journey.shell(), "lowering-relowered.png");
        assertTrue(samples.size() > 20, "sampled through the lowering: " + samples.size());
        List<String> changes = new ArrayList<>();
        for (int i = 0; i < samples.size(); i++) {
            if (i == 0 || !samples.get(i).equals(samples.get(i - 1))) changes.add(i + ": " + samples.get(i));
        }
        System.out.println("relower samples: " + String.join("\n  ", changes));
        for (String s : samples) {
            assertTrue(s.startsWith(description) && s.contains("BEFORE ") && s.contains("AFTER "), "while lowered again"
                    + " the view showed \"" + s + "\" (" + samples.indexOf(s) + " of " + samples.size() + " samples)");
        }
        assertEquals(description, view.getContentDescription(), "the same pass after the new lowering");
    }

    @Test
    public void theTimeColumnSaysTheFirstLoweringIncludesWarmUp() throws Exception {
        LoweringView view = journey.show(LoweringView.ID);
        FusionEditor e = journey.openSeed("journeys", "ag_matmul_p2p", "warmup.fusion");
        page.activate(e);
        journey.waitForLowering();
        Table passes = (Table) ShownLowering.of(view).passList();
        var cell = passes.getSelection()[0].getBounds(1);   // the selected pass's row, in sight
        person.moveTo(passes, cell.x + cell.width / 2 - 3, cell.y + cell.height / 2);
        person.moveTo(passes, cell.x + cell.width / 2, cell.y + cell.height / 2);
        person.settle(1500);
        String[] tip = {tooltip(passes.getDisplay())};
        person.until(2000, () -> !(tip[0] = tooltip(passes.getDisplay())).isEmpty());
        ViewTestSupport.screenshot(journey.shell(), "lowering-time-tooltip.png");
        assertTrue(tip[0].contains(" took ") && tip[0].contains("\u00b5s") && tip[0].contains("warm-up"),
                "the time's tooltip: \"" + tip[0] + "\"");
        assertNotNull(passes.getColumn(1).getToolTipText());
        person.restAway(journey.shell());
    }

    /** The compare panes' visible titles (CLabels of the diff) that are not blank. */
    private static List<String> titles(PassInspector inspector) {
        return ViewTestSupport.descendants(inspector.diffControl(), CLabel.class).stream()
                .filter(Control::isVisible).map(CLabel::getText).filter(t -> t != null && !t.isBlank()).toList();
    }

    /** The text of the tooltip showing (a child shell with a label), or "". */
    private static String tooltip(Display d) {
        for (Shell s : d.getShells()) {
            for (Shell child : s.getShells()) {
                if (!child.isVisible()) continue;
                for (CLabel l : ViewTestSupport.descendants(child, CLabel.class)) {
                    if (l.getText() != null && !l.getText().isEmpty()) return l.getText();
                }
                for (var l : ViewTestSupport.descendants(child, org.eclipse.swt.widgets.Label.class)) {
                    if (!l.getText().isEmpty()) return l.getText();
                }
            }
        }
        return "";
    }
}
