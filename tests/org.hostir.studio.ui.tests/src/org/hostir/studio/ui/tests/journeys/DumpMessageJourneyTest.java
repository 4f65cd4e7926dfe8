package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Text;
import org.hostir.studio.ui.HostIrPreferences;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.passes.DumpViewTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * At 1280 x 800 the nvFuser Dump view opens in the Host IR perspective's bottom folder (its placeholder beside the
 * Lowering view, the Help view beside Properties); a dump compared with the Studio's lowering under
 * other options gets a verdict naming its differences. Its message line was as high as a stale wrap made it: in the
 * product it took the view's height (the program list, the tree and the panes kept a row or two), here it showed
 * one line of the verdict and hid the rest (issue 35, driven by hand). Now the message is as high as the verdict
 * wraps to, at most three lines (the rest scrolls), and the list keeps its rows.
 */
public class DumpMessageJourneyTest {
    private static final String HELP_VIEW = "org.eclipse.help.ui.HelpView";
    private Journey journey;

    @AfterEach
    public void close() {
        journey.hide(DumpView.ID);
        journey.hide(HELP_VIEW);   // the later journeys' views keep their widths
        HostIrPreferences.setDumpFile(null);
    }

    @Test
    public void aLongVerdictLeavesTheListsTheirRowsAt1280x800() throws Exception {
        journey = Journey.inResetStudio(1280, 800);   // the Host IR perspective: the view opens beside the Lowering view
        var person = journey.person();
        ViewTestSupport.copyToWorkspace("dumpmessage", "examples/seeds/ag_matmul_p2p.fusion", "dumpmessageseed.fusion");
        // as driven by hand: F1 had opened the Help view (a column of its own until issue 35's placeholders)
        journey.show(HELP_VIEW);
        person.settle(300);
        DumpView view = journey.show(DumpView.ID);
        person.settle(400);
        DumpViewButtons.paste(journey, person, DumpViewTest.log(DumpViewTest.seed000Dumps()));
        org.eclipse.swt.widgets.List list = ViewTestSupport.descendants(journey.shell(),
                org.eclipse.swt.widgets.List.class).stream().filter(Control::isVisible).findFirst().orElseThrow();
        person.click(list, 20, list.getItemHeight() + list.getItemHeight() / 2);

        Typist.after(1500).type("dumpmessageseed", 30).then(1500).keys("Return").start();
        person.clickCenter(DumpViewButtons.button(journey, "Compare with Studio lowering..."));
        person.settle(300);
        person.lookAt(journey.shell());
        Text options = ViewTestSupport.descendants(journey.shell(), Text.class).stream()
                .filter(t -> "key=value ...".equals(t.getMessage())).findFirst().orElseThrow();
        person.focusByClick(options);
        person.type("allgather=collective", 30);
        person.press(SWT.CR);
        person.settle(500);

        String verdict = view.messageText();
        assertTrue(verdict.startsWith("structurally different"), verdict);
        Text message = ViewTestSupport.descendants(journey.shell(), Text.class).stream()
                .filter(t -> t.getText().equals(verdict)).findFirst().orElseThrow();
        ViewTestSupport.screenshot(journey.shell(), "dump-message-1280x800.png");
        int most = message.getLineHeight() * 3 + message.computeTrim(0, 0, 0, 0).height;
        int wanted = message.computeSize(message.getSize().x, SWT.DEFAULT).y;
        assertTrue(message.getSize().y <= most, "the message is at most three lines high: " + message.getSize().y
                + " px, three lines are " + most + " px");
        assertTrue(message.getSize().y >= Math.min(wanted, most) - 2, "the verdict reads on up to three lines: "
                + message.getSize().y + " px shown of " + wanted + " px wrapped (three lines are " + most + " px)");
        assertTrue(list.getSize().y >= 4 * list.getItemHeight(), "the program list keeps four rows or more: "
                + list.getSize().y + " px of " + list.getItemHeight() + " px rows");
    }
}
