package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.ToolBar;
import org.eclipse.swt.widgets.ToolItem;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.ide.IDE;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.CpuRun;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, defect 6 and Deliver 4: the Host IR perspective as it opens, at 1280 x 800 and 1600 x 1000, nothing
 * maximized: pass names whole, each pane of the side-by-side diff at least a third of the Lowering view's width,
 * the timeline's rows clear of its summary and the whole run fitted again after the window is resized and the
 * view maximized and restored, no toolbar label cut, no large unpainted region in the graph; a screenshot of each.
 */
public class LayoutJourneyTest {
    @Test
    public void theDefaultLayoutWorksAt1280x800() throws Exception { check(1280, 800); }

    @Test
    public void theDefaultLayoutWorksAt1600x1000() throws Exception { check(1600, 1000); }

    private static void check(int width, int height) throws Exception {
        IWorkbenchPage page = ViewTestSupport.page();
        Shell shell = page.getWorkbenchWindow().getShell();
        Person person = Person.onCurrentDisplay();
        page.closeAllEditors(false);
        page.setPerspective(PlatformUI.getWorkbench().getPerspectiveRegistry()
                .findPerspectiveWithId("org.hostir.studio.ui.studio.perspective"));
        page.resetPerspective();
        shell.setBounds(0, 0, width, height);
        person.lookAt(shell);
        IFile file = ViewTestSupport.copyToWorkspace("layout", "examples/seeds/ag_matmul_p2p.fusion", "ag_matmul_p2p.fusion");
        FusionEditor editor = (FusionEditor) IDE.openEditor(page, file, FusionEditor.ID);
        person.settle(300);
        ViewTestSupport.join(LoweringView.JOB_FAMILY);
        LoweringView lowering = (LoweringView) page.showView(LoweringView.ID);
        ViewTestSupport.join(LoweringView.JOB_FAMILY);
        ShownLowering.of(lowering).selectPass("StreamParallelType");
        person.settle(500);
        String size = width + "x" + height;

        // pass names whole: the name column holds the longest, and the list shows the column
        Table passes = (Table) ShownLowering.of(lowering).passList();
        GC gc = new GC(passes);
        int longest = gc.textExtent("\u25cf ConvertToCommunication").x;
        gc.dispose();
        assertTrue(passes.getColumn(0).getWidth() >= longest, size + ": name column " + passes.getColumn(0).getWidth()
                + " < " + longest);
        assertTrue(passes.getClientArea().width >= passes.getColumn(0).getWidth(), size + ": the list shows the"
                + " names: " + passes.getClientArea().width);
        int viewWidth = ShownLowering.of(lowering).passList().getParent().getSize().x;
        int diffWidth = ShownLowering.of(lowering).diffControl().getSize().x;
        assertTrue(diffWidth * 3 >= viewWidth, size + ": diff " + diffWidth + " of " + viewWidth);
        // each of the side-by-side panes (BEFORE, AFTER) a third of the view's width (Deliver 4)
        var panes = ViewTestSupport.descendants(ShownLowering.of(lowering).diffControl(), StyledText.class).stream()
                .filter(t -> t.isVisible() && t.getSize().x > 20).toList();
        assertTrue(panes.size() >= 2, size + ": the diff shows two panes: " + panes.size());
        for (StyledText pane : panes) {
            assertTrue(pane.getSize().x * 3 >= viewWidth, size + ": a diff pane " + pane.getSize().x + " px of "
                    + viewWidth + " (panes " + panes.stream().map(t -> t.getSize().x).toList() + ", pass list "
                    + passes.getSize().x + ", diff " + diffWidth + ")");
        }
        assertToolbarsWhole(shell, size);
        File shot = ViewTestSupport.screenshot(shell, "studio-" + size + ".png");
        if (shot != null) {
            Control graph = ShownGraph.of(editor).getControl();
            var at = Screens.inShot(shell, graph);
            double flat = Screens.largestFlatBlock(shot, at.x, at.y, graph.getSize().x, graph.getSize().y,
                    shell.getDisplay().getSystemColor(SWT.COLOR_WIDGET_BACKGROUND).getRGB());
            assertTrue(flat < 0.1, size + ": an unpainted block of " + flat + " of the graph");
        }

        // the timeline's rows clear of its summary
        String source = Files.readString(ViewTestSupport.repoFile("examples/seeds/ag_matmul_p2p.fusion"));
        var ran = (CpuRun.Outcome.Ran) CpuRun.run(source, "ag_matmul_p2p.fusion", 2, LoweringOptions.DEFAULTS, s -> { });
        TimelineView timeline = TimelineView.show(ran.result().timeline(), "ag_matmul_p2p", file);
        person.settle(500);
        int canvasHeight = timeline.canvas().control().getSize().y;
        assertTrue(canvasHeight >= timeline.canvas().preferredHeight() - 24, size + ": rows " + canvasHeight
                + " px high for " + timeline.canvas().preferredHeight());
        assertWholeRun(timeline, size + " as opened");
        assertToolbarsWhole(shell, size);
        ViewTestSupport.screenshot(shell, "studio-timeline-" + size + ".png");

        // the timeline refits when the window is resized and when the view is maximized and restored
        shell.setBounds(0, 0, width - 160, height - 100);
        person.settle(400);
        assertWholeRun(timeline, size + " shrunk by 160 x 100");
        shell.setBounds(0, 0, width, height);
        person.settle(400);
        assertWholeRun(timeline, size + " back");
        var ref = page.findViewReference(TimelineView.ID);
        page.setPartState(ref, IWorkbenchPage.STATE_MAXIMIZED);
        person.settle(400);
        assertWholeRun(timeline, size + " maximized");
        page.setPartState(ref, IWorkbenchPage.STATE_RESTORED);
        person.settle(400);
        assertWholeRun(timeline, size + " restored");
        page.closeAllEditors(false);
    }

