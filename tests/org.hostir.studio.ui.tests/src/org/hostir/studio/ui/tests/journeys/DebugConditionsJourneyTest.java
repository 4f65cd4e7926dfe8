package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.debug.core.model.IBreakpoint;
import org.eclipse.debug.core.model.IStackFrame;
import org.eclipse.debug.core.model.IThread;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.debug.ui.IDebugView;
import org.eclipse.jface.dialogs.DialogPage;
import org.eclipse.jface.preference.PreferenceDialog;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.ide.IDE;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.exec.debug.StopText;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.ui.debug.NodeBreakpoint;
import org.hostir.studio.ui.debug.RunTarget;
import org.hostir.studio.ui.debug.TensorValuesView;
import org.hostir.studio.ui.debug.ToggleNodeBreakpoint;
import org.hostir.studio.ui.launch.HostIrLaunchShortcut;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.WorkbenchSmokeTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A breakpoint's conditions set in the IDE, and a tensor opened whole: seed 000's recv breakpoint given rank 1 and
 * iteration 0 on its properties page (Alt+Enter in the Breakpoints view; a rank that is not a number refused on
 * the page), Debug As holds rank 1 alone there; rank 1's T0 clicked in the Variables view shows in the Tensor
 * Values view as a table and heat map, then as its difference from the reference (zero: an input); its output T2,
 * not computed yet, has no difference but "not written yet".
 */
public class DebugConditionsJourneyTest extends JourneyTest {
    @AfterEach
    public void cleanUp() throws Exception {
        Debugging.cleanUp();
        journey.hide(IDebugUIConstants.ID_BREAKPOINT_VIEW);
        journey.hide(IDebugUIConstants.ID_DEBUG_VIEW);
        journey.hide(IDebugUIConstants.ID_VARIABLE_VIEW);
        journey.hide(TensorValuesView.ID);
    }

