package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.widgets.Link;
import org.eclipse.ui.part.ShowInContext;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.LoweringShown;
import org.hostir.studio.ui.launch.HostIrLaunchShortcut;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.launch.LaunchSettings;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand: a launch predicted on the simulator (Run Configurations > Host IR Program, Execution >
 * sim, 8 devices) shows its trace in the Timeline; a person clicks a recv bar and the details panel's "Node N of
 * rank R in Lowering" link. The Lowering view stayed on its own 2-device program and selected the node of that id
 * there: a launch handed the Timeline no lowering settings for a prediction. Now the view lowers the run's 8 devices
 * and selects the bar's node in that program.
 */
public class PredictedShowInJourneyTest extends JourneyTest {
    private static final String SEED = "examples/seeds/ag_matmul_p2p.fusion";
    private IFile file;
    private LoweringView lowering;

    @AfterEach
    public void restore() throws Exception {
        if (lowering != null && file != null) {
            lowering.show(new ShowInContext(new LoweringShown(file.getFullPath().toString(), 2, Map.of()),
                    StructuredSelection.EMPTY));
            journey.waitForLowering();
        }
    }

    @Test
    public void aPredictedRunsBarIsShownInTheProgramThatRan() throws Exception {
        file = ViewTestSupport.copyToWorkspace("predicted-show-in", SEED, "ag_matmul_p2p.fusion");
        lowering = journey.show(LoweringView.ID);
        lowering.setFile(file);
        journey.waitForLowering();
        assertEquals(2, lowering.devices(), "the view lowers for its own 2 devices");
        ILaunchConfigurationWorkingCopy copy = HostIrLaunchShortcut.configurationFor(file).getWorkingCopy();
        LaunchSettings s = LaunchAttributes.read(copy);
        LaunchAttributes.write(new LaunchSettings(s.file(), s.symbols(), LaunchSettings.SIM, 8, 4, 1, 0, false,
                Map.of(), "h200x8-nvlink"), copy);
        TimelineView view = launch(copy.doSave());

        TimelineEvent bar = view.timeline().events().stream().filter(e -> e.rank() == 0 && e.nodeId() >= 0
                && e.name().startsWith("recv")).min(Comparator.comparingLong(TimelineEvent::startNs)).orElseThrow();
        page.activate(view);
        view.fit();
        view.canvas().reveal(bar);
        person.settle(200);
        int[] at = view.canvas().centerOf(bar);
        assertNotNull(at, "the bar is drawn");
        person.click(view.canvas().control(), at, 0);
        assertEquals(bar, view.canvas().selected(), "the click selected the bar");
        Link link = ViewTestSupport.descendants(journey.shell(), Link.class).stream()
                .filter(l -> l.isVisible() && l.getText().contains("in Lowering")).findFirst().orElseThrow();
        // on the link's words (the widget is wider than its text, and only the words are the link)
        GC gc = new GC(link);
        int words = gc.textExtent(link.getText().replaceAll("</?a>", "")).x;
        gc.dispose();
        person.click(link, Math.min(words / 2, link.getSize().x / 2), link.getSize().y / 2);
        journey.waitForLowering();
        assertTrue(page.isPartVisible(lowering), "the link brought the Lowering view to the front");

        assertEquals(8, lowering.devices(), "lowered for the run's 8 devices");
        PassRow row = assertInstanceOf(PassRow.class, ShownLowering.of(lowering).tree().getStructuredSelection()
                .getFirstElement(), "a node is selected");
        assertEquals(bar.nodeId(), row.node().id(), "the bar's node");
        assertTrue(ShownLowering.of(lowering).tree().getTree().getSelection()[0].getText().contains(row.text()),
                "the selected row shows the node");
        ViewTestSupport.screenshot(journey.shell(), "timeline-predicted-show-in-lowering.png");
    }

    /** Launches and waits for its trace in the Timeline view. */
    private TimelineView launch(ILaunchConfiguration config) throws Exception {
        return LaunchedTimeline.launch(page, person, config);
    }
}
