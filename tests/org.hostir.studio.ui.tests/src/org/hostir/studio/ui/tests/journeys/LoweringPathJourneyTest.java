package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IViewPart;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand at 1600 x 1000: with the Lowering view narrower than in the default layout, its Fusion path
 * was cut at its end, the file's name lost (beside the fields it kept 100 px). The person drags the sash right of the
 * Project Explorer 300 px to the right (the view narrows): the path shows shortened in the middle, its start and the
 * file's name whole, within its label, and its tooltip has it whole.
 */
public class LoweringPathJourneyTest {
    /** A path longer than the view is wide: the whole of it cannot show on any row. */
    private static final String FOLDER = "experiments/of/the/allgather/and/matmul/overlap/kept/by/the/team/for/this/"
            + "quarter/and/the/next/with/every/schedule/tried/on/eight/devices/";
    private static final String NAME = "ag_matmul_overlap.fusion";

    @Test
    public void aNarrowerViewShowsThePathShortenedInTheMiddle() throws Exception {
        Journey journey = Journey.inResetStudio(1600, 1000);
        Person person = journey.person();
        Shell shell = journey.shell();
        try {
            folders("lowering-path", FOLDER);
            IFile file = ViewTestSupport.copyToWorkspace("lowering-path", "examples/seeds/ag_matmul_p2p.fusion",
                    FOLDER + NAME);
            FusionEditor editor = journey.open(file);
            LoweringView view = journey.show(LoweringView.ID);
            ViewTestSupport.join(LoweringView.JOB_FAMILY);
            int before = ShownLowering.top(view).getSize().x;
            dragSashRightOfExplorer(journey, view, shell, 300);
            ViewTestSupport.join(LoweringView.JOB_FAMILY);
            person.settle(300);
            int width = ShownLowering.top(view).getSize().x;
            assertTrue(width <= before - 250, "the drag narrowed the Lowering view: " + before + " -> " + width);
            assertTrue(person.restAway(shell), "a tooltip stays");
            ViewTestSupport.screenshot(shell, "lowering-path-narrower.png");

            String whole = file.getFullPath().toString();
            assertEquals(file, view.file(), "the view lowers the file");
            assertEquals(editor.getEditorInput().getAdapter(IFile.class), view.file(), "the editor's file");
            Label path = pathLabel(view);
            String size = "view " + width + " px wide";
            assertTrue(path.getSize().x >= path.computeSize(-1, -1).x, size + ": the path \"" + path.getText()
                    + "\" cut to " + path.getSize().x + " of " + path.computeSize(-1, -1).x + " px");
            assertTrue(path.getText().contains("\u2026") && path.getText().endsWith("/" + NAME)
                    && path.getText().startsWith("/low"), size + ": the start and the file's name around an ellipsis: "
                    + path.getText());
            assertEquals(whole, path.getToolTipText(), "the tooltip has the path whole");
        } finally {
            journey.page().resetPerspective();
            person.settle(300);
        }
    }

    /**
     * Presses in the gap between the Project Explorer's folder and the editor area (the sash the workbench draws
     * there: a pixel of the folders' common holder that none of its children covers), halfway down the explorer,
     * and drags {@code by} pixels to the right.
     */
    private static void dragSashRightOfExplorer(Journey journey, LoweringView view, Shell shell, int by)
            throws Exception {
        IViewPart explorer = journey.show(IPageLayout.ID_PROJECT_EXPLORER);
        journey.person().settle(300);
        Control tree = ViewTestSupport.descendants(shell, Tree.class).stream()
                .filter(t -> t.isVisible() && isIn(t, explorer)).findFirst()
                .orElseThrow(() -> new AssertionError("no Project Explorer tree"));
        Control lowering = ShownLowering.top(view);
        Composite holder = tree.getParent();
        while (!isAncestor(holder, lowering)) holder = holder.getParent();
        Rectangle t = shell.getDisplay().map(tree.getParent(), holder, tree.getBounds());
        int y = t.y + t.height / 2;
        for (int x = t.x + t.width; x < holder.getClientArea().width; x++) {
            if (uncovered(holder, x, y)) {
                Point from = shell.toControl(holder.toDisplay(x, y));
                journey.person().drag(shell, from.x, from.y, from.x + by, from.y);
                journey.person().settle(500);
                return;
            }
        }
        throw new AssertionError("no sash right of the Project Explorer");
    }

    private static boolean uncovered(Composite holder, int x, int y) {
        for (Control c : holder.getChildren()) if (c.isVisible() && c.getBounds().contains(x, y)) return false;
        return true;
    }

    private static boolean isAncestor(Composite a, Control c) {
        for (Control p = c; p != null; p = p.getParent()) if (p == a) return true;
        return false;
    }

    private static boolean isIn(Control c, IViewPart view) {
        return view.getAdapter(Control.class) == c
                || view.getSite().getSelectionProvider() instanceof org.eclipse.jface.viewers.Viewer v
                && v.getControl() == c;
    }

    /** Makes the folders of {@code path} in {@code project} (made if needed) that are not there yet. */
    private static void folders(String project, String path) throws Exception {
        var p = org.eclipse.core.resources.ResourcesPlugin.getWorkspace().getRoot().getProject(project);
        if (!p.exists()) p.create(null);
        if (!p.isOpen()) p.open(null);
        String sofar = "";
        for (String name : path.split("/")) {
            sofar += name + "/";
            var folder = p.getFolder(sofar);
            if (!folder.exists()) folder.create(true, true, null);
        }
    }

    /** The label beside "Fusion:". */
    private static Label pathLabel(LoweringView view) {
        List<Label> labels = ViewTestSupport.descendants(ShownLowering.fields(view), Label.class);
        for (int i = 0; i + 1 < labels.size(); i++) {
            if (labels.get(i).getText().equals("Fusion:")) return labels.get(i + 1);
        }
        throw new AssertionError("no Fusion: label");
    }
}
