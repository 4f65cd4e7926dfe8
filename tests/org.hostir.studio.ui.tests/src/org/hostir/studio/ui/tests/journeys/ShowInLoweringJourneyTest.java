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
import org.eclipse.swt.widgets.Listener;
import org.eclipse.swt.widgets.Menu;
import org.eclipse.swt.widgets.MenuItem;
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
     * The menu's item is not chosen here: under Xvfb, Down and Return in the popped-up GTK menu did not activate it
     * (tried on 2026-11-28); the command it runs is the one Alt+Shift+L runs, tested above.
     */
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
     * view is a showInPart of every perspective; the Timeline is the Show In source). The menu's items are read while
     * it is up; the item is not chosen (see above), Esc closes the menu.
     */
    @Test
    public void altShiftWListsTheLoweringViewInTheShowInMenu() throws Exception {
        click(matmulOfRank(0));
        List<String> items = new java.util.ArrayList<>();
        Display display = view.canvas().control().getDisplay();
        // the menu is made when the key is pressed: catch it as it shows, read it once it is filled
        Listener shown = e -> {
            if (e.widget instanceof Menu m) display.asyncExec(() -> {
                if (!m.isDisposed()) for (MenuItem item : m.getItems()) items.add(item.getText());
            });
        };
        display.addFilter(SWT.Show, shown);
        try {
            person.press(SWT.ALT | SWT.SHIFT, 'w');
            person.settle(400);
        } finally {
            display.removeFilter(SWT.Show, shown);
        }
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-show-in-menu.png");
        person.press(SWT.ESC);
        person.settle(150);
        assertTrue(items.stream().anyMatch(t -> t.replace("&", "").startsWith("Lowering")),
                "the Show In menu lists the Lowering view: " + items);
    }
}
