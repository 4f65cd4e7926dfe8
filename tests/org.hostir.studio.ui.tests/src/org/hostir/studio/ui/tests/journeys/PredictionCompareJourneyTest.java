package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.ToolBar;
import org.eclipse.swt.widgets.ToolItem;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.PredictedTrace;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.trace.analysis.TraceComparison;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.CpuRun;
import org.hostir.studio.ui.timeline.Prediction;
import org.hostir.studio.ui.timeline.RunSettings;
import org.hostir.studio.ui.timeline.TimelineCanvas;
import org.hostir.studio.ui.timeline.TimelineView;
import org.hostir.studio.ui.timeline.model.DifferenceTrack;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, measured against predicted in the Timeline: a CPU run of the AG+GEMM seed, the toolbar's
 * "Vs Predicted", a profile typed into the dialog; the Compare tab lists the engine's node-by-node comparison
 * ({@link PredictedTrace}, what {@code hirstudio trace diff A --predict P --fusion F} prints), difference tracks
 * are drawn under the rows with B − A on hover, and a rank folded by a click on its triangle folds its counter
 * and difference tracks with it. The critical path is outlined in the theme's colour.
 */
public class PredictionCompareJourneyTest {
    private static final String SEED = "examples/seeds/ag_matmul_p2p.fusion";
    private static final String PROFILE = "h200x2-measured";
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

    @Test
    public void aCpuRunIsComparedWithItsPredictionNodeByNode() throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace("predicted-compare", SEED, "ag_matmul_p2p.fusion");
        page.getWorkbenchWindow().getShell().setBounds(0, 0, 1600, 1000);
        person.lookAt(page.getWorkbenchWindow().getShell());
        String source = Files.readString(ViewTestSupport.repoFile(SEED));
        var ran = (CpuRun.Outcome.Ran) CpuRun.run(source, "ag_matmul_p2p.fusion", RunSettings.DEFAULTS.devices(),
                LoweringOptions.DEFAULTS, x -> { });
        TimelineView view = TimelineView.show(ran.result().timeline(), "ag_matmul_p2p: CPU run", file,
                RunSettings.DEFAULTS);
        ViewTestSupport.join(TimelineView.SUMMARY_FAMILY);
        page.setPartState(page.findViewReference(TimelineView.ID), IWorkbenchPage.STATE_MAXIMIZED);
        person.settle(400);
        view.fit();
        TimelineCanvas canvas = view.canvas();
        criticalPathInTheThemesColour(view);

        clickToolItem("Vs Predicted");
        Shell dialog = SimulationJourneyTest.shellTitled("Compare With Prediction");
        Combo profile = ViewTestSupport.descendants(dialog, Combo.class).get(0);
        person.click(profile, 12, profile.getSize().y / 2);
        person.press(SWT.CTRL, 'a');
        person.type(PROFILE, 15);
        person.clickCenter(SimulationJourneyTest.button(dialog, "OK"));
        assertTrue(dialog.isDisposed(), "OK closed the dialog");
        ViewTestSupport.join(Prediction.JOB_FAMILY);
        person.settle(400);

        TraceComparison shown = view.comparison();
        assertNotNull(shown, "the comparison arrived");
        LoadedFusion loaded = Engine.load(new FusionSource.Text(source, "ag_matmul_p2p.fusion"),
                RunSettings.DEFAULTS.devices(), Map.of());
        TraceComparison expected = PredictedTrace.compare(shown.a().run(), loaded, LoweringOptions.DEFAULTS, PROFILE,
                "ag_matmul_p2p.fusion", x -> { });
        assertEquals(expected.rows(), view.compareRows(), "the engine's comparison, node by node");
        assertEquals(TraceComparison.Alignment.PROGRAM, shown.alignment());
        assertEquals(0, shown.unnamedA(), "every measured bar names a node of the predicted run's program");
        assertTrue(view.compareRows().stream().allMatch(r -> r.key().contains("(node ") && r.onlyIn().isEmpty()),
                view.compareRows().toString());
        assertTrue(shown.b().run().label().startsWith("predicted: "), shown.b().run().label());
        assertEquals("Compare", view.analysisTabs().getSelection().getText(), "the Compare tab comes to the front");

