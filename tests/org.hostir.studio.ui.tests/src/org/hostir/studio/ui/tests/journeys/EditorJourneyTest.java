package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.commands.operations.IOperationHistory;
import org.eclipse.core.commands.operations.OperationHistoryFactory;
import org.eclipse.core.resources.IFile;
import org.eclipse.jface.viewers.CellEditor;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyleRange;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.views.properties.IPropertySheetEntry;
import org.eclipse.ui.views.properties.PropertySheet;
import org.eclipse.ui.views.properties.PropertySheetEntry;
import org.eclipse.ui.views.properties.PropertySheetPage;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * The fusion editor driven as a person drives it: clicks on nodes and palette buttons, keys (Ctrl+Z, Delete, Esc)
 * posted to the display, and the Properties view's own entries for a multi-selection edit; checked on the model
 * and on what the editor shows.
 */
public class EditorJourneyTest extends JourneyTest {

    private FusionEditor openSeed(String name, String as) throws Exception {
        return journey.openSeed("journeys", name, as);
    }

    /**
     * Issue 18, defect 1 (and the red message of defect 9): tv0 and tv1 selected with a click and a Ctrl+click,
     * one Properties edit of Axis 1's parallel type sets both, and that is ONE undoable operation: Ctrl+Z
     * restores both, Shift+Ctrl+Z sets both again, a second Ctrl+Z restores both again.
     */
    @Test
    public void aPropertiesEditOfTwoTensorsIsOneUndoableOperation() throws Exception {
        FusionEditor e = openSeed("ag_matmul_p2p", "multi.fusion");
        FusionDocument before = e.model();
        Control canvas = ShownGraph.of(e).getControl();
        person.click(canvas, ShownGraph.of(e).center("tv0"), 0).click(canvas, ShownGraph.of(e).center("tv1"), SWT.CTRL);
        assertEquals(List.of("tv0", "tv1"), ShownGraph.of(e).selectedKeys(), "a click and a Ctrl+click select both");

        PropertySheet sheet = (PropertySheet) page.showView(IPageLayout.ID_PROP_SHEET);
        // the sheet shows both tensors once the workbench's post-selection delay has passed (later under load)
        person.until(5000, () -> sheet.getCurrentPage() instanceof PropertySheetPage p && p.getControl() instanceof Tree t
                && entry(t, "Axis 1") != null);
        PropertySheetPage props = assertInstanceOf(PropertySheetPage.class, sheet.getCurrentPage());
        Tree tree = (Tree) props.getControl();
        IPropertySheetEntry axis1 = entry(tree, "Axis 1");
        assertNotNull(axis1, "the Properties view shows Axis 1 of both tensors");
        PropertySheetEntry parallel = (PropertySheetEntry) List.of(axis1.getChildEntries()).stream()
                .filter(c -> c.getDisplayName().equals("Parallel type")).findFirst().orElseThrow();
        CellEditor cell = parallel.getEditor(tree);
        cell.setValue(3);   // the combo's fourth choice: Stream
        IOperationHistory history = OperationHistoryFactory.getOperationHistory();
        int undoable = history.getUndoHistory(e.commands().undoContext()).length;
        parallel.applyEditorValue();
        person.settle(200);
        FusionDocument after = e.model();
        assertEquals("Stream", after.tensor("tv0").get().axes().get(1).parallel().fileName());
        assertEquals("Stream", after.tensor("tv1").get().axes().get(1).parallel().fileName());
        assertEquals(undoable + 1, history.getUndoHistory(e.commands().undoContext()).length, "one operation for both tensors");
        assertNull(e.commands().lastError(), "no red message after a successful edit: " + e.commands().lastError());

        page.activate(e);
        person.settle(100);
        person.press(SWT.CTRL, 'z');
        assertEquals(before, e.model(), "Ctrl+Z restores both tensors");
        person.press(SWT.CTRL | SWT.SHIFT, 'z');
        assertEquals(after, e.model(), "Shift+Ctrl+Z sets both again");
        person.press(SWT.CTRL, 'z');
        assertEquals(before, e.model(), "and Ctrl+Z restores both again");
    }

