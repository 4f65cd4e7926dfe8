package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.model.IStackFrame;
import org.eclipse.debug.core.model.IThread;
import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.debug.ui.IDebugView;
import org.eclipse.jface.text.ITextViewer;
import org.eclipse.jface.text.Position;
import org.eclipse.jface.text.source.Annotation;
import org.eclipse.jface.text.source.IAnnotationModel;
import org.eclipse.jface.text.source.IVerticalRulerInfo;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.custom.CTabItem;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.ui.ide.IDE;
import org.eclipse.ui.texteditor.ITextEditor;
import org.eclipse.jface.text.ITextOperationTarget;
import org.hostir.studio.ui.debug.HostIrDumpEditor;
import org.hostir.studio.ui.debug.NodeBreakpoint;
import org.hostir.studio.ui.debug.RunTarget;
import org.hostir.studio.ui.debug.WaitGraphView;
import org.hostir.studio.ui.launch.HostIrLaunchShortcut;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.WorkbenchSmokeTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 37's second journey: {@code communication/send_recv_swapped}'s exchange with both sends before the receives
 * and outside a group (examples/debug/send_recv_swapped_sends_first.txt), which NCCL would hang on. A breakpoint
 * by a double click in the Host IR Dump Editor's ruler on the send's line; in Run > Debug Configurations... the
 * person sets the dump as the configuration's Program (Main tab: a missing file and a file that is no dump are
 * refused in the dialog first; Browse... chooses it) and presses Debug;
 * both ranks held at the send, F6 on the run steps the group (both ranks in one stop), F8 on the run, and the run
 * stops at the deadlock: each rank shown suspended at the send it is blocked in, the run's label and the
 * Wait-for Graph view naming the cycle by its nodes; Ctrl+F2 ends it.
 */
public class DebugDeadlockJourneyTest extends JourneyTest {
    private static final String CYCLE = "deadlock: rank 0 (P2PCommunication 3) -> rank 1 (P2PCommunication 3) -> rank 0";

    @AfterEach
    public void cleanUp() throws Exception {
        Debugging.cleanUp();
        journey.hide(IDebugUIConstants.ID_DEBUG_VIEW);
        journey.hide(WaitGraphView.ID);
    }

