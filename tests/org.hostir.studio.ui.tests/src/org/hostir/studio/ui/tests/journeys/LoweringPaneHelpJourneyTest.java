package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.IViewPart;
import org.hostir.studio.ui.ViewIds;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.PassInspector;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.passes.DumpViewTest;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand in Light at 1600 x 1000: F1 with the keyboard in one of the Lowering view's BEFORE / AFTER
 * panes opened the Help view on "About Lowering: Click on any workbench part to show related help topics", not the
 * view's help: SWT gives F1 to the nearest control that listens for help, and the compare viewer's own listener
 * stood between the panes and the view's.
 */
public class LoweringPaneHelpJourneyTest extends JourneyTest {
    /** The workbench help system's key for a control's context id (WorkbenchHelpSystem.setHelp). */
    private static final String HELP_KEY = "org.eclipse.ui.help";

    @Test
    public void f1InAComparePaneShowsTheLoweringViewsHelp() throws Exception {
        journey.openSeed("lowering-help", "ag_matmul_p2p", "help.fusion");
        LoweringView view = journey.show(LoweringView.ID);
        journey.waitForLowering();
        PassInspector inspector = ShownLowering.of(view);
        for (StyledText pane : inspector.panes()) {
            person.click(pane, 30, 8);
            assertEquals(pane, pane.getDisplay().getFocusControl(), "the click gave the pane the keyboard");
            assertEquals(ViewIds.HELP_LOWERING, helpContextOf(pane),
                    "F1 in " + (pane == inspector.panes().getFirst() ? "BEFORE" : "AFTER") + " goes to the view's help");
        }
        person.press(SWT.F1);
        person.settle(2500);
        ViewTestSupport.screenshot(journey.shell(), "f1-lowering-pane.png");
        IViewPart help = page.findView("org.eclipse.help.ui.HelpView");
        try {
            assertNotNull(help, "F1 opened the Help view");
            assertNotNull(org.eclipse.help.HelpSystem.getContext(ViewIds.HELP_LOWERING), "the context has help");
        } finally {
            if (help != null) page.hideView(help);
            person.settle(200);
        }
    }

    /** The nvFuser Dump view's compare panes are the same viewer's (issue 35, found beside the Lowering view's). */
    @Test
    public void f1InADumpComparePaneShowsTheDumpViewsHelp() throws Exception {
        journey.show(DumpView.ID);
        person.settle(300);
        DumpViewButtons.paste(journey, person, DumpViewTest.log(DumpViewTest.seed000Dumps()));
        List<StyledText> panes = ViewTestSupport.descendants(journey.shell(), StyledText.class).stream()
                .filter(t -> t.isVisible() && !t.getEditable() && underDumpView(t)).toList();
        try {
            assertEquals(2, panes.size(), "the Dump view's two compare panes");
            for (StyledText pane : panes) {
                person.click(pane, 30, 8);
                assertEquals(pane, pane.getDisplay().getFocusControl(), "the click gave the pane the keyboard");
                assertEquals(ViewIds.HELP_DUMP, helpContextOf(pane), "F1 in a Dump pane goes to the view's help");
            }
            assertNotNull(org.eclipse.help.HelpSystem.getContext(ViewIds.HELP_DUMP), "the context has help");
        } finally {
            journey.hide(DumpView.ID);
        }
    }

    /** Whether a control above {@code c} is the Dump view's (its root carries the view's help context). */
    private static boolean underDumpView(Control c) {
        for (Control at = c.getParent(); at != null; at = at.getParent()) {
            if (ViewIds.HELP_DUMP.equals(at.getData(HELP_KEY))) return true;
        }
        return false;
    }

    /**
     * The context id of the nearest control, from {@code c} up, that has one: the one the Help view shows (and the
     * one SWT's Help event reaches first, as setHelp sets the id and the listener together).
     */
    private static Object helpContextOf(Control c) {
        for (Control at = c; at != null; at = at.getParent()) {
            if (at.getData(HELP_KEY) != null) return at.getData(HELP_KEY);
        }
        return null;
    }
}