    /** The entry of the Properties tree shown as {@code name} (expanding what it must). */
    private static IPropertySheetEntry entry(Tree tree, String name) {
        List<org.eclipse.swt.widgets.TreeItem> todo = new ArrayList<>(List.of(tree.getItems()));
        while (!todo.isEmpty()) {
            var item = todo.remove(0);
            if (item.getData() instanceof IPropertySheetEntry en && name.equals(en.getDisplayName())) return en;
            if (!item.getExpanded() && item.getItemCount() > 0) {
                var ev = new org.eclipse.swt.widgets.Event();
                ev.item = item;
                tree.notifyListeners(SWT.Expand, ev);
                item.setExpanded(true);
            }
            todo.addAll(List.of(item.getItems()));
        }
        return null;
    }

    /**
     * Issue 18, defect 4: Connect is a visible mode (a bar over the graph says so and how to leave it), clicks
     * in it select what they hit so that the Delete key deletes it, and Esc leaves it.
     */
    @Test
    public void connectModeIsVisibleDeleteWorksInItAndEscLeavesIt() throws Exception {
        FusionEditor e = openSeed("allgather", "connect.fusion");
        String out = e.model().outputs().get(0);
        Button connect = button(ShownGraph.page(e), "Connect");
        person.clickCenter(connect);
        assertTrue(ShownGraph.connectMode(e), "the Connect button turns the mode on");
        assertNotNull(ShownGraph.modeBar(e), "a bar says Connect mode is on");
        assertTrue(ShownGraph.modeBar(e).contains("Esc"), ShownGraph.modeBar(e));
        assertNotNull(ShownGraph.of(e).getControl().getCursor(), "a cross cursor over the graph");
        person.click(ShownGraph.of(e).getControl(), ShownGraph.of(e).center(out), 0);
        assertEquals(List.of(out), ShownGraph.of(e).selectedKeys(), "a click in Connect mode selects the node too");
        person.press(SWT.DEL);
        assertTrue(e.model().tensor(out).isEmpty(), "the Delete key deletes it in Connect mode");
        person.press(SWT.ESC);
        assertFalse(ShownGraph.connectMode(e), "Esc leaves Connect mode");
        assertNull(ShownGraph.modeBar(e), "and the bar goes");
        assertFalse(connect.getSelection(), "the button is up again");
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "editor-connect-left.png");
    }

    /** Issue 18, defect 9: palette tooltips say "an add op", not "a add op", on short lines that fit. */
    @Test
    public void paletteTooltipsReadWell() throws Exception {
        FusionEditor e = openSeed("allgather", "palette.fusion");
        String tip = button(ShownGraph.page(e), "add").getToolTipText();
        assertTrue(tip.startsWith("Add an add op"), tip);
        assertTrue(button(ShownGraph.page(e), "matmul").getToolTipText().startsWith("Add a matmul op"));
        for (Button b : ViewTestSupport.descendants(ShownGraph.page(e), Button.class)) {
            for (String line : b.getToolTipText().split("\n")) assertTrue(line.length() <= 40, "a short line: " + line);
        }
    }

    /** Issue 18, defect 9: saving keeps the file's permissions (a temporary file replaced it as rw-------). */
    @Test
    public void saveKeepsThePermissions() throws Exception {
        FusionEditor e = openSeed("allgather", "perms.fusion");
        Path file = e.getEditorInput().getAdapter(IFile.class).getLocation().toFile().toPath();
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        e.commands().addInputTensor();
        page.activate(e);
        person.press(SWT.CTRL, 's');
        person.settle(300);
        assertFalse(e.isDirty(), "Ctrl+S saved");
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    /** Issue 18, defect 9: the Source page colours the JSON (member names, strings, numbers) from the theme. */
    @Test
    public void sourcePageColoursTheJson() throws Exception {
        FusionEditor e = openSeed("allgather", "colours.fusion");
        ShownGraph.showPage(e, FusionEditor.SOURCE_PAGE);
        person.settle(400);
        StyledText text = (StyledText) e.getAdapter(org.eclipse.ui.texteditor.ITextEditor.class).getAdapter(Control.class);
        String s = text.getText();
        var registry = PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry();
        StyleRange key = text.getStyleRangeAtOffset(s.indexOf("\"format\"") + 1);
        assertNotNull(key, "the member name has a style");
        assertEquals(registry.get("org.hostir.studio.ui.json.key"), key.foreground);
        StyleRange value = text.getStyleRangeAtOffset(s.indexOf("\"hostir-fusion/1\"") + 1);
        assertNotNull(value);
        assertEquals(registry.get("org.hostir.studio.ui.json.string"), value.foreground);
        assertNotEquals(key.foreground, value.foreground, "names and values differ");
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "editor-source-json.png");
    }

    /** Issue 18, Deliver 3: Ctrl+wheel and Ctrl+- zoom, and the palette shows the level. */
    @Test
    public void ctrlWheelAndKeysZoomWithTheLevelShown() throws Exception {
        FusionEditor e = openSeed("ag_matmul_p2p", "zoom.fusion");
        page.activate(e);
        ShownGraph.press(e, "Zoom 100%");
        person.settle(100);
        int[] tv0 = ShownGraph.of(e).center("tv0");
        person.wheel(ShownGraph.of(e).getControl(), tv0[0], tv0[1], 1, SWT.CTRL);
        assertEquals("Zoom: 125%", ShownGraph.zoomLabel(e), "Ctrl+wheel zooms in and the palette shows the level");
        person.press(SWT.CTRL, '-');
        assertEquals("Zoom: 100%", ShownGraph.zoomLabel(e), "Ctrl+- zooms out");
    }

    /** Issue 18, Deliver 3: a node dragged with the mouse lands on the 10-pixel grid. */
    @Test
    public void aMovedNodeSnapsToTheGrid() throws Exception {
        FusionEditor e = openSeed("ag_matmul_p2p", "snap.fusion");
        page.activate(e);
        person.settle(100);
        int[] c = ShownGraph.of(e).center("tv2");
        int[] before = ShownGraph.of(e).bounds("tv2");
        person.drag(ShownGraph.of(e).getControl(), c[0], c[1], c[0] + 33, c[1] + 27);
        int[] moved = ShownGraph.of(e).bounds("tv2");
        assertNotEquals(before[0], moved[0], "the node moved");
        assertEquals(0, moved[0] % 10, "x on the grid: " + moved[0]);
        assertEquals(0, moved[1] % 10, "y on the grid: " + moved[1]);
    }

    /** Issue 18, Deliver 3: a palette item dragged onto the graph is added where it is dropped. */
    @Test
    public void aPaletteItemDraggedOntoTheGraphLandsWhereDropped() throws Exception {
        FusionEditor e = openSeed("ag_matmul_p2p", "drop.fusion");
        page.activate(e);
        person.settle(100);
        Control canvas = ShownGraph.of(e).getControl();
        int tensors = e.model().tensors().size();
        Button input = button(ShownGraph.page(e), "Input tensor");
        int dropX = canvas.getSize().x - 160, dropY = canvas.getSize().y - 80;
        person.dragTo(input, input.getSize().x / 2, input.getSize().y / 2, canvas, dropX, dropY);
        assertEquals(tensors + 1, e.model().tensors().size(), "the dragged input tensor was added");
        String added = e.model().tensors().get(tensors).name();
        int[] at = onCanvas(e, added);
        assertTrue(Math.abs(at[0] - dropX) <= 10 && Math.abs(at[1] - dropY) <= 10, "where it was dropped ("
                + dropX + "," + dropY + "): " + at[0] + "," + at[1]);
    }

    /** A node's bounds as drawn on the canvas (x, y, width, height; zoom and scrolling applied). */
    private static int[] onCanvas(FusionEditor e, String key) { return ShownGraph.of(e).shownBounds(key); }

        static Button button(Control root, String text) {
        return ViewTestSupport.descendants(root, Button.class).stream().filter(b -> text.equals(b.getText()))
                .findFirst().orElseThrow(() -> new AssertionError("no button " + text));
    }
}