    @Test
    public void rulerBreakpointGroupStepThenTheDeadlockNamedInTheWaitForGraph() throws Exception {
        Debugging.neverSwitchPerspective();
        IFile fusion = ViewTestSupport.copyToWorkspace("debug-deadlock", "examples/communication/send_recv_swapped.fusion",
                "send_recv_swapped.fusion");
        IFile dump = ViewTestSupport.copyToWorkspace("debug-deadlock",
                "examples/debug/send_recv_swapped_sends_first.txt", "sends_first.txt");
        ITextEditor editor = (ITextEditor) IDE.openEditor(page, dump, HostIrDumpEditor.ID);
        person.settle(500);

        doubleClickRuler(editor, 1); // %HostIrContainer { ...: no node there
        assertTrue(Debugging.breakpoints().isEmpty(), "the container's first line states no node");
        doubleClickRuler(editor, 3); // P2PCommunication 3 (type=send, ...)
        NodeBreakpoint bp = Debugging.breakpoints().stream().findFirst()
                .orElseThrow(() -> new AssertionError("no breakpoint after a double click on the send's line"));
        assertEquals(3, bp.nodeId());
        assertEquals(3, bp.getLineNumber());
        assertEquals(dump, bp.getMarker().getResource());
        assertEquals("P2PCommunication 3 [line 3 of sends_first.txt]", bp.label());
        assertEquals(List.of(3), breakpointLinesDrawn(editor), "the ruler draws the breakpoint at the send's line");
        WorkbenchSmokeTest.screenshot(journey.shell(), "debug-dump-ruler-breakpoint.png");

        // the file's configuration (as Debug As makes it); the person sets its Program in Run > Debug Configurations...
        ILaunchConfiguration config = HostIrLaunchShortcut.configurationFor(fusion);
        debugWithTheDumpAsProgram(config.getName(), fusion, dump);
        assertEquals(dump.getFullPath().toString(), config.getAttribute(LaunchAttributes.PROGRAM, ""),
                "the dialog saved the Program");
        RunTarget run = Debugging.awaitTarget(person);
        assertTrue(Debugging.await(person, 60_000, () -> run.getThreads().length == 2
                && java.util.Arrays.stream(run.getThreads()).allMatch(IThread::isSuspended)), run.getName());
        for (IThread t : run.getThreads()) {
            assertTrue(t.getName().endsWith(": suspended at P2PCommunication 3 (breakpoint)"), t.getName());
        }

        // F6 on the run: both ranks step over their send together, one stop
        IDebugView debug = journey.show(IDebugUIConstants.ID_DEBUG_VIEW);
        int before = run.lastStop().number();
        page.activate(debug);
        Debugging.selectRun(debug, person, run);
        Debugging.pressFor(person, Debugging.STEP_OVER, () -> person.press(SWT.F6));
        Debugging.awaitStopAfter(person, run, before, "F6 on the run");
        assertEquals(before + 1, run.lastStop().number(), "one stop for the whole group");
        for (IThread t : run.getThreads()) {
            assertTrue(t.getName().startsWith("rank ") && t.getName().contains(": suspended at Wait 6 (step)"),
                    t.getName());
        }

        // F8 on the run: every rank resumes, posts its recv, and nothing can move any more
        before = run.lastStop().number();
        Debugging.selectRun(debug, person, run);
        Debugging.pressFor(person, Debugging.RESUME, () -> person.press(SWT.F8));
        Debugging.awaitStopAfter(person, run, before, "F8 on the run");
        assertTrue(run.lastStop().stuck(), "the run is stuck: " + run.getName());
        assertTrue(run.getName().endsWith(" \u2014 " + CYCLE), run.getName());
        for (int r = 0; r < 2; r++) {
            IThread rank = run.getThreads()[r];
            assertTrue(rank.isSuspended() && !rank.canResume() && !rank.canStepOver(), rank.getName());
            IStackFrame[] frames = rank.getStackFrames();
            assertEquals(1, frames.length, "one blocked stream of rank " + r);
            assertTrue(frames[0].getName().startsWith("P2PCommunication 3 (type=send"), frames[0].getName());
            assertTrue(frames[0].getName().endsWith("blocked: stream 0: send to " + (1 - r) + " (node 3), waits for rank "
                    + (1 - r)), frames[0].getName());
            Debugging.select(debug, person, Debugging.pathTo(run, rank));
            Debugging.assertShowsFrames(debug, person, rank);
        }
        assertTrue(Debugging.shownLabel(debug, run).endsWith(CYCLE), Debugging.shownLabel(debug, run));

        WaitGraphView graph = journey.show(WaitGraphView.ID);
        person.settle(500);
        assertEquals(CYCLE, graph.title());
        assertEquals(List.of(new WaitGraphView.Arrow(0, 1, "P2PCommunication 3", true),
                new WaitGraphView.Arrow(1, 0, "P2PCommunication 3", true)), graph.arrows());
        assertEquals(List.of("rank 0 -> rank 1: P2PCommunication 3, send to 1 (node 3), 16 B, tag 0",
                "rank 1 -> rank 0: P2PCommunication 3, send to 0 (node 3), 16 B, tag 0", CYCLE), graph.lines());
        assertEquals(CYCLE, graph.getContentDescription());
        WorkbenchSmokeTest.screenshot(journey.shell(), "debug-deadlock.png");

        // Ctrl+F2 (Terminate) on the run ends it; the graph follows
        page.activate(debug);
        Debugging.selectRun(debug, person, run);
        Debugging.pressFor(person, Debugging.TERMINATE, () -> person.press(SWT.CTRL, (char) 0, SWT.F2));
        assertTrue(Debugging.await(person, 30_000, run::isTerminated), run.getName());
        assertEquals("Host IR run of send_recv_swapped.fusion (2 ranks): terminated", run.getName());
        assertTrue(Debugging.await(person, 5_000, () -> graph.arrows().isEmpty()), graph.arrows().toString());
        assertFalse(graph.title().contains("deadlock"), graph.title());
    }

