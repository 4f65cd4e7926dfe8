package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.ToolBar;
import org.eclipse.swt.widgets.ToolItem;
import org.hostir.studio.ui.passes.LoweringResult;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.PassInspector;
import org.hostir.studio.ui.passes.model.PassEntry;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: the Lowering view's toolbar was text alone, one run of words ("◀ Pass Pass ▶ ▲ Change ▼ Change Hide
 * unchanged ↻ Lower"), its tooltips not starting with the actions' names and naming their keys twice once the
 * workbench added them. At 1280 x 800 each action must carry an icon (not its left neighbour's), lie apart, the four
 * groups (passes, changes, filter, lower) parted by separators, each tooltip starting with the action's name and
 * giving its key once; then a person clicks each action and it does what it says.
 */
public class LoweringToolbarJourneyTest {
    /** Each action: the start of its tooltip (its name), its key (or null), its group, in the toolbar's order. */
    record Action(String name, String key, int group) {}

    static final List<Action> ACTIONS = List.of(new Action("Previous pass", "Shift+F6", 0),
            new Action("Next pass", "F6", 0), new Action("Previous change", "Ctrl+,", 1),
            new Action("Next change", "Ctrl+.", 1), new Action("Hide unchanged passes", null, 2),
            new Action("Lower again", "F5", 3));

    @Test
    public void eachActionIsAnIconWithItsNameAndDoesWhatItSays() throws Exception {
        Journey journey = Journey.start(1280, 800);
        Person person = journey.person();
        journey.openSeedWithLowering("lowering-toolbar");
        LoweringView view = journey.show(LoweringView.ID);
        PassInspector inspector = ShownLowering.of(view);
        // a click on a pass in sight: the view active, its key bindings (and the tooltips' keys) apply
        Table list = (Table) inspector.passList();
        Rectangle cell = list.getItem(list.getTopIndex()).getBounds();
        person.click(list, cell.x + cell.width / 2, cell.y + cell.height / 2);
        person.settle(300);
        inspector.selectPass("StreamParallelType");   // a pass between two others, which changed the program
        person.settle(200);
        assertEquals("StreamParallelType", inspector.selectedPass());
        ToolBar bar = toolbar(journey.shell());
        List<ToolItem> items = Arrays.stream(bar.getItems()).filter(i -> (i.getStyle() & SWT.SEPARATOR) == 0).toList();
        assertEquals(ACTIONS.size(), items.size(), "the Lowering view's actions: " + items);
        assertTrue(person.restAway(journey.shell()), "a tooltip stays");
        ViewTestSupport.screenshot(journey.shell(), "lowering-toolbar-1280x800.png");
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) failures.addAll(apart(bar, items, i));
        assertTrue(failures.isEmpty(), String.join("\n", failures));

        stepsPasses(person, view, items);
        stepsChanges(person, inspector, items);
        hidesUnchanged(person, inspector, items.get(4));
        LoweringResult before = view.result();
        clickItem(person, items.get(5));
        journey.waitForLowering();
        assertNotSame(before, view.result(), "Lower again lowered the file again");
        assertTrue(view.result() instanceof LoweringResult.Lowered, "and it lowered: " + view.result());
        assertEquals("StreamParallelType", inspector.selectedPass(), "the pass shown stays selected");
        // the clicks updated the items (the toggle, the enablement): each key still named once
        for (int i = 0; i < items.size(); i++) {
            String tip = items.get(i).getToolTipText();
            Action a = ACTIONS.get(i);
            assertTrue(tip.startsWith(a.name()) && (a.key() == null || count(tip, "(" + a.key() + ")") == 1),
                    "after the clicks: \"" + tip + "\"");
        }
    }

    /** Next pass selects the pass after StreamParallelType in the list, Previous pass the one before again. */
    private static void stepsPasses(Person person, LoweringView view, List<ToolItem> items) {
        PassInspector inspector = ShownLowering.of(view);
        List<String> names = inspector.visibleEntries().stream().map(e -> e.step().pass()).toList();
        int at = names.indexOf("StreamParallelType");
        Table list = (Table) inspector.passList();
        clickItem(person, items.get(1));
        assertEquals(names.get(at + 1), inspector.selectedPass(), "Next pass");
        assertEquals(at + 1, list.getSelectionIndex(), "the list shows the next pass selected");
        assertTrue(view.getContentDescription().contains(names.get(at + 1)), view.getContentDescription());
        clickItem(person, items.get(0));
        clickItem(person, items.get(0));
        assertEquals(names.get(at - 1), inspector.selectedPass(), "twice Previous pass");
        assertEquals(at - 1, list.getSelectionIndex(), "the list shows the pass before selected");
        clickItem(person, items.get(1));
        assertEquals("StreamParallelType", inspector.selectedPass(), "Next pass again");
    }

    /** Next change selects the tree's first change, again the second; Previous change the first again. */
    private static void stepsChanges(Person person, PassInspector inspector, List<ToolItem> items) {
        inspector.tree().getTree().deselectAll();
        clickItem(person, items.get(3));
        PassRow first = selectedRow(inspector);
        assertTrue(first != null && first.isChange(), "Next change selected a change: " + first);
        assertEquals(1, inspector.tree().getTree().getSelectionCount(), "the tree shows it selected");
        String shown = inspector.tree().getTree().getSelection()[0].getText();
        assertTrue(shown.contains(first.text()), "the row shown selected: \"" + shown + "\"");
        clickItem(person, items.get(3));
        PassRow second = selectedRow(inspector);
        assertTrue(second != null && second.isChange(), "Next change again: " + second);
        List<PassRow> rows = inspector.treeRows();
        assertTrue(rows.indexOf(second) > rows.indexOf(first), "the second change is below the first");
        clickItem(person, items.get(2));
        assertEquals(first, selectedRow(inspector), "Previous change went back to the first");
    }

    /** Hide unchanged leaves the passes that changed the program, pressed; a second click lists them all again. */
    private static void hidesUnchanged(Person person, PassInspector inspector, ToolItem hide) {
        List<PassEntry> all = inspector.visibleEntries();
        assertTrue(all.stream().anyMatch(e -> !e.step().changed()), "ag_matmul_p2p has passes that change nothing");
        clickItem(person, hide);
        assertTrue(hide.getSelection(), "the toggle shows pressed");
        List<PassEntry> changed = inspector.visibleEntries();
        assertTrue(!changed.isEmpty() && changed.stream().allMatch(e -> e.step().changed()), "only changed passes");
        assertEquals(changed.size(), ((Table) inspector.passList()).getItemCount(), "the list shows them alone");
        assertNotEquals(all.size(), changed.size());
        clickItem(person, hide);
        assertTrue(!hide.getSelection(), "the toggle shows released");
        assertEquals(all.size(), inspector.visibleEntries().size(), "every pass listed again");
        assertEquals(all.size(), ((Table) inspector.passList()).getItemCount());
    }

    private static PassRow selectedRow(PassInspector inspector) {
        return inspector.tree().getStructuredSelection().getFirstElement() instanceof PassRow r ? r : null;
    }

    /** The view's toolbar: the visible one whose tooltips name Next pass and Lower again. */
    static ToolBar toolbar(Shell shell) {
        for (ToolBar bar : ViewTestSupport.descendants(shell, ToolBar.class)) {
            if (!bar.isVisible()) continue;
            List<String> tips = Arrays.stream(bar.getItems()).map(ToolItem::getToolTipText)
                    .map(t -> t == null ? "" : t.toLowerCase()).toList();
            if (tips.stream().anyMatch(t -> t.contains("next pass")) && tips.stream().anyMatch(t -> t.contains("lower"))) {
                return bar;
            }
        }
        throw new AssertionError("no visible toolbar with Next pass and Lower");
    }

    /**
     * What is wrong with item {@code i} as a person sees it: no icon, the same icon as its left neighbour, a tooltip
     * not starting with its name or not naming its key once, its bounds overlapping its neighbour's, or no separator
     * between it and a neighbour of another group.
     */
    private static List<String> apart(ToolBar bar, List<ToolItem> items, int i) {
        ToolItem item = items.get(i);
        Action action = ACTIONS.get(i);
        String tip = item.getToolTipText() == null ? "" : item.getToolTipText();
        System.out.println("LoweringToolbarJourneyTest: \"" + action.name() + "\" text \"" + item.getText()
                + "\" image " + (item.getImage() == null ? "none" : item.getImage().getBounds()) + " bounds "
                + item.getBounds() + " tooltip \"" + tip + "\"");
        List<String> wrong = new ArrayList<>();
        if (!tip.startsWith(action.name())) {
            wrong.add("the tooltip of \"" + item.getText() + "\" does not start with " + action.name() + ": \"" + tip + "\"");
        }
        if (action.key() != null && count(tip, "(" + action.key() + ")") != 1) {
            wrong.add("\"" + action.name() + "\" names its key " + action.key() + " not once: \"" + tip + "\"");
        }
        if (item.getImage() == null) wrong.add("\"" + action.name() + "\" (\"" + item.getText() + "\") has no icon");
        if (i == 0) return wrong;
        ToolItem left = items.get(i - 1);
        Rectangle b = item.getBounds(), lb = left.getBounds();
        if (lb.x + lb.width > b.x) wrong.add("\"" + action.name() + "\" at x " + b.x + " overlaps its left neighbour " + lb);
        if (item.getImage() != null && left.getImage() != null
                && same(item.getImage().getImageData(), left.getImage().getImageData())) {
            wrong.add("\"" + action.name() + "\" has the same icon as \"" + ACTIONS.get(i - 1).name() + "\"");
        }
        boolean separated = false;
        for (int k = bar.indexOf(left) + 1; k < bar.indexOf(item); k++) {
            separated |= (bar.getItem(k).getStyle() & SWT.SEPARATOR) != 0;
        }
        if (ACTIONS.get(i - 1).group() != action.group() && !separated) {
            wrong.add("no separator between \"" + ACTIONS.get(i - 1).name() + "\" and \"" + action.name() + "\"");
        }
        return wrong;
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) n++;
        return n;
    }

    private static boolean same(ImageData a, ImageData b) {
        return a.width == b.width && a.height == b.height && Arrays.equals(a.data, b.data);
    }

    private static void clickItem(Person person, ToolItem item) {
        Rectangle b = item.getBounds();
        person.click(item.getParent(), b.x + b.width / 2, b.y + b.height / 2);
        person.settle(250);
    }
}
