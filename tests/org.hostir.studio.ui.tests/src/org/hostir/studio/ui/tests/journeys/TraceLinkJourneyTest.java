package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.Point;
import org.eclipse.ui.console.ConsolePlugin;
import org.eclipse.ui.console.IConsole;
import org.eclipse.ui.console.IConsoleConstants;
import org.eclipse.ui.console.IConsoleView;
import org.eclipse.ui.console.IOConsole;
import org.eclipse.ui.console.IOConsoleOutputStream;
import org.eclipse.ui.console.TextConsolePage;
import org.eclipse.ui.part.PageBookView;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: the Console prints a run's trace by its full path. Eclipse leaves a program's output as the program
 * printed it and makes the file references in it links (JDT's stack traces, Ant's and CDT's file names: console
 * pattern match listeners), and so does the Studio: {@code trace: FILE.json} is a link that opens the trace in the
 * Timeline. It only took a path without spaces: in a workspace under "My Workspace" the line had no link. A person
 * clicks the link of such a path.
 */
public class TraceLinkJourneyTest extends JourneyTest {
    /** The console type the launch's processes write to, which the trace link listener is enabled for. */
    private static final String PROCESS_CONSOLE = "org.eclipse.debug.ui.ProcessConsoleType";
    private IOConsole console;
    private Path dir;

    @AfterEach
    public void removeConsole() throws IOException {
        if (console != null) ConsolePlugin.getDefault().getConsoleManager().removeConsoles(new IConsole[] {console});
        if (dir != null) {
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) Files.delete(p);
            }
            Files.delete(dir);
        }
    }

    @Test
    public void theTraceLineOfAPathWithSpacesIsALinkThatOpensTheTrace() throws Exception {
        dir = Files.createTempDirectory("trace link ").resolve("My Workspace");
        Files.createDirectories(dir);
        Path trace = dir.resolve("ag matmul-1.trace.json");
        Files.copy(ViewTestSupport.repoFile("docs/data/h200x2-2026-11-26-eve/trace-ar-nccl-s4.json"), trace);
        dir = trace.getParent();
        console = new IOConsole("hirstudio run (trace link)", PROCESS_CONSOLE, null);
        ConsolePlugin.getDefault().getConsoleManager().addConsoles(new IConsole[] {console});
        IConsoleView view = (IConsoleView) page.showView(IConsoleConstants.ID_CONSOLE_VIEW);
        view.display(console);
        String before = "validation: PASS max_abs_err=0.00\ntrace: ";
        try (IOConsoleOutputStream out = console.newOutputStream()) {
            out.write(before + trace + " (Chrome trace JSON: open it in Perfetto, ui.perfetto.dev, or chrome://tracing)\n");
        }
        assertTrue(person.until(10_000, () -> console.getHyperlinks().length > 0), "the trace line is a link");
        var region = console.getRegion(console.getHyperlinks()[0]);
        assertEquals(trace.toString(), console.getDocument().get(region.getOffset(), region.getLength()),
                "the link is the whole path");

        StyledText text = ((TextConsolePage) ((PageBookView) view).getCurrentPage()).getViewer().getTextWidget();
        person.settle(300);
        Point at = text.getLocationAtOffset(region.getOffset() + region.getLength() / 2);
        ViewTestSupport.screenshot(journey.shell(), "console-trace-link.png");
        person.click(text, at.x + 2, at.y + text.getLineHeight() / 2);
        TimelineView timeline = (TimelineView) page.findView(TimelineView.ID);
        assertTrue(person.until(15_000, () -> page.findView(TimelineView.ID) instanceof TimelineView t
                && trace.toString().equals(t.getContentDescription())), "the click showed the trace in the Timeline: "
                + (timeline == null ? "no view" : timeline.getContentDescription()));
    }
}