    @Test
    public void rankAndIterationFromThePropertiesPageThenATensorAsTableAndHeatMap() throws Exception {
        Debugging.neverSwitchPerspective();
        IFile file = ViewTestSupport.copyToWorkspace("debug-conditions", "examples/seeds/ag_matmul_p2p.fusion",
                "seed000c.fusion");
        IDE.openEditor(page, file, "org.eclipse.ui.DefaultTextEditor");
        int recv = recvNode(file);
        ToggleNodeBreakpoint.toggle(file, recv, "P2PCommunication " + recv); // Ctrl+Shift+B: DebugJourneyTest
        NodeBreakpoint bp = Debugging.breakpoints().getFirst();

        IDebugView breakpoints = journey.show(IDebugUIConstants.ID_BREAKPOINT_VIEW);
        person.settle(500);
        Tree listed = (Tree) breakpoints.getViewer().getControl();
        // the view labels its rows in the background
        Debugging.await(person, 5_000, () -> Debugging.rowOf(listed, bp) != null
                && !Debugging.rowOf(listed, bp).getText().isEmpty());
        TreeItem row = Debugging.rowOf(listed, bp);
        assertNotNull(row, "the Breakpoints view lists the breakpoint");
        assertEquals("P2PCommunication " + recv, row.getText());
        Shell dialog = Debugging.openBreakpointProperties(breakpoints, person, bp);
        Text rank = Debugging.fieldAfter(dialog, "&Rank (empty: every rank):");
        Text iteration = Debugging.fieldAfter(dialog, "&Iteration of its innermost loop (empty: every iteration):");
        person.click(rank, 5, rank.getSize().y / 2);
        person.type("x", 20);
        person.settle(200);
        Button ok = Debugging.okButton(dialog);
        assertFalse(ok.isEnabled(), "a rank that is not a number is refused");
        String refusal = "the rank 'x' is not a number from 0 (empty: every rank)";
        assertEquals(refusal, ((DialogPage) ((PreferenceDialog) dialog.getData()).getSelectedPage()).getErrorMessage());
        assertTrue(shownText(dialog).contains(refusal), "the dialog shows why: " + shownText(dialog));
        person.press(SWT.CTRL, 'a');
        person.type("1", 20);
        person.click(iteration, 5, iteration.getSize().y / 2);
        person.type("0", 20);
        person.settle(200);
        assertTrue(ok.isEnabled());
        WorkbenchSmokeTest.screenshot(dialog, "debug-breakpoint-conditions.png");
        person.clickCenter(ok);
        person.settle(500);
        assertTrue(dialog.isDisposed(), "the dialog closed");
        assertEquals(1, bp.rank());
        assertEquals(0, bp.iteration());
        assertTrue(bp.isEnabled(), "the clicks in the Breakpoints view left the breakpoint enabled");
        assertEquals("P2PCommunication " + recv + " @ rank 1, iteration 0", bp.label());
        assertTrue(Debugging.await(person, 5_000, () -> ("P2PCommunication " + recv + " @ rank 1, iteration 0")
                .equals(Debugging.rowOf((Tree) breakpoints.getViewer().getControl(), bp).getText())), "the row's label");

        var config = HostIrLaunchShortcut.configurationFor(file);
        String settings = org.hostir.studio.ui.launch.LaunchAttributes.read(config).toString();
        DebugUITools.launch(config, "debug");
        RunTarget run = Debugging.awaitTarget(person);
        assertTrue(Debugging.await(person, 60_000, () -> run.getThreads().length == 2
                && run.getThreads()[1].isSuspended()), () -> run.getName() + "; the configuration's settings "
                + settings + "; node breakpoints "
                + Debugging.breakpoints().stream().map(n -> n.label() + " on " + n.getMarker().getResource()
                        + " " + n.toEngine() + (n.getMarker().getAttribute(IBreakpoint.ENABLED, false) ? ""
                        : " (disabled)")).toList() + "; the session's breakpoints " + run.session().breakpoints()
                + "; its last stop " + run.lastStop() + "; the recv node of the default lowering " + recv);
        IThread rank0 = run.getThreads()[0];
        IThread rank1 = run.getThreads()[1];
        assertFalse(rank0.isSuspended(), "rank 0 is not held: " + rank0.getName());
        assertEquals("rank 1: suspended at P2PCommunication " + recv + " (breakpoint)", rank1.getName());
        assertTrue(rank1.getStackFrames()[1].getName().endsWith("StreamIdx = 0 of [0, 2)"),
                rank1.getStackFrames()[1].getName());

        showTensorValues(run, rank1);
    }

