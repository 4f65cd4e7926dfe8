package org.hostir.studio.ui.tests.journeys;

import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.ToolItem;
import org.hostir.studio.ui.tests.input.Person;

/** A tool item's tooltip as a person reads it: the pointer rested on the item's middle until the tooltip shows. */
final class HoveredToolTip {
    /** Long enough for GTK to show a tooltip after the pointer stops. */
    static final int REST_MS = 1200;

    private HoveredToolTip() {}

    /** Rests the pointer on {@code item}; its tooltip's text then ("" when it has none). */
    static String read(Person person, ToolItem item) {
        Rectangle b = item.getBounds();
        person.moveTo(item.getParent(), b.x + b.width / 2, b.y + b.height / 2);
        person.settle(REST_MS);
        return item.getToolTipText() == null ? "" : item.getToolTipText();
    }
}
