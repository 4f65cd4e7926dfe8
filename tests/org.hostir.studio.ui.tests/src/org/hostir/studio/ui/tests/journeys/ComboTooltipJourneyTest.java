package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Combo;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.ShownPopups;
import org.hostir.studio.ui.tests.input.ShownPopups.Popup;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, "combo tooltips cover their own lists": the Lowering view's Backend combo has the option's help as its
 * tooltip; a person rests the pointer on it (the tooltip shows), clicks it, and reads the open list with the pointer
 * still there. GTK showed the tooltip again over the list (at 1600 x 1000 it hid both items); now no tooltip window
 * overlaps the list while it is open, and the tooltip is back once the list closes. The same by keys (Alt+Down).
 */
public class ComboTooltipJourneyTest extends JourneyTest {
    /** Longer than GTK's tooltip delay (500 ms) with room for a loaded machine. */
    private static final int TOOLTIP_WAIT_MS = 1800;

    @Test
    public void theBackendTooltipDoesNotCoverTheOpenList() throws Exception {
        LoweringView view = journey.show(LoweringView.ID);
        person.settle(300);
        Combo backend = option(view, "backend: ");
        String tip = backend.getToolTipText();
        String chosen = backend.getText();
        int x = backend.getSize().x / 3, y = backend.getSize().y / 2;

        person.moveTo(backend, x, y);
        person.moveTo(backend, x + 2, y);
        person.settle(TOOLTIP_WAIT_MS);
        assertFalse(ShownPopups.shown("TOOLTIP").isEmpty(), "resting on the combo shows its tooltip");

        person.click(backend, x + 2, y);
        person.settle(TOOLTIP_WAIT_MS);
        assertTrue(backend.getListVisible(), "the click opened the list");
        assertListUncovered("click", backend);

        person.press(SWT.ESC);
        person.settle(400);
        assertFalse(backend.getListVisible(), "Esc closed the list");
        assertEquals(tip, backend.getToolTipText(), "the tooltip is back once the list is closed");
        assertEquals(chosen, backend.getText(), "nothing chosen");

        // by keys: the combo has the keyboard (the click gave it), Alt+Down opens the list under the resting pointer
        person.press(SWT.ALT, (char) 0, SWT.ARROW_DOWN);
        person.settle(TOOLTIP_WAIT_MS);
        assertTrue(backend.getListVisible(), "Alt+Down opened the list");
        assertListUncovered("alt-down", backend);
        person.press(SWT.ESC);
        person.settle(400);
        assertEquals(tip, backend.getToolTipText(), "the tooltip is back after the keys' list");
    }

    private void assertListUncovered(String how, Combo combo) {
        List<Popup> lists = ShownPopups.shown("COMBO");
        ViewTestSupport.screenshot(journey.shell(), "combo-tooltip-" + how + ".png");
        assertEquals(1, lists.size(), "the open list on screen: " + ShownPopups.shown());
        List<Popup> covering = ShownPopups.shown("TOOLTIP").stream().filter(t -> t.covers(lists.get(0))).toList();
        assertTrue(covering.isEmpty(), how + ": a tooltip " + covering + " over the open list " + lists.get(0)
                + " (tooltip text now: " + combo.getToolTipText() + ")");
    }

    /** The option combo whose tooltip starts with {@code prefix} (the option's key, as OptionField writes it). */
    private static Combo option(LoweringView view, String prefix) {
        return ViewTestSupport.descendants(ShownLowering.of(view).passList().getShell(), Combo.class).stream()
                .filter(c -> c.getToolTipText() != null && c.getToolTipText().startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no combo with a tooltip " + prefix));
    }
}