    /**
     * Rank 1's T0 as values, then as its difference from the reference, then T2 (not written yet), from clicks in
     * the Variables view.
     */
    private void showTensorValues(RunTarget run, IThread rank1) throws Exception {
        TensorValuesView values = journey.show(TensorValuesView.ID);
        IDebugView debug = journey.show(IDebugUIConstants.ID_DEBUG_VIEW);
        IDebugView variables = journey.show(IDebugUIConstants.ID_VARIABLE_VIEW);
        page.activate(debug);
        Debugging.assertShowsFrames(debug, person, rank1);
        person.settle(500);
        Debugging.select(debug, person, Debugging.pathTo(run, rank1));
        clickVariable(variables, "T0 'tv0'");
        page.activate(values); // its tab, in the same stack as the Variables view
        person.settle(300);
        assertTrue(values.getContentDescription().startsWith("T0 'tv0' on rank 1 at stop "),
                values.getContentDescription());
        DenseTensor t0 = run.session().values(1, 0).orElseThrow();
        assertEquals(8, values.rows());
        assertEquals(4, values.columns());
        double[] v = t0.toDoubleArray();
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 4; j++) {
                assertEquals(StopText.number(v[i * 4 + j]), values.table().getItem(i).getText(j + 1),
                        "cell " + i + ", " + j);
            }
        }

        Button difference = ViewTestSupport.descendants(values.table().getShell(), Button.class).stream()
                .filter(x -> x.getText().equals("&Difference from reference")).findFirst().orElseThrow();
        person.clickCenter(difference);
        person.settle(300);
        assertTrue(values.showsDifference());
        double[] ref = run.session().referenceValues(1, 0).orElseThrow().toDoubleArray();
        double[] cells = values.cells();
        assertEquals(32, cells.length, "T0 [1, 8, 4]: 8 rows of 4");
        for (int k = 0; k < cells.length; k++) {
            assertEquals(v[k] - ref[k], cells[k], 0.0, "cell " + k);
            assertEquals(new RGB(255, 255, 255), values.heatColor(cells[k]), "an input equals its reference shard");
        }
        assertTrue(values.getContentDescription().contains("minus the reference"), values.getContentDescription());
        WorkbenchSmokeTest.screenshot(journey.shell(), "debug-tensor-values.png");

        // T2, allocated but not computed yet on rank 1: no difference (its zeros are no wrong value), as the
        // Variables view says
        clickVariable(variables, "T2 'tv2'");
        page.activate(values);
        person.settle(300);
        assertTrue(values.showsDifference());
        assertFalse(run.session().written(1, 2));
        assertEquals(0, values.rows(), "no difference table for a tensor nothing has written");
        assertEquals(0, values.table().getItemCount());
        assertTrue(values.getContentDescription().startsWith("T2 'tv2' on rank 1 at stop ")
                && values.getContentDescription().endsWith(": not written yet, nothing to compare"),
                values.getContentDescription());
        WorkbenchSmokeTest.screenshot(journey.shell(), "debug-tensor-values-not-written.png");
        Button plain = ViewTestSupport.descendants(values.table().getShell(), Button.class).stream()
                .filter(x -> x.getText().equals("&Values")).findFirst().orElseThrow();
        person.clickCenter(plain); // leave the view as it was found
    }

    /** Clicks the Variables view's row whose name is {@code name}. */
    private void clickVariable(IDebugView variables, String name) {
        page.activate(variables); // brings its tab to the top: the view fills its rows only when shown
        Tree tree = (Tree) variables.getViewer().getControl();
        if (!Debugging.await(person, 10_000, () -> named(tree.getItems(), name) != null)) {
            WorkbenchSmokeTest.screenshot(journey.shell(), "debug-variables-missing.png");
            List<String> rows = new ArrayList<>();
            for (TreeItem i : tree.getItems()) rows.add(i.getText(0));
            throw new AssertionError("the Variables view shows no " + name + ": " + rows);
        }
        TreeItem item = named(tree.getItems(), name);
        Rectangle b = item.getBounds(0);
        person.click(tree, b.x + Math.min(20, b.width / 2), b.y + b.height / 2);
        person.settle(500);
    }

    private static TreeItem named(TreeItem[] items, String name) {
        // the name column, or "name= value" when the view shows one column
        for (TreeItem i : items) if (name.equals(i.getText(0)) || i.getText(0).startsWith(name + "= ")) return i;
        return null;
    }

    private static int recvNode(IFile file) throws Exception {
        var loaded = Engine.load(new FusionSource.File(Path.of(file.getLocation().toOSString()),
                file.getFullPath().toString()), 2, Map.of());
        return Engine.lowerRank(loaded, LoweringOptions.DEFAULTS, 0).allNodes().stream()
                .filter(n -> n instanceof P2PCommunication p && p.type() == P2PCommunication.Type.RECV)
                .findFirst().orElseThrow().id();
    }

    /** Every text the dialog shows in labels and read-only texts (its message line among them). */
    private static String shownText(Shell dialog) {
        StringBuilder s = new StringBuilder();
        for (Label l : ViewTestSupport.descendants(dialog, Label.class)) s.append(l.getText()).append('\n');
        for (Text t : ViewTestSupport.descendants(dialog, Text.class)) s.append(t.getText()).append('\n');
        for (var c : ViewTestSupport.descendants(dialog, org.eclipse.swt.custom.CLabel.class)) {
            s.append(c.getText()).append('\n');
        }
        return s.toString();
    }
}