    /**
     * Run > Debug Configurations... (Alt+R, then B, the item's mnemonic): in the dialog the person picks the file's
     * configuration through the filter, types a missing file and then the fusion itself as the Main tab's Program
     * (each refused in the dialog's message, Debug disabled), chooses the dump with the Program's Browse... and
     * presses Debug.
     */
    private void debugWithTheDumpAsProgram(String configuration, IFile fusion, IFile dump) throws Exception {
        RunConfigurationsDialog.openByKeys(journey, "Debug Configurations", 'b', d -> {
            pickConfiguration(d, configuration);
            Text program = visible(d, Text.class, t -> t.getToolTipText() != null
                    && t.getToolTipText().startsWith("workspace path of a Host IR dump"));
            typeInto(program, "/debug-deadlock/none.txt");
            assertShows(d, "Program: no such file in the workspace: /debug-deadlock/none.txt");
            assertFalse(button(d, "Debug").isEnabled(), "Debug is refused while the Program is missing");
            typeInto(program, fusion.getFullPath().toString());
            assertShows(d, "Program: " + fusion.getFullPath() + " is not a Host IR dump: no %HostIrContainer in the"
                    + " text: not an NVFUSER_DUMP=host_ir dump or log");
            WorkbenchSmokeTest.screenshot(d, "debug-configurations-program-refused.png");
            typeInto(program, "");
            ModalSteps browse = ModalSteps.whenOpen("Choose a Host IR dump", 60, b -> {
                // X gives the keys to the dialog once it is active: without this they went nowhere (5 s a key, and the
                // dialog's own pattern, *.txt, found the dump)
                person.lookAt(b);
                Text pattern = visible(b, Text.class, t -> true);   // the first field: the name pattern
                person.type("sends_first", 30);
                assertTrue(Debugging.await(person, 5_000, () -> pattern.getText().equals("sends_first")),
                        "the typed name replaces the pattern: " + pattern.getText());
                Table found = visible(b, Table.class, t -> true);
                assertTrue(Debugging.await(person, 20_000, () -> found.getItemCount() > 0
                        && found.getItem(0).getText().startsWith("sends_first.txt")), "Browse... finds the dump");
                person.press(SWT.CR);
            });
            person.clickCenter(buttonBeside(program, "Browse..."));
            browse.check(person);
            assertEquals(dump.getFullPath().toString(), program.getText(), "Browse... chose the dump");
            assertTrue(Debugging.await(person, 5_000, () -> button(d, "Debug").isEnabled()), "Debug with the dump");
            WorkbenchSmokeTest.screenshot(d, "debug-configurations-program.png");
            person.clickCenter(button(d, "Debug"));
        });
    }

    /** Filters the dialog's tree by the configuration's name, clicks its row and then the Main tab. */
    private void pickConfiguration(Shell d, String configuration) {
        Text filter = visible(d, Text.class, t -> "type filter text".equals(t.getMessage()));
        person.focusByClick(filter);
        person.type(configuration, 30);
        person.settle(1_500);   // the filter applies after a pause in the typing
        Tree tree = visible(d, Tree.class, t -> true);
        TreeItem[] row = new TreeItem[1];
        assertTrue(Debugging.await(person, 10_000, () -> (row[0] = item(tree.getItems(), configuration)) != null),
                "the dialog lists " + configuration);
        var r = row[0].getBounds();
        person.click(tree, r.x + Math.min(30, r.width / 2), r.y + r.height / 2);
        assertTrue(Debugging.await(person, 10_000, () -> tree.getSelectionCount() == 1
                && tree.getSelection()[0].getText().equals(configuration)), "the click selected " + configuration);
        java.util.function.Predicate<CTabFolder> hasMain = t -> java.util.Arrays.stream(t.getItems())
                .anyMatch(i -> i.getText().replace("&", "").equals("Main"));
        assertTrue(Debugging.await(person, 10_000, () -> ViewTestSupport.descendants(d, CTabFolder.class).stream()
                .anyMatch(t -> t.isVisible() && hasMain.test(t))), "the configuration's tabs show");
        CTabFolder tabs = visible(d, CTabFolder.class, hasMain);
        CTabItem main = java.util.Arrays.stream(tabs.getItems()).filter(i -> i.getText().replace("&", "").equals("Main"))
                .findFirst().orElseThrow();
        person.clickTab(main, 1);
        person.settle(300);
    }

