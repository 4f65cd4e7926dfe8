package org.hostir.studio.ui.tests.journeys;

import org.eclipse.swt.dnd.Clipboard;
import org.eclipse.swt.dnd.TextTransfer;
import org.eclipse.swt.dnd.Transfer;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;

/** The nvFuser Dump view's buttons as a person finds them (by their label), and a log pasted by its Paste button. */
public final class DumpViewButtons {
    private DumpViewButtons() {}

    /** The visible button labelled {@code label} in {@code journey}'s window. */
    public static Button button(Journey journey, String label) {
        return ViewTestSupport.descendants(journey.shell(), Button.class).stream()
                .filter(b -> label.equals(b.getText())).filter(Control::isVisible).findFirst()
                .orElseThrow(() -> new AssertionError("no button " + label));
    }

    /** Puts {@code text} on the clipboard (as copied from a terminal or a web page) and clicks the view's Paste. */
    public static void paste(Journey journey, Person person, String text) {
        Clipboard clipboard = new Clipboard(journey.shell().getDisplay());
        clipboard.setContents(new Object[] {text}, new Transfer[] {TextTransfer.getInstance()});
        clipboard.dispose();
        person.clickCenter(button(journey, "Paste"));
        person.settle(300);
    }
}
