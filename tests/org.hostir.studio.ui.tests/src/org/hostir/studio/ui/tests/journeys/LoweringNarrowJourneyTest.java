package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.PassInspector;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand: with the Help view opened beside it the Lowering view was about 500 px wide, and its
 * first row cut the Fusion path to nothing while the pass list, a third of the view less the diff's middle, lost its
 * \u00b5s column. The window narrowed until the view is 500 px wide: the path shows whole on a row of its own, every
 * field lies within the view, and the pass list shows each name and time whole; with the Help view closed the
 * fields are one row again.
 */
public class LoweringNarrowJourneyTest {
    private static final int NARROW = 500;
    private static final String HELP_VIEW = "org.eclipse.help.ui.HelpView";

    @Test
    public void aNarrowViewKeepsThePathAndTheTimesReadable() throws Exception {
        Journey journey = Journey.start(1600, 1000);
        Person person = journey.person();
        journey.openSeedWithLowering("lowering-narrow");
        LoweringView view = journey.show(LoweringView.ID);
        PassInspector inspector = ShownLowering.of(view);
        Shell shell = journey.shell();
        Composite top = ShownLowering.top(view);
        int fieldsHigh = ShownLowering.fields(view).getSize().y;
        // F1's Help view opens beside the active part, in a column of its own where the perspective has no place
        // for it (the hand-driven case); then the window narrowed, step by step, to the view's width wanted
        journey.page().showView(HELP_VIEW);
        person.settle(600);
        int shellWidth = 1600, width = top.getSize().x;
        for (int step = 0; step < 8 && width - NARROW > 20; step++) {
            shellWidth = Math.max(600, shellWidth - (width - NARROW) * shellWidth / Math.max(1, width));
            shell.setBounds(0, 0, shellWidth, 1000);
            person.settle(400);
            width = top.getSize().x;
        }
        ViewTestSupport.join(LoweringView.JOB_FAMILY);
        person.settle(200);
        assertTrue(Math.abs(width - NARROW) <= 40, "the view is about " + NARROW + " px wide: " + width);
        try {
            assertTrue(person.restAway(shell), "a tooltip stays");
            ViewTestSupport.screenshot(shell, "lowering-narrow-" + width + ".png");
            String size = "view " + width + " px wide";
            Label path = pathLabel(view);
            assertTrue(path.getSize().x >= path.computeSize(-1, -1).x, size + ": the path \"" + path.getText()
                    + "\" cut to " + path.getSize().x + " of " + path.computeSize(-1, -1).x + " px");
            fieldsWithin(view, size);
            Table passes = (Table) inspector.passList();
            LayoutJourneyTest.assertColumnsReadable(passes, size);
            assertTrue(inspector.diffControl().getSize().x >= width / 3, size + ": the diff keeps a third: "
                    + inspector.diffControl().getSize().x);
        } finally {
            journey.hide(HELP_VIEW);
            shell.setBounds(0, 0, 1600, 1000);
            person.settle(400);
        }
        assertTrue(ShownLowering.fields(view).getSize().y <= fieldsHigh, "the Help view closed, the fields one row again: "
                + ShownLowering.fields(view).getSize().y + " px high, were " + fieldsHigh);
    }

    /** The label beside "Fusion:". */
    private static Label pathLabel(LoweringView view) {
        List<Label> labels = ViewTestSupport.descendants(ShownLowering.fields(view), Label.class);
        for (int i = 0; i + 1 < labels.size(); i++) {
            if (labels.get(i).getText().equals("Fusion:")) return labels.get(i + 1);
        }
        throw new AssertionError("no Fusion: label");
    }

    /** Every field above the lists lies inside the view and inside each composite that holds it. */
    private static void fieldsWithin(LoweringView view, String size) {
        Composite top = ShownLowering.top(view);
        Rectangle area = top.getClientArea();
        for (Control c : ViewTestSupport.descendants(ShownLowering.fields(view), Control.class)) {
            if (!c.isVisible() || c instanceof Composite && !(c instanceof org.eclipse.swt.widgets.Combo
                    || c instanceof org.eclipse.swt.widgets.Spinner)) {
                continue;
            }
            Rectangle at = c.getDisplay().map(c.getParent(), top, c.getBounds());
            assertTrue(area.contains(at.x, at.y) && area.contains(at.x + at.width - 1, at.y + at.height - 1),
                    size + ": " + c + " at " + at + " outside the view's " + area);
            for (Composite a = c.getParent(); a != top; a = a.getParent()) {
                Rectangle in = c.getDisplay().map(c.getParent(), a, c.getBounds());
                Rectangle holder = a.getClientArea();
                assertTrue(holder.contains(in.x, in.y) && holder.contains(in.x + in.width - 1, in.y + in.height - 1),
                        size + ": " + c + " at " + in + " cut by its holder's " + holder);
            }
            assertTrue(c.getSize().x >= Math.min(c.computeSize(-1, -1).x, 60), size + ": " + c + " squeezed to "
                    + c.getSize().x + " px");
        }
    }
}