    /** The timeline's window holds the whole run and the run spans most of it (fitted to the canvas's width). */
    private static void assertWholeRun(TimelineView timeline, String when) {
        var canvas = timeline.canvas();
        int bars = canvas.control().getClientArea().width - 150;
        double from = canvas.viewStartNs(), to = from + bars * canvas.nsPerPixel();
        long start = canvas.rows().startNs(), end = canvas.rows().endNs();
        assertTrue(from <= start && to >= end, when + ": the whole run [" + start + ", " + end + "] in the window ["
                + from + ", " + to + "]");
        assertTrue((end - start) >= 0.9 * (to - from), when + ": the run fills the window's width: " + (end - start)
                + " of " + (to - from) + " ns");
    }

    /** Every visible toolbar with text items lies inside its parent, and so does each of its items. */
    private static void assertToolbarsWhole(Shell shell, String size) {
        for (ToolBar bar : ViewTestSupport.descendants(shell, ToolBar.class)) {
            if (!bar.isVisible() || bar.getItemCount() == 0) continue;
            Rectangle area = bar.getClientArea();
            for (ToolItem item : bar.getItems()) {
                if (item.getText() == null || item.getText().isBlank()) continue;
                Rectangle b = item.getBounds();
                assertTrue(b.x + b.width <= area.width + 1, size + ": \"" + item.getText() + "\" cut by its toolbar");
                var p = bar.toDisplay(b.x + b.width - 1, b.y);
                Rectangle parent = bar.getParent().getBounds();
                var parentAt = bar.getParent().getParent() == null ? new org.eclipse.swt.graphics.Point(0, 0)
                        : bar.getParent().getParent().toDisplay(parent.x, parent.y);
                assertTrue(p.x < parentAt.x + parent.width + 1, size + ": \"" + item.getText() + "\" outside "
                        + bar.getParent());
                assertNotNull(item.getText());
            }
        }
    }
}
