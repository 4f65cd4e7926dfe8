package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Link;
import org.eclipse.swt.widgets.Listener;
import org.eclipse.swt.widgets.Menu;
import org.eclipse.swt.widgets.MenuItem;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.graphics.GC;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.part.ShowInContext;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.LoweringShown;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.CpuRun;
import org.hostir.studio.ui.timeline.RunSettings;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: the Timeline's Show in Lowering, by keys and clicks. A bar of a run on 4 devices, clicked, then Alt+Shift+L
 * (and the canvas's context menu) brings the Lowering view to the front with the bar's Host IR node selected in its
 * rank's final program, lowered with the run's 4 devices although the view showed 2 (it used to pick a node of its
 * own 2-device program, and the details panel's link did nothing visible).
 */
public class ShowInLoweringJourneyTest {
    private Journey journey;
    private IWorkbenchPage page;
    private Person person;
    private IFile file;
    private LoweringView lowering;
    private TimelineView view;

    @BeforeEach
    public void run() throws Exception {
        journey = Journey.start();
        page = journey.page();
        person = journey.person();
        file = ViewTestSupport.copyToWorkspace("show-in-lowering", "examples/seeds/ag_matmul_p2p.fusion",
                "ag_matmul_p2p.fusion");
        lowering = journey.show(LoweringView.ID);
        lowering.setFile(file);
        journey.waitForLowering();
        assertEquals(2, lowering.devices(), "the view lowers for its own 2 devices");
        String source = Files.readString(ViewTestSupport.repoFile("examples/seeds/ag_matmul_p2p.fusion"));
        var ran = (CpuRun.Outcome.Ran) CpuRun.run(source, "ag_matmul_p2p.fusion", 4, LoweringOptions.DEFAULTS, s -> { });
        view = TimelineView.show(ran.result().timeline(), "ag_matmul_p2p on 4", file,
                new RunSettings(4, Map.of(), Map.of()));
        person.settle(300);
        page.activate(view);
        view.fit();
        person.settle(200);
    }

    /** The view as the other journeys expect it: 2 devices, default options, this file's lowering. */
    @AfterEach
    public void restore() throws Exception {
        lowering.show(new ShowInContext(new LoweringShown(file.getFullPath().toString(), 2, Map.of()),
                StructuredSelection.EMPTY));
        journey.waitForLowering();
    }

    private TimelineEvent matmulOfRank(int rank) {
        return view.timeline().events().stream().filter(e -> e.kind() == EventKind.MATMUL && e.nodeId() >= 0
                && e.rank() == rank).max(Comparator.comparingLong(TimelineEvent::durationNs)).orElseThrow();
    }

    /** Clicks the bar; it is the Timeline's selection. */
    private void click(TimelineEvent bar) {
        page.activate(view);
        view.canvas().reveal(bar);   // scrolled to, as a person scrolls the rows: rank 3's are below the fold
        person.settle(150);
        int[] at = view.canvas().centerOf(bar);
        assertNotNull(at, "the bar is drawn");
        // A matmul of a fresh CPU run can be under a pixel wide at fit (112 us at ~150 us a pixel), and its centre
        // pixel can then start before the bar, beside a shorter copy: a person zooms in on it first (W, around
        // the pointer) until it is a few pixels wide, as the run's timing would otherwise pick the bar clicked.
        for (int i = 0; i < 30 && bar.durationNs() / view.canvas().nsPerPixel() < 6; i++) {
            person.moveTo(view.canvas().control(), at[0], at[1]);
            person.press(0, 'w');
            person.settle(30);
            at = view.canvas().centerOf(bar);
            assertNotNull(at, "the bar stays drawn while zooming in on it");
        }
        person.click(view.canvas().control(), at, 0);
        assertEquals(bar, view.canvas().selected(), "the click selected the bar");
    }

    private void assertShown(TimelineEvent bar, String how) throws Exception {
        journey.waitForLowering();
        assertTrue(page.isPartVisible(lowering), how + ": the Lowering view is in front");
        assertSame(lowering, page.getActivePart(), how + ": and active");
        assertEquals(4, lowering.devices(), how + ": lowered for the run's 4 devices");
        PassRow row = assertInstanceOf(PassRow.class, ShownLowering.of(lowering).tree().getStructuredSelection()
                .getFirstElement(), how + ": a node is selected");
        assertEquals(bar.nodeId(), row.node().id(), how + ": the bar's node");
        assertEquals(bar.rank(), Integer.parseInt(lowering.getContentDescription().replaceAll(".*rank (\\d+).*", "$1")),
                how + ": in the bar's rank: " + lowering.getContentDescription());
        assertEquals(ShownLowering.of(lowering).rank().result(), ShownLowering.of(lowering).selected().step().after(),
                how + ": of the final program");
        assertTrue(ShownLowering.of(lowering).tree().getTree().getSelection()[0].getText().contains(row.text()),
                how + ": the selected row shows the node");
    }

    @Test
    public void altShiftLShowsTheBarsNodeLoweredWithTheRunsDevices() throws Exception {
        TimelineEvent bar = matmulOfRank(3);
        click(bar);
        person.press(SWT.ALT | SWT.SHIFT, 'l');
        assertShown(bar, "Alt+Shift+L");
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-show-in-lowering.png");
    }

    /**
     * Issue 35: after the details pane's link "Node 1 of rank 1 in Lowering" (rank 1's times a digit shorter than
     * rank 0's) the pass list was about 14 px narrower than its columns, the time column's header and digits cut at
     * the right; the list's columns lie whole within it then, and at the other widths a person drags the window to.
     */
    @Test
    public void theDetailsLinkLeavesThePassListsColumnsWhole() throws Exception {
        TimelineEvent bar = matmulOfRank(1);
        click(bar);
        Shell shell = page.getWorkbenchWindow().getShell();
        Link link = ViewTestSupport.descendants(shell, Link.class).stream().filter(l -> l.isVisible()
                && l.getText().contains("of rank 1 in Lowering")).findFirst().orElseThrow();
        // on the link's text, at its left end (the control spans the pane)
        person.click(link, new int[] {12, link.getSize().y / 2}, 0);
        assertShown(bar, "the details' link");
        person.settle(300);
        Table passes = (Table) ShownLowering.of(lowering).passList();
        ViewTestSupport.screenshot(shell, "show-in-lowering-pass-list.png");
        assertColumnsWhole(passes, "after the link");
        var bounds = shell.getBounds();
        try {
            for (int width : new int[] {1500, 1537, 1574, 1611, 1648, 1685}) {
                shell.setBounds(bounds.x, bounds.y, width, bounds.height);
                person.settle(400);
                assertColumnsWhole(passes, "at " + width + " px");
            }
        } finally {
            shell.setBounds(bounds);
            person.settle(300);
        }
    }

    /** Every column ends within the list's client area, and each cell's text fits its cell. */
    private static void assertColumnsWhole(Table passes, String when) {
        var area = passes.getClientArea();
        int right = 0;
        for (var column : passes.getColumns()) right += column.getWidth();
        String shape = " (columns " + passes.getColumn(0).getWidth() + "+" + passes.getColumn(1).getWidth()
                + ", client area " + area + ", list " + passes.getSize().x + ", time cell "
                + (passes.getItemCount() > 0 ? passes.getItem(0).getBounds(1) : null) + ")";
        System.out.println("pass list " + when + ":" + shape);
        assertTrue(right <= area.width, when + ": the columns end at " + right + " px in a list of " + area.width
                + shape);
        GC gc = new GC(passes);
        try {
            for (var item : passes.getItems()) {
                for (int c = 0; c < passes.getColumnCount(); c++) {
                    var cell = item.getBounds(c);
                    int need = gc.textExtent(item.getText(c)).x;
                    // where the cell is drawn, the list's horizontal scrolling counted: within the list
                    assertTrue(cell.x >= 0 && cell.x + cell.width <= area.width, when + ": \"" + item.getText(c)
                            + "\"'s cell spans " + cell.x + " to " + (cell.x + cell.width) + " px of " + area.width
                            + shape);
                    assertTrue(need + 4 <= cell.width, when + ": \"" + item.getText(c) + "\" needs " + need
                            + " px in a cell of " + cell.width);
                }
            }
        } finally {
            gc.dispose();
        }
    }

    /** The canvas's context menu lists the item for the bar under the right click (Navigate > Show In is chosen below). */
    @Test
    public void theCanvasContextMenuOffersShowInLoweringForTheBarRightClicked() throws Exception {
        TimelineEvent bar = matmulOfRank(1);
        click(matmulOfRank(2));
        view.canvas().reveal(bar);
        person.settle(150);
        Menu menu = view.canvas().control().getMenu();
        assertNotNull(menu, "the canvas has a context menu");
        List<String> items = new java.util.ArrayList<>();
        menu.addListener(SWT.Show, e -> {
            for (var item : menu.getItems()) items.add(item.getText());
        });
        int[] at = view.canvas().centerOf(bar);
        person.click(view.canvas().control(), at[0], at[1], 3, 0);
        person.settle(300);
        assertTrue(items.stream().anyMatch(t -> t.startsWith("Show in Lowering")), "the menu offers it: " + items);
        assertEquals(bar, view.canvas().selected(), "the right click selected the bar under it");
        person.press(SWT.ESC);
    }

    /**
     * Navigate > Show In: Alt+Shift+W on a clicked bar pops up the Show In menu, which lists the Lowering view (the
     * view is a showInPart of every perspective; the Timeline is the Show In source); Down until the Lowering item is
     * highlighted (GTK arms the item under the keyboard's choice) and Return choose it, and the Lowering view shows
     * the bar's node. Should the keys not reach the popped-up menu, the pointer goes down the menu until the item is
     * highlighted and clicks it, as a person does; the test says which way the item was chosen.
     */
    @Test
    public void altShiftWThenTheLoweringItemShowsTheBarsNode() throws Exception {
        TimelineEvent bar = matmulOfRank(2);
        click(bar);
        int[] pointer = view.canvas().centerOf(bar);
        List<String> items = new java.util.ArrayList<>();
        List<String> armed = new java.util.ArrayList<>();
        List<String> chosen = new java.util.ArrayList<>();
        Display display = view.canvas().control().getDisplay();
        // the menu is made when the key is pressed: catch it as it shows, read it once it is filled
        Listener shown = e -> {
            if (e.widget instanceof Menu m) display.asyncExec(() -> {
                if (!m.isDisposed()) for (MenuItem item : m.getItems()) items.add(label(item));
            });
        };
        Listener arm = e -> { if (e.widget instanceof MenuItem i) armed.add(label(i)); };
        Listener select = e -> { if (e.widget instanceof MenuItem i) chosen.add(label(i)); };
        display.addFilter(SWT.Show, shown);
        display.addFilter(SWT.Arm, arm);
        display.addFilter(SWT.Selection, select);
        String how;
        try {
            person.press(SWT.ALT | SWT.SHIFT, 'w');
            person.settle(400);
            assertTrue(items.contains("Lowering"), "the Show In menu lists the Lowering view: " + items);
            ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-show-in-menu.png");
            how = byKeys(armed, items.size()) ? "Alt+Shift+W, Down to Lowering, Return"
                    : byPointer(armed, pointer) ? "Alt+Shift+W, a click on Lowering" : null;
            assertNotNull(how, "the Lowering item was highlighted neither by Down (armed: " + armed
                    + ") nor under the pointer going down the menu");
            person.settle(300);
        } finally {
            display.removeFilter(SWT.Show, shown);
            display.removeFilter(SWT.Arm, arm);
            display.removeFilter(SWT.Selection, select);
        }
        assertEquals(List.of("Lowering"), chosen, how + ": the item chosen");
        assertShown(bar, how);
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-show-in-chosen.png");
    }

    private static String label(MenuItem item) { return item.getText().replace("&", ""); }

    /** Down until the Lowering item is highlighted, then Return; false if the keys highlight nothing. */
    private boolean byKeys(List<String> armed, int count) {
        for (int i = 0; i <= count; i++) {
            person.press(SWT.ARROW_DOWN);
            person.settle(150);
            if (armed.isEmpty()) return false;
            if (armed.get(armed.size() - 1).equals("Lowering")) {
                person.press(SWT.CR);
                return true;
            }
        }
        return false;
    }

    /** The pointer down the menu (it pops up at the pointer) until Lowering is highlighted, then a click on it. */
    private boolean byPointer(List<String> armed, int[] at) {
        var canvas = view.canvas().control();
        for (int dy = 4; dy < 240; dy += 6) {
            person.moveTo(canvas, at[0] + 40, at[1] + dy);
            if (!armed.isEmpty() && armed.get(armed.size() - 1).equals("Lowering")) {
                person.clickUnreported(canvas, at[0] + 40, at[1] + dy);   // GTK reports no MouseDown on a menu
                return true;
            }
        }
        return false;
    }
}
