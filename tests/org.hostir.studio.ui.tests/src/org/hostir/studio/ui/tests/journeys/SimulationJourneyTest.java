package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Spinner;
import org.eclipse.swt.widgets.ToolBar;
import org.eclipse.swt.widgets.ToolItem;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.engine.ScheduleSweep;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.ui.launch.ExecutionTab;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.launch.LaunchSettings;
import org.hostir.studio.ui.tests.ShownExecutionTab;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.CpuRun;
import org.hostir.studio.ui.timeline.Prediction;
import org.hostir.studio.ui.timeline.RunSettings;
import org.hostir.studio.ui.timeline.ScheduleSweepDialog;
import org.hostir.studio.ui.timeline.TimelineView;
import org.hostir.studio.ui.timeline.model.StackedRuns;
import org.hostir.studio.ui.timeline.model.TimelineRows;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 22 item 7, driven with keys and clicks: the launch configuration's Execution tab set to the simulation on
 * 1,024 GPUs of a profile, whose predicted timeline opens marked as predicted; a CPU run's prediction shown above
 * it; and the schedule sweep of the AG+GEMM example, with its table and plot.
 */
public class SimulationJourneyTest {
    private static final String SEED = "examples/seeds/ag_matmul_p2p.fusion";
    private IWorkbenchPage page;
    private Person person;

    @BeforeEach
    public void look() {
        page = ViewTestSupport.page();
        person = Person.onCurrentDisplay();
    }

    @AfterEach
    public void restore() {
        var ref = page.findViewReference(TimelineView.ID);
        if (ref != null) page.setPartState(ref, IWorkbenchPage.STATE_RESTORED);
        page.closeAllEditors(false);
        person.settle(100);
    }

