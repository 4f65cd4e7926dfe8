package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.swt.custom.CLabel;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.ui.HostIrPreferences;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.passes.DumpViewTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand: in the nvFuser Dump view's compare mode the pane titled "nvFuser: #2" showed the
 * canonical numbering, not nvFuser's text, and the view's header named the dump twice (its description "FILE: #2"
 * above the line "FILE: 3 programs"). A person pastes a log, clicks its second program and compares it with a
 * fusion (Compare with Studio lowering..., the file's name typed into the dialog): each pane's title says what
 * its text is, and one line names the dump.
 */
public class DumpCompareTitleJourneyTest extends JourneyTest {
    @AfterEach
    public void closeView() {
        journey.hide(DumpView.ID);
        HostIrPreferences.setDumpFile(null);
    }

    @Test
    public void thePanesTitlesSayWhatTheyShow() throws Exception {
        ViewTestSupport.copyToWorkspace("dumptitle", "examples/seeds/ag_matmul_p2p.fusion", "dumptitleseed.fusion");
        DumpView view = journey.show(DumpView.ID);
        person.settle(300);
        DumpViewButtons.paste(journey, person, DumpViewTest.log(DumpViewTest.seed000Dumps()));
        assertNotNull(view.snapshots(), view.messageText());
        var list = ViewTestSupport.descendants(journey.shell(), org.eclipse.swt.widgets.List.class).stream()
                .filter(Control::isVisible).findFirst().orElseThrow();
        person.click(list, 20, list.getItemHeight() + list.getItemHeight() / 2);   // the second program
        person.settle(300);
        int i = view.selected();
        assertEquals(1, i, "the click selected the second program");
        String file = view.snapshots().file();
        assertTrue(!view.getContentDescription().contains(file), "the header names " + file + " once, in the line"
                + " below the description: " + view.getContentDescription());
        List<String> naming = ViewTestSupport.descendants(journey.shell(), Control.class).stream()
                .filter(Control::isVisible).map(DumpCompareTitleJourneyTest::text)
                .filter(t -> t.contains(file)).toList();
        assertEquals(1, naming.size(), "one line names the dump: " + naming);

        Typist.after(1500).type("dumptitleseed", 30).then(1500).keys("Return").start();
        person.clickCenter(DumpViewButtons.button(journey, "Compare with Studio lowering..."));
        person.settle(500);
        person.lookAt(journey.shell());
        assertNotNull(view.comparison(), "compared: " + view.messageText());
        ViewTestSupport.screenshot(journey.shell(), "dump-compare-titles.png");

        List<String> titles = ViewTestSupport.descendants(journey.shell(), CLabel.class).stream()
                .filter(Control::isVisible).map(CLabel::getText).filter(t -> t != null && !t.isEmpty()).toList();
        String left = titles.stream().filter(t -> t.startsWith("nvFuser")).findFirst()
                .orElseThrow(() -> new AssertionError("no pane title names nvFuser: " + titles));
        String right = titles.stream().filter(t -> t.startsWith("Studio")).findFirst()
                .orElseThrow(() -> new AssertionError("no pane title names the Studio: " + titles));
        // the two panes beside each other (the tree's text and the Lowering view's panes show other texts), left first
        List<StyledText> panes = ViewTestSupport.descendants(journey.shell(), StyledText.class).stream()
                .filter(t -> t.isVisible() && t.getSize().x > 20 && !t.getEditable())
                .filter(t -> t.getText().equals(view.comparison().dumpText())
                        || t.getText().equals(view.comparison().studioText())
                        || t.getText().equals(view.snapshots().text(i)))
                .sorted(java.util.Comparator.comparingInt(t -> t.toDisplay(0, 0).x))
                .toList();
        assertEquals(2, panes.size(), "two panes show the compared programs");
        String shown = panes.getFirst().getText();
        // this program's numbering is not what the comparison prints (else no title could be wrong)
        assertTrue(!view.comparison().dumpText().equals(view.snapshots().text(i)), "the canonical text differs");
        if (!shown.equals(view.snapshots().text(i))) {
            assertTrue(left.contains("canonical numbering"), "the pane titled \"" + left + "\" shows the canonical"
                    + " numbering, not nvFuser's text");
        }
        assertTrue(right.contains("dumptitleseed.fusion") && right.contains("canonical numbering"), right);
        assertTrue(!view.getContentDescription().contains(file), view.getContentDescription());
    }

    private static String text(Control c) {
        return switch (c) {
            case org.eclipse.swt.widgets.Label l -> l.getText();
            case CLabel l -> l.getText() == null ? "" : l.getText();
            default -> "";
        };
    }
}
