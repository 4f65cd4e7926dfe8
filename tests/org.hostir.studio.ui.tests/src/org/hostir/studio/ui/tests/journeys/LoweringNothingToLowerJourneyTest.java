package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.Text;
import org.hostir.studio.ui.passes.LoweringResult;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.PassInspector;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand: the Lowering view opened with no fusion editor and no file chosen showed an empty pass
 * list and two empty compare panes with a current line's band, saying nothing of what to do. Now it says, in one
 * line, in place of the lists; a person clicks Choose..., types the file's name, Enter: the lists show its passes.
 */
public class LoweringNothingToLowerJourneyTest extends JourneyTest {

    @Test
    public void anEmptyViewSaysWhatToDoAndChooseShowsThePasses() throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace("lowering-nothing", "examples/seeds/ag_matmul_p2p.fusion",
                "nothing_chosen_yet.fusion");
        page.closeAllEditors(false);
        // a view of its own, as at a first start: the open one follows the last test's file, and a view closed in one
        // perspective lives on while another shows it, so it is closed in each
        var was = page.getPerspective();
        for (var perspective : page.getOpenPerspectives()) {
            page.setPerspective(perspective);
            journey.hide(LoweringView.ID);
        }
        page.setPerspective(was);
        LoweringView view = journey.show(LoweringView.ID);
        person.settle(300);
        PassInspector inspector = ShownLowering.of(view);
        assertEquals(null, view.file(), "no file to lower");
        assertEquals(LoweringView.NOTHING_TO_LOWER, ShownLowering.message(view), "the view says what to do");
        Text message = messageText(view);
        GC gc = new GC(message);
        int need = gc.textExtent(LoweringView.NOTHING_TO_LOWER).x;
        gc.dispose();
        assertTrue(message.getClientArea().width >= need, "the message on one line: " + need + " px in "
                + message.getClientArea().width);
        assertFalse(inspector.isShown(), "no empty lists");
        assertFalse(inspector.diffControl().isVisible(), "no empty compare panes with a current line's band");
        assertFalse(inspector.passList().isVisible(), "no empty pass list");
        assertTrue(person.restAway(journey.shell()), "a tooltip stays");
        ViewTestSupport.screenshot(journey.shell(), "lowering-nothing-to-lower.png");

        Button choose = ViewTestSupport.descendants(ShownLowering.fields(view), Button.class).stream()
                .filter(b -> b.getText().equals("Choose...")).findFirst().orElseThrow();
        ModalSteps chooseFile = ModalSteps.whenOpen("Choose a fusion file", 20, dialog -> {
            person.settle(500);
            Text pattern = ViewTestSupport.descendants(dialog, Text.class).stream().filter(Text::isVisible)
                    .findFirst().orElseThrow(() -> new AssertionError("the dialog has no pattern field"));
            person.focusByClick(pattern);
            person.press(SWT.CTRL, 'a');   // the dialog's pattern, *.fusion, replaced
            person.type("nothing_chosen_yet", 30);
            Table found = ViewTestSupport.descendants(dialog, Table.class).getFirst();
            // the list follows the pattern once the dialog's search is done: until then it lists every .fusion
            assertTrue(person.until(10000, () -> found.getSelectionCount() == 1
                    && found.getSelection()[0].getText().startsWith("nothing_chosen_yet")),
                    "the dialog found the file: " + found.getItemCount() + " items");
            person.press(SWT.CR);
            person.settle(300);
            assertTrue(dialog.isDisposed(), "Enter chose the file");
        });
        person.clickCenter(choose);
        chooseFile.check(person);
        journey.waitForLowering();
        assertEquals(file, view.file(), "the file chosen");
        assertTrue(view.result() instanceof LoweringResult.Lowered, "lowered: " + view.result());
        assertEquals("", ShownLowering.message(view), "the hint gone");
        assertTrue(inspector.isShown() && inspector.passList().isVisible() && inspector.diffControl().isVisible(),
                "the lists show");
        Table passes = (Table) inspector.passList();
        assertEquals(inspector.visibleEntries().size(), passes.getItemCount(), "the passes listed");
        assertTrue(passes.getItemCount() > 3, "ag_matmul_p2p's passes: " + passes.getItemCount());
        Rectangle list = passes.getBounds();
        assertTrue(list.width > 100 && list.height > 100, "the list has room: " + list);
        ViewTestSupport.screenshot(journey.shell(), "lowering-chosen-after-nothing.png");
    }

    /** The message's text field above the lists. */
    private static Text messageText(LoweringView view) {
        return Arrays.stream(ShownLowering.top(view).getChildren()).filter(c -> c instanceof Text t
                && (t.getStyle() & SWT.MULTI) != 0).map(Text.class::cast).findFirst().orElseThrow();
    }
}
