package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.CpuRun;
import org.hostir.studio.ui.timeline.RunSettings;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: the Timeline's run line (its description: file, devices, options, time, validation) was cut at the right
 * at 1600 px when the run spelled out every option ("...interStreamSynchroniz"), the time and the validation's
 * verdict out of sight. While no bar is selected the details pane, which wraps, shows the whole line.
 */
public class RunLineJourneyTest {
    @Test
    public void theWholeRunLineIsInTheDetailsPaneUntilABarIsClicked() throws Exception {
        Journey journey = Journey.start();   // 1600 x 1000
        Person person = journey.person();
        Shell shell = journey.shell();
        IFile file = ViewTestSupport.copyToWorkspace("run-line", "examples/seeds/ag_matmul_p2p.fusion",
                "ag_matmul_p2p.fusion");
        String source = Files.readString(ViewTestSupport.repoFile("examples/seeds/ag_matmul_p2p.fusion"));
        // every lowering option spelled out, as a launch configuration saved from its Options tab holds them
        RunSettings settings = new RunSettings(4, LoweringOptions.DEFAULTS.asMap(), Map.of());
        var ran = (CpuRun.Outcome.Ran) CpuRun.run(source, file.getName(), settings, s -> { });
        String line = CpuRun.title(file.getName(), settings, ran.result());
        TimelineView view = TimelineView.show(ran.result().timeline(), line, file, settings);
        person.settle(500);
        assertEquals(line, view.getContentDescription(), "the view's description is the run line");
        // the description's one line is longer than the view is wide: what the person saw cut
        var description = ViewTestSupport.descendants(shell, Label.class).stream()
                .filter(l -> l.isVisible() && line.equals(l.getText())).findFirst();
        description.ifPresent(l -> System.out.println("run line: " + l.computeSize(SWT.DEFAULT, SWT.DEFAULT).x
                + " px in a label of " + l.getSize().x + ", its tooltip " + (line.equals(l.getToolTipText())
                        ? "the whole line" : l.getToolTipText())));
        assertTrue(description.isPresent(), "the description label shows the line");
        assertTrue(description.get().computeSize(SWT.DEFAULT, SWT.DEFAULT).x > description.get().getSize().x,
                "the line is longer than the label (the case of issue 35)");
        // the time and the validation's verdict first, within the label; the options after them
        String facts = line.substring(0, line.indexOf(", ", line.indexOf(" ms")));
        var gc = new org.eclipse.swt.graphics.GC(description.get());
        int factsWidth = gc.textExtent(facts).x;
        gc.dispose();
        assertTrue(factsWidth <= description.get().getSize().x, "\"" + facts + "\" (" + factsWidth
                + " px) within the label's " + description.get().getSize().x + " px");
        // whole in the details pane, wrapped within the pane's width
        assertTrue(view.detailsText().startsWith(line + "\n"), "the details pane starts with the run line: "
                + view.detailsText());
        SummaryReading.clickTab(person, view, "Details");   // a new run shows its Summary tab first
        StyledText details = ViewTestSupport.descendants(shell, StyledText.class).stream()
                .filter(t -> t.isVisible() && t.getText().equals(view.detailsText())).findFirst().orElseThrow();
        assertTrue((details.getStyle() & SWT.WRAP) != 0, "the details pane wraps");
        int lineHeight = details.getLineHeight();
        assertTrue(details.getClientArea().height >= 3 * lineHeight, "the pane shows the wrapped line: "
                + details.getClientArea().height + " px");
        ViewTestSupport.screenshot(shell, "timeline-run-line.png");
        // a click on a bar: its details instead
        var bar = view.timeline().events().stream().filter(e -> e.nodeId() >= 0)
                .max(java.util.Comparator.comparingLong(e -> e.durationNs())).orElseThrow();
        view.canvas().reveal(bar);
        person.settle(150);
        person.click(view.canvas().control(), view.canvas().centerOf(bar), 0);
        assertTrue(!view.detailsText().startsWith(line), "a bar's details after the click: " + view.detailsText());
    }
}
