package org.hostir.studio.ui.tests;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.views.properties.IPropertySheetEntry;
import org.eclipse.ui.views.properties.PropertySheet;
import org.eclipse.ui.views.properties.PropertySheetPage;
import org.hostir.studio.ui.tests.input.Person;

/**
 * The Properties view read and edited as a person does: its tree's rows by the name shown (categories expanded as a
 * click on their arrow does), a row's value as shown, and a text row edited by a click on its value cell, typing and
 * Return.
 */
public final class ShownProperties {
    private ShownProperties() {}

    /** Shows (and activates) the Properties view; returns its tree. */
    public static Tree show(IWorkbenchPage page, Person person) throws Exception {
        PropertySheet sheet = (PropertySheet) page.showView(IPageLayout.ID_PROP_SHEET);
        person.settle(300);
        // the sheet follows the selection after the workbench's post-selection delay, later under load: its rows
        person.until(5000, () -> sheet.getCurrentPage() instanceof PropertySheetPage p && p.getControl() instanceof Tree t
                && t.getItemCount() > 0);
        return (Tree) ((PropertySheetPage) sheet.getCurrentPage()).getControl();
    }

    /** The row of the tree shown as {@code name} (expanding categories as needed). */
    public static TreeItem item(Tree tree, String name) {
        TreeItem found = find(tree, name);
        if (found == null) throw new AssertionError("no row " + name + " in the Properties view");
        return found;
    }

    /** The row shown as {@code name}, or null (expanding categories as needed). */
    public static TreeItem find(Tree tree, String name) {
        List<TreeItem> todo = new ArrayList<>(List.of(tree.getItems()));
        while (!todo.isEmpty()) {
            TreeItem item = todo.remove(0);
            if (item.getData() instanceof IPropertySheetEntry en && name.equals(en.getDisplayName())) return item;
            if (!item.getExpanded() && item.getItemCount() > 0) {
                Event ev = new Event();
                ev.item = item;
                tree.notifyListeners(SWT.Expand, ev);
                item.setExpanded(true);
            }
            todo.addAll(List.of(item.getItems()));
        }
        return null;
    }

    /** The value a row shows. */
    public static String text(Tree tree, String name) { return item(tree, name).getText(1); }

    /**
     * Clicks the value cell of row {@code name}; returns the text field the click opened (it has the focus). A click
     * that only selected the row (the view was taking the focus) is followed by a second one, as a person clicks
     * again when no field opened.
     */
    public static Text edit(Person person, Tree tree, String name) {
        Control focus = null;
        for (int attempt = 0; attempt < 2 && !(focus instanceof Text); attempt++) {
            TreeItem item = item(tree, name);
            tree.setTopItem(item);   // scrolled to the row, as a person scrolls the view to it
            person.settle(150);
            Rectangle r = item.getBounds(1);
            if (r.height <= 0 || r.y + r.height / 2 < 0) {   // a row scrolled to the top may start at y -1
                ViewTestSupport.screenshot(tree.getShell(), "properties-no-row.png");
                throw new AssertionError("row " + name + " is not shown: bounds " + r + " in a tree of "
                        + tree.getSize() + (tree.isVisible() ? "" : " (hidden)"));
            }
            person.click(tree, r.x + r.width / 2, r.y + r.height / 2);
            person.until(2000, () -> person.focus() instanceof Text);
            focus = person.focus();
        }
        if (!(focus instanceof Text t)) {
            ViewTestSupport.screenshot(tree.getShell(), "properties-no-field.png");
            throw new AssertionError("the click on " + name + " opened no text field: the focus is on " + focus
                    + " (the tree " + (tree.isVisible() ? "shows" : "is hidden") + " at " + tree.toDisplay(0, 0) + ")");
        }
        return t;
    }

    /** Edits text row {@code name}: a click on its value, the text typed over what was there, Return. */
    public static void type(Person person, Tree tree, String name, String value) {
        edit(person, tree, name);
        person.press(SWT.CTRL, 'a');   // the click may leave the caret inside the old value: typing replaces it all
        person.type(value, 15).press(SWT.CR);
        person.settle(250);
    }
}