    /** Clears a text field a person clicked into and types {@code text} in it. */
    @Test
    public void theExecutionTabPredictsARunOn1024GpusOfAProfile() throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace("sim-journey", SEED, "ag_matmul_p2p.fusion");
        ILaunchConfigurationWorkingCopy copy = ShownExecutionTab.configuration(file, 2, 4,
                Map.of("offsetStreamIndexingByRank", "true"), "h100x8-nvlink");
        try (ShownExecutionTab shown = ShownExecutionTab.open(person, copy, false, 640, 360)) {
            Shell shell = shown.shell();
            ExecutionTab tab = shown.tab();
            List<Combo> combos = ViewTestSupport.descendants(shell, Combo.class);
            Combo backend = combos.get(0), profile = combos.get(1);
            assertEquals("auto", backend.getText());
            assertTrue(!profile.isEnabled(), "no profile to choose for a real run");
            person.clickCenter(backend); // the list opens; Escape leaves the focus on the combo
            person.press(SWT.ESC);
            person.press(SWT.ARROW_DOWN).press(SWT.ARROW_DOWN);
            assertEquals(LaunchSettings.SIM, backend.getText(), "two items down from auto");
            assertTrue(profile.isEnabled(), "the simulation asks for a profile");
            // issue 35, defect 5: a prediction is not validated by default (it would compute every rank's data)
            Button validate = ViewTestSupport.descendants(shell, Button.class).stream()
                    .filter(b -> (b.getStyle() & SWT.CHECK) != 0).findFirst().orElseThrow();
            assertFalse(validate.getSelection(), "choosing sim unticks Validate");
            person.retype(profile, "h200x8-nvlink");
            person.retype(ViewTestSupport.descendants(shell, Spinner.class).get(0), "1024");
            person.press(SWT.TAB);
            tab.performApply(copy);
        }
        LaunchSettings chosen = LaunchAttributes.read(copy);
        assertEquals(LaunchSettings.SIM, chosen.backend());
        assertEquals("h200x8-nvlink", chosen.profile());
        assertEquals(1024, chosen.devices());
        String args = String.join(" ", chosen.runArguments(Path.of("f.fusion"), Path.of("t.json")));
        assertTrue(args.contains("--backend sim --devices 1024") && args.contains("--profile h200x8-nvlink"), args);
        assertFalse(chosen.validate() || args.contains("--validate"), "no validation asked for: " + args);
        TimelineView view = launch(copy.doSave());
        assertTrue(view.getContentDescription().contains("predicted for 1024 x h200x8-nvlink"),
                view.getContentDescription());
        List<Integer> ranks = view.timeline().ranks();
        assertEquals(List.of(0, 1, 2, 3, 1020, 1021, 1022, 1023), ranks, "the first and last four of 1,024 ranks");
        page.setPartState(page.findViewReference(TimelineView.ID), IWorkbenchPage.STATE_MAXIMIZED);
        person.settle(500);
        // the console may come to the front when the run's last output arrives (one CI run's picture showed it)
        page.bringToTop(view);
        person.settle(200);
        assertTrue(page.isPartVisible(view), "the timeline, not the console, is in front for the picture");
        view.fit();
        awayFromTooltips();
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-1024-predicted.png");
    }

    /** The pointer to the window's bottom left corner, so that no tooltip covers the picture. */
    private void awayFromTooltips() {
        Shell shell = page.getWorkbenchWindow().getShell();
        person.moveTo(shell, 2, shell.getSize().y - 2);
        person.settle(800);
    }

    /** Launches at 1600 x 1000 and waits for its trace in the Timeline view. */
    private TimelineView launch(ILaunchConfiguration config) throws Exception {
        page.getWorkbenchWindow().getShell().setBounds(0, 0, 1600, 1000);
        return LaunchedTimeline.launch(page, person, config);
    }

    @Test
    public void aCpuRunsPredictionIsShownAboveIt() throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace("sim-journey", SEED, "ag_matmul_p2p.fusion");
        page.getWorkbenchWindow().getShell().setBounds(0, 0, 1600, 1000);
        person.lookAt(page.getWorkbenchWindow().getShell());
        String source = Files.readString(ViewTestSupport.repoFile(SEED));
        var ran = (CpuRun.Outcome.Ran) CpuRun.run(source, "ag_matmul_p2p.fusion", 2, LoweringOptions.DEFAULTS, x -> { });
        TimelineView view = TimelineView.show(ran.result().timeline(), "ag_matmul_p2p: CPU run", file,
                RunSettings.DEFAULTS);
        person.settle(300);
        ToolItem predict = null;
        for (ToolBar bar : ViewTestSupport.descendants(page.getWorkbenchWindow().getShell(), ToolBar.class)) {
            for (ToolItem item : bar.getItems()) if ("Predict".equals(item.getText())) predict = item;
        }
        assertNotNull(predict, "the Timeline's toolbar has Predict");
        var b = predict.getBounds();
        person.click(predict.getParent(), b.x + b.width / 2, b.y + b.height / 2);
        person.settle(500);
        Shell dialog = shellTitled("Show Prediction Above");
        person.retype(ViewTestSupport.descendants(dialog, Combo.class).get(0), "h200x2-measured");
        person.clickCenter(button(dialog, "OK"));
        assertTrue(dialog.isDisposed(), "OK closed the dialog");
        ViewTestSupport.join(Prediction.JOB_FAMILY);
        person.settle(300);

        assertTrue(view.getContentDescription().contains("predicted for 2 x h200x2-measured (above) and measured"
                + " (below)"), view.getContentDescription());
        var expected = (CpuRun.Outcome.Ran) Prediction.run(source, "ag_matmul_p2p.fusion", RunSettings.DEFAULTS,
                "h200x2-measured", x -> { });
        long predicted = view.timeline().events().stream().filter(e -> StackedRuns.predicted(e.stream())).count();
        assertEquals(expected.result().timeline().events().size(), predicted, "every predicted bar is shown");
        assertEquals(ran.result().timeline().events().size(), view.timeline().events().size() - predicted,
                "and every measured one");
        List<TimelineRows.Row> rows = view.canvas().rows().rows();
        for (int rank : List.of(0, 1)) {
            List<String> labels = rows.stream().filter(r -> r.rank() == rank).map(TimelineRows.Row::label).toList();
            int lastPredicted = -1, firstMeasured = labels.size();
            for (int i = 0; i < labels.size(); i++) {
                if (labels.get(i).contains("  predicted ")) lastPredicted = i;
                if (labels.get(i).contains("  measured ")) firstMeasured = Math.min(firstMeasured, i);
            }
            assertTrue(lastPredicted >= 0 && lastPredicted < firstMeasured && firstMeasured < labels.size(),
                    "rank " + rank + "'s predicted rows above its measured rows: " + labels);
        }
        ViewTestSupport.join(TimelineView.SUMMARY_FAMILY);
        assertTrue(view.summaryText().startsWith("PREDICTED for 2 x h200x2-measured"), view.summaryText());
        assertTrue(view.summaryText().contains("\n\nMEASURED\n"), "each run's figures apart");
        page.setPartState(page.findViewReference(TimelineView.ID), IWorkbenchPage.STATE_MAXIMIZED);
        person.settle(500);
        view.fit();
        awayFromTooltips();
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-predicted-measured.png");
    }

    @Test
    public void theScheduleSweepOfTheAgGemmExampleShowsATableAndAPlot() throws Exception {
        ScheduleSweepDialog sweep = Journey.openSweep(page, person, "sim-journey", SEED, "ag_matmul_p2p.fusion");
        Shell dialog = sweep.getShell();
        person.retype(sweep.devicesField(), "2,8,64");
        person.retype(sweep.varyField(), "offsetStreamIndexingByRank=false,true backend=nccl,cuda");
        person.retype(sweep.symbolsField(), "M=4096 K=8192 N=8192");
        person.retype(sweep.profileField(), "h200x8-nvlink");
        person.clickCenter(button(dialog, "Run Sweep"));
        ViewTestSupport.join(ScheduleSweepDialog.JOB_FAMILY);
        person.settle(500);

        List<ScheduleSweep.Point> points = sweep.points();
        assertEquals(12, points.size(), sweep.statusText());
        assertTrue(points.stream().allMatch(p -> p.figures().isPresent()), () -> points.toString());
        assertEquals(12, sweep.table().getItemCount());
        assertEquals("2", sweep.table().getItem(0).getText(0));
        assertEquals("backend=nccl offsetStreamIndexingByRank=false", sweep.table().getItem(0).getText(1));
        assertTrue(sweep.statusText().startsWith("12 points simulated"), sweep.statusText());
        // on 64 GPUs the offset schedule spreads the peers, and is predicted faster than every rank asking rank 0
        double plain = span(points, 64, "false"), offset = span(points, 64, "true");
        assertTrue(offset < plain, "offset " + offset + " ms, plain " + plain + " ms");
        // spans from 23 ms (2 GPUs) to 1.5 s (64) on a log scale: the 2-GPU bars are more than slivers (they were
        // 1.5 % of the longest on the linear one), and a longer span still draws a longer bar
        person.settle(300);
        List<Integer> widths = sweep.plotBarWidths();
        assertEquals(12, widths.size());
        int longest = widths.stream().max(Integer::compare).orElseThrow();
        assertTrue(widths.get(0) * 5 > longest, "a 2-GPU bar " + widths.get(0) + " px of " + longest);
        for (int i = 0; i < 12; i++) {
            for (int j = 0; j < 12; j++) {
                double a = points.get(i).figures().orElseThrow().spanMs(), b = points.get(j).figures().orElseThrow().spanMs();
                if (a < b) assertTrue(widths.get(i) <= widths.get(j), "bar " + i + " (" + a + " ms) vs " + j);
            }
        }
        ViewTestSupport.screenshot(dialog, "sweep-ag-matmul.png");
        dialog.close();
    }

    private static double span(List<ScheduleSweep.Point> points, int devices, String offset) {
        return points.stream().filter(p -> p.devices() == devices && p.varied().get("backend").equals("nccl")
                && p.varied().get("offsetStreamIndexingByRank").equals(offset)).findFirst().orElseThrow()
                .figures().orElseThrow().spanMs();
    }

    static Shell shellTitled(String title) {
        for (Shell s : Display.getCurrent().getShells()) if (title.equals(s.getText()) && s.isVisible()) return s;
        throw new AssertionError("no window titled " + title);
    }

    static Button button(Shell shell, String text) {
        return ViewTestSupport.descendants(shell, Button.class).stream().filter(b -> text.equals(b.getText()))
                .findFirst().orElseThrow(() -> new AssertionError("no button " + text));
    }

}