    /** Replaces the field's text as a person does: a click into it, select all, then the keys. */
    private void typeInto(Text field, String text) {
        person.focusByClick(field);
        person.press(SWT.CTRL, 'a');
        person.press(SWT.BS);
        person.type(text, 20);
        person.settle(300);
        assertEquals(text, field.getText());
    }

    /** The dialog shows {@code message} (its title area's error line), waiting a moment for it. */
    private void assertShows(Shell d, String message) {
        java.util.function.Supplier<List<String>> shown = () -> {
            List<String> texts = new ArrayList<>();
            // the title area sets its message off from the error image with a space
            ViewTestSupport.descendants(d, Text.class).stream().filter(Control::isVisible)
                    .forEach(t -> texts.add(t.getText().strip()));
            ViewTestSupport.descendants(d, Label.class).stream().filter(Control::isVisible)
                    .forEach(l -> texts.add(l.getText().strip()));
            return texts;
        };
        Debugging.await(person, 5_000, () -> shown.get().contains(message));
        assertTrue(shown.get().contains(message), "the dialog shows '" + message + "': " + shown.get());
    }

    private static <T extends Control> T visible(Shell d, Class<T> type, java.util.function.Predicate<T> which) {
        return ViewTestSupport.descendants(d, type).stream().filter(Control::isVisible).filter(which).findFirst()
                .orElseThrow(() -> new AssertionError("no such " + type.getSimpleName() + " in " + d.getText()));
    }

    private static Button button(Shell d, String label) {
        return visible(d, Button.class, b -> b.getText().replace("&", "").equals(label));
    }

    /** The button {@code label} in the row of {@code field} (the tab's grid: label, field, button). */
    private static Button buttonBeside(Text field, String label) {
        Control[] row = field.getParent().getChildren();
        int at = java.util.Arrays.asList(row).indexOf(field);
        if (row[at + 1] instanceof Button b && b.getText().equals(label)) return b;
        throw new AssertionError("no " + label + " beside the field");
    }

    private static TreeItem item(TreeItem[] items, String text) {
        for (TreeItem i : items) {
            if (i.getText().equals(text)) return i;
            TreeItem inner = item(i.getItems(), text);
            if (inner != null) return inner;
        }
        return null;
    }

    /** A person's double click in the editor's ruler, beside 1-based {@code line}. */
    private void doubleClickRuler(ITextEditor editor, int line) {
        IVerticalRulerInfo ruler = editor.getAdapter(IVerticalRulerInfo.class);
        assertNotNull(ruler, "the editor has a vertical ruler");
        StyledText text = ((ITextViewer) editor.getAdapter(ITextOperationTarget.class)).getTextWidget();
        Control column = ruler.getControl();
        int y = text.getLinePixel(line - 1) + text.getLineHeight() / 2;
        Point at = column.toControl(text.toDisplay(0, y));
        person.doubleClick(column, Math.max(2, column.getSize().x / 2), at.y);
        person.settle(500);
        assertEquals(line - 1, ruler.getLineOfLastMouseButtonActivity(), "the double click landed beside line " + line);
    }

    /** The 1-based lines of the breakpoint annotations the editor's ruler draws. */
    private static List<Integer> breakpointLinesDrawn(ITextEditor editor) throws Exception {
        IAnnotationModel model = editor.getDocumentProvider().getAnnotationModel(editor.getEditorInput());
        var document = editor.getDocumentProvider().getDocument(editor.getEditorInput());
        List<Integer> lines = new ArrayList<>();
        for (Iterator<Annotation> it = model.getAnnotationIterator(); it.hasNext(); ) {
            Annotation a = it.next();
            if (!a.getType().startsWith("org.eclipse.debug.core.breakpoint")) continue;
            Position p = model.getPosition(a);
            lines.add(document.getLineOfOffset(p.getOffset()) + 1);
        }
        return lines;
    }
}