        assertEquals(DifferenceTrack.of(shown), canvas.differences(), "a difference track per rank");
        assertEquals(RunSettings.DEFAULTS.devices(), canvas.shownDifferences().size());
        hoverTheLargestDifference(view);
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-compare-predicted.png");
        foldRankZero(view);
    }

    /** The outline of the path's bars is the colour registry's critical-path colour, painted on a bar of the path. */
    private void criticalPathInTheThemesColour(TimelineView view) {
        RGB theme = PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry()
                .getRGB("org.hostir.studio.ui.timeline.criticalPath");
        assertNotNull(theme, "plugin.xml defines the critical path's colour");
        assertEquals(theme, view.palette().criticalPath().getRGB());
        var bar = view.canvas().criticalPath().stream().filter(e -> e.stream() >= 0)
                .max((a, b) -> Long.compare(a.durationNs(), b.durationNs())).orElseThrow();
        int[] at = view.canvas().centerOf(bar);
        assertNotNull(at, "a device bar of the path is shown");
        assertTrue(TraceAnalysisJourneyTest.paintedNear(view.canvas(), at, theme, 14),
                "its outline is painted in the theme's colour");
    }

    /** Hovering the widest bar of rank 0's difference track shows its node, both times and B − A. */
    private void hoverTheLargestDifference(TimelineView view) {
        TimelineCanvas canvas = view.canvas();
        DifferenceTrack track = canvas.shownDifferences().getFirst();
        assertEquals(0, track.rank());
        TraceComparison.BarPair widest = track.pairs().stream()
                .max((a, b) -> Long.compare(a.a().durationNs(), b.a().durationNs())).orElseThrow();
        int[] at = canvas.differencePoint(0, (widest.a().startNs() + widest.a().endNs()) / 2.0);
        Rectangle area = canvas.control().getClientArea();
        assertTrue(area.contains(at[0], at[1]), "the difference track is on screen at " + at[0] + "," + at[1]);
        if (widest.deltaNs() != 0) {
            int dy = widest.deltaNs() > 0 ? -4 : 4;
            RGB colour = view.palette().difference(widest.deltaNs() > 0).getRGB();
            assertTrue(TraceAnalysisJourneyTest.paintedNear(canvas, new int[] { at[0], at[1] + dy }, colour, 6), "B - A painted in the theme's " + (widest.deltaNs() > 0 ? "slower" : "faster") + " colour");
        }
        person.moveTo(canvas.control(), at[0] - 3, at[1]);
        person.moveTo(canvas.control(), at[0], at[1]);
        person.settle(1200);
        String hover = canvas.hoverText(at[0], at[1]);
        assertNotNull(hover);
        TraceComparison.BarPair under = canvas.differenceAt(at[0], at[1]);
        assertNotNull(under);
        assertTrue(hover.startsWith(under.key() + "\nrank 0, A at ") && hover.contains("\nB \u2212 A: "), hover);
        assertTrue(TraceAnalysisJourneyTest.shownInTooltip(view.getSite().getShell(), hover), "the tooltip shows: " + hover);
    }

    /** A click on rank 0's triangle folds its rows and its counter and difference tracks; a second unfolds them. */
    private void foldRankZero(TimelineView view) {
        TimelineCanvas canvas = view.canvas();
        int before = canvas.shownCounters().size();
        assertTrue(canvas.shownCounters().stream().anyMatch(c -> c.rank() == 0), "rank 0 has counter tracks");
        person.moveTo(canvas.control(), 5, 5);
        person.click(canvas.control(), canvas.rankToggle(0), 0);
        person.settle(300);
        assertTrue(canvas.collapsed(0));
        assertFalse(canvas.shownCounters().stream().anyMatch(c -> c.rank() == 0), "rank 0's counters fold with it");
        assertFalse(canvas.shownDifferences().stream().anyMatch(t -> t.rank() == 0), "and its difference track");
        assertTrue(canvas.shownCounters().size() < before && !canvas.shownCounters().isEmpty(), "rank 1's stay");
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-rank-folded-tracks.png");
        person.click(canvas.control(), canvas.rankToggle(0), 0);
        person.settle(200);
        assertFalse(canvas.collapsed(0), "left as found");
        assertEquals(before, canvas.shownCounters().size());
    }

    private void clickToolItem(String text) {
        ToolItem found = null;
        for (ToolBar bar : ViewTestSupport.descendants(page.getWorkbenchWindow().getShell(), ToolBar.class)) {
            for (ToolItem item : bar.getItems()) if (text.equals(item.getText())) found = item;
        }
        assertNotNull(found, "the Timeline's toolbar has " + text);
        var b = found.getBounds();
        person.click(found.getParent(), b.x + b.width / 2, b.y + b.height / 2);
        person.settle(500);
    }
}
