package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.debug.core.model.IThread;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.debug.ui.IDebugView;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchPartReference;
import org.eclipse.ui.ide.IDE;
import org.hostir.studio.ui.debug.NodeBreakpoint;
import org.hostir.studio.ui.debug.NodeBreakpointPage;
import org.hostir.studio.ui.debug.RunTarget;
import org.hostir.studio.ui.launch.HostIrLaunchShortcut;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.PassInspector;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.WorkbenchSmokeTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 37: a breakpoint from the Lowering view's program text and a communication breakpoint that stops its whole
 * team. seeds/allgather's final program (the last pass's AFTER pane): a double click in the ruler beside the
 * Allgather's line toggles a node breakpoint on the fusion file, drawn there (again: off, and on once more); on its
 * properties page rank 1, iteration 0 and "Stop the whole team"; Debug As holds both ranks of the Allgather's team
 * before it in iteration 0 (named for rank 1 alone it holds rank 1 only: DebugConditionsJourneyTest's recv).
 */
public class DebugTeamJourneyTest extends JourneyTest {
    @AfterEach
    public void cleanUp() throws Exception {
        Debugging.cleanUp();
        journey.hide(IDebugUIConstants.ID_BREAKPOINT_VIEW);
        journey.hide(IDebugUIConstants.ID_DEBUG_VIEW);
    }

    @Test
    public void rulerBreakpointInTheLoweringViewThenTheAllgathersWholeTeamHeld() throws Exception {
        Debugging.neverSwitchPerspective();
        IFile file = ViewTestSupport.copyToWorkspace("debug-team", "examples/seeds/allgather.fusion", "team.fusion");
        IDE.openEditor(page, file, "org.eclipse.ui.DefaultTextEditor");
        LoweringView view = journey.show(LoweringView.ID);
        journey.waitForLowering();
        PassInspector inspector = view.getAdapter(PassInspector.class);
        Table passes = (Table) inspector.passList();
        passes.showItem(passes.getItem(passes.getItemCount() - 1));   // scrolled to the end, as a person would
        person.settle(300);
        Rectangle last = passes.getItem(passes.getItemCount() - 1).getBounds();
        person.click(passes, last.x + 20, last.y + last.height / 2);   // the last pass: AFTER is the final program
        person.settle(800);
        String lastPass = inspector.visibleEntries().getLast().step().pass();
        assertEquals(lastPass, inspector.selectedPass(), "the click chose the last pass");
        int line = lineStarting(inspector.programText(), "Communication ");
        int node = Integer.parseInt(inspector.programText().getLine(line - 1).strip().split("[ (]")[1]);

        doubleClickRuler(inspector, line);
        NodeBreakpoint bp = Debugging.breakpoints().stream().findFirst()
                .orElseThrow(() -> new AssertionError("no breakpoint after a double click beside line " + line));
        assertEquals(node, bp.nodeId());
        assertEquals(file, bp.getMarker().getResource());
        assertEquals("Communication " + node, bp.label());
        assertTrue(Debugging.await(person, 5_000, () -> inspector.breakpointLines().equals(List.of(line))),
                "the ruler draws it beside the Allgather: " + inspector.breakpointLines());
        // the picture with the view maximized (restored after it), so that the AFTER pane shows the program
        IWorkbenchPartReference lowering = page.getReference(view);
        page.setPartState(lowering, IWorkbenchPage.STATE_MAXIMIZED);
        person.settle(500);
        inspector.programText().setTopIndex(Math.max(0, line - 8));
        person.settle(300);
        WorkbenchSmokeTest.screenshot(journey.shell(), "debug-lowering-ruler-breakpoint.png");
        page.setPartState(lowering, IWorkbenchPage.STATE_RESTORED);
        person.settle(500);
        doubleClickRuler(inspector, line);
        assertTrue(Debugging.breakpoints().isEmpty(), "a second double click removes it");
        assertTrue(Debugging.await(person, 5_000, () -> inspector.breakpointLines().isEmpty()),
                "and the ruler no longer draws it: " + inspector.breakpointLines());
        doubleClickRuler(inspector, line);
        NodeBreakpoint allgather = Debugging.breakpoints().getFirst();

        wholeTeamOnItsPropertiesPage(allgather);
        assertEquals("Communication " + node + " @ rank 1, iteration 0, whole team", allgather.label());

        DebugUITools.launch(HostIrLaunchShortcut.configurationFor(file), "debug");
        RunTarget run = Debugging.awaitTarget(person);
        assertTrue(Debugging.await(person, 60_000, () -> run.getThreads().length == 2
                && java.util.Arrays.stream(run.getThreads()).allMatch(IThread::isSuspended)), run.getName());
        for (IThread t : run.getThreads()) {
            assertTrue(t.getName().endsWith(": suspended at Communication " + node + " (breakpoint)"), t.getName());
            assertTrue(t.getStackFrames()[1].getName().contains("StreamIdx = 0 of "), t.getStackFrames()[1].getName());
        }
        assertTrue(run.lastStop().waits().edges().isEmpty(), "nobody waits in the collective: " + run.waits());
        // the Debug view's rows of each rank's frames are DebugJourneyTest's: here only the picture of the stop
        journey.show(IDebugUIConstants.ID_DEBUG_VIEW);
        person.settle(1_000);
        WorkbenchSmokeTest.screenshot(journey.shell(), "debug-team-held.png");
    }

    /** Alt+Enter on its row in the Breakpoints view: rank 1, iteration 0, the whole team ticked, OK. */
    private void wholeTeamOnItsPropertiesPage(NodeBreakpoint bp) throws Exception {
        IDebugView breakpoints = journey.show(IDebugUIConstants.ID_BREAKPOINT_VIEW);
        person.settle(500);
        Shell dialog = Debugging.openBreakpointProperties(breakpoints, person, bp);
        Text rank = Debugging.fieldAfter(dialog, "&Rank (empty: every rank):");
        Text iteration = Debugging.fieldAfter(dialog, "&Iteration of its innermost loop (empty: every iteration):");
        person.click(rank, 5, rank.getSize().y / 2);
        person.type("1", 20);
        person.click(iteration, 5, iteration.getSize().y / 2);
        person.type("0", 20);
        Button team = ViewTestSupport.descendants(dialog, Button.class).stream()
                .filter(x -> NodeBreakpointPage.TEAM_LABEL.equals(x.getText())).findFirst()
                .orElseThrow(() -> new AssertionError("no whole-team option on the page"));
        person.clickCenter(team);
        person.settle(200);
        assertTrue(team.getSelection(), "the option is ticked");
        WorkbenchSmokeTest.screenshot(dialog, "debug-breakpoint-whole-team.png");
        person.clickCenter(Debugging.okButton(dialog));
        person.settle(500);
        assertTrue(dialog.isDisposed(), "the dialog closed");
        assertTrue(bp.team(), "the breakpoint stops the whole team");
        assertEquals(1, bp.rank());
        assertEquals(0, bp.iteration());
    }

    /** The 1-based line of the pane whose text starts with {@code start} (after its indentation). */
    private static int lineStarting(StyledText text, String start) {
        for (int i = 0; i < text.getLineCount(); i++) if (text.getLine(i).strip().startsWith(start)) return i + 1;
        throw new AssertionError("no line starts with " + start + " in\n" + text.getText());
    }

    /** A person's double click in the AFTER pane's ruler, beside 1-based {@code line}. */
    private void doubleClickRuler(PassInspector inspector, int line) {
        StyledText text = inspector.programText();
        // the line at the top of the pane, as a person scrolls to it: the pane can be a few lines high when the
        // Lowering view shares the window (its options take rows of their own)
        text.setTopIndex(Math.max(0, line - 1));
        person.settle(200);
        Control ruler = inspector.breakpointRulerControl();
        int y = text.getLinePixel(line - 1) + text.getLineHeight() / 2;
        Point at = ruler.toControl(text.toDisplay(0, y));
        if (at.y < 0 || at.y >= ruler.getSize().y) {
            throw new AssertionError("line " + line + " is not in sight beside the ruler (y " + at.y + " of "
                    + ruler.getSize().y + " px)");
        }
        person.doubleClick(ruler, Math.max(2, ruler.getSize().x / 2), at.y);
        person.settle(500);
    }
}
