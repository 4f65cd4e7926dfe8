package org.hostir.studio.ui.tests.theme;


import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.e4.ui.css.swt.theme.IThemeEngine;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IWorkbenchPartReference;
import org.hostir.studio.ui.FusionElement;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.studio.Legibility;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.journeys.JourneyTest;
import org.hostir.studio.ui.tests.journeys.Screens;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, defect 1: every view in both themes, both ways, measured on screenshots. Light, then Dark without a
 * restart (as Preferences > Appearance applies it), then the Studio's own views opened again under Dark (what a
 * restart in Dark gives them), then Light again without a restart. Each view is maximized in turn and saved as
 * {@code theme-STATE-VIEW.png}; on each picture the view's background must follow the theme and its text must
 * read ({@link Legibility}: cells of ink whose contrast with their background is under 3 to 1 are unreadable),
 * and no view may lose most of its ink against the light start (white text on white left by the switch back).
 * The defects it catches: the Source page's member names and strings dark magenta and blue on near-black, the
 * graph and the Outline white under Dark, the compare panes white with black on dark red after a restart in
 * Dark, the Project Explorer, Properties, Timeline and Lowering white on white after the switch back.
 */
public class ThemeContrastTest extends JourneyTest {
    private static final String DARK = "org.eclipse.e4.ui.css.theme.e4_dark";
    /**
     * At most this share of a view's ink cells may not read, or the light start's share and 15 points more (icons,
     * buttons and greyed text count as ink that does not read).
     */
    private static final double MOST_UNREADABLE = 0.3;

    private final Map<String, Legibility> lightStart = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();
    private FusionEditor editor;
    /** Every view in four states (else CI's sample: the graph editor, light and dark). */
    private boolean full;

    @Test
    public void everyViewReadsInBothThemesBothWays() throws Exception {
        // every view in four states is minutes of screenshots: CI measures the graph editor light and then Dark
        // without a restart (its nodes' text on their fills, against the light start, which no other test compares);
        // every other view after that switch is ThemeBothWaysTest's in CI (its Light start measures them all).
        // -Dhirstudio.tests.themeContrast=true measures every view, adds the views remade under Dark (a restart) and
        // the switch back to Light
        full = Boolean.getBoolean("hirstudio.tests.themeContrast");
        Display display = Display.getCurrent();
        IThemeEngine engine = ThemeFrame.engine();
        String light = engine.getActiveTheme().getId();
        IFile file = ViewTestSupport.copyToWorkspace("themes", "examples/seeds/ag_matmul_p2p.fusion",
                "ag_matmul_p2p.fusion");
        try {
            openAll(file);
            measureAll("light", false);
            StaleCssElements.drop(display);
            engine.setTheme(DARK, false);
            person.settle(800);
            measureAll("dark", true);
            if (full) {
                reopenOurs(file); // what a restart in Dark gives the Studio's views: they are made under it
                measureAll("dark-reopened", true);
                StaleCssElements.drop(display);
                engine.setTheme(light, false);
                person.settle(800);
                measureAll("light-again", false);
            } else {
                System.out.println("ThemeContrastTest: the graph editor light and dark measured; every view, the"
                        + " restart in Dark and the switch back run with -Dhirstudio.tests.themeContrast=true");
            }
        } finally {
            ThemeFrame.restore(engine, light);
            journey.hide(TimelineView.ID);
            person.settle(300);
        }
        ThemeFrame.assertNone(failures, "views do not read");
    }

    private void openAll(IFile file) throws Exception {
        editor = journey.open(file);
        if (!full) return;   // the graph editor only
        journey.waitForLowering();
        LoweringView lowering = journey.show(LoweringView.ID);
        journey.waitForLowering();
        ShownLowering.of(lowering).selectPass("StreamParallelType");
        journey.runInTimeline("ag_matmul_p2p", 2, file);
        page.showView(IPageLayout.ID_PROJECT_EXPLORER);
        page.showView(IPageLayout.ID_OUTLINE);
        page.showView(IPageLayout.ID_PROBLEM_VIEW);
        page.activate(editor);
        editor.select(List.of(FusionElement.tensor(editor.workspacePath(), editor.model().tensors().get(0).name())));
        page.showView(IPageLayout.ID_PROP_SHEET);
        person.settle(300);
    }

    private void reopenOurs(IFile file) throws Exception {
        journey.hide(LoweringView.ID);
        journey.hide(TimelineView.ID);
        journey.closeEditors();
        openAll(file);
    }

    private void measureAll(String state, boolean dark) throws Exception {
        ShownGraph.showPage(editor, FusionEditor.GRAPH_PAGE);
        measure(state, "graph", page.getReference(editor), dark);
        if (!full) return;
        // next to the editor, so that Properties shows the selected tensor (it follows the last other part)
        measure(state, "properties", page.findViewReference(IPageLayout.ID_PROP_SHEET), dark);
        ShownGraph.showPage(editor, FusionEditor.SOURCE_PAGE);
        measure(state, "source", page.getReference(editor), dark);
        ShownGraph.showPage(editor, FusionEditor.GRAPH_PAGE);
        measure(state, "outline", page.findViewReference(IPageLayout.ID_OUTLINE), dark);
        measure(state, "project-explorer", page.findViewReference(IPageLayout.ID_PROJECT_EXPLORER), dark);
        measure(state, "problems", page.findViewReference(IPageLayout.ID_PROBLEM_VIEW), dark);
        measure(state, "lowering", page.findViewReference(LoweringView.ID), dark);
        measure(state, "timeline", page.findViewReference(TimelineView.ID), dark);
    }

    /** Maximizes the part, saves a picture, and measures the part's area (for Lowering, its compare panes too). */
    private void measure(String state, String name, IWorkbenchPartReference ref, boolean dark) throws Exception {
        ThemeFrame.Shot s = ThemeFrame.maximized(page, person, journey.shell(), ref,
                "theme-" + state + "-" + name + ".png");
        File shot = s.file();
        Control area = s.area();
        check(state, name, shot, area, dark);
        if (s.part() instanceof LoweringView l) {
            check(state, "compare-panes", shot, ShownLowering.of(l).diffControl(), dark);
        }
        // the canvas on its own (the palette's buttons would outweigh it), and the nodes
        if (name.equals("graph")) {
            check(state, "graph-canvas", shot, ShownGraph.of(editor).getControl(), dark);
            checkNodes(state, shot, dark);
        }
        ThemeFrame.unmaximize(page, person, ref);
    }

    private void check(String state, String name, File shot, Control area, boolean dark) {
        if (shot == null) {
            failures.add(state + " " + name + ": no screenshot (-Dhirstudio.screenshots unset): nothing measured");
            return;
        }
        Point at = Screens.inShot(journey.shell(), area);
        record(state, name, shot, Legibility.of(shot, new Rectangle(at.x, at.y, area.getSize().x, area.getSize().y)),
                dark);
    }

    private void record(String state, String name, File shot, Legibility l, boolean dark) {
        System.out.println("theme " + state + " " + name + ": " + l);
        String where = state + " " + name + " (" + shot.getName() + "): " + l;
        if (l.dark() != dark) failures.add(where + ": the background does not follow the theme");
        Legibility before = lightStart.putIfAbsent(name, l);
        if (before == null) return; // the light start is the reference the others are measured against
        // what does not read at the light start (buttons, icons, greyed headers) is no defect of the switch
        double allowed = Math.max(MOST_UNREADABLE, before.unreadable() + 0.15);
        if (l.unreadable() > allowed) {
            failures.add(where + ": text does not read on its background (at most " + Math.round(100 * allowed)
                    + "% of its ink cells may not)");
        }
        // text gone (white on white, light text on a light fill) is no ink at all: count what still reads, against
        // the same view in the same theme, or the nodes, whose text and fills are the same in both
        boolean sameContent = !dark || name.equals("graph-nodes");
        if (sameContent && l.readable() < 0.6 * before.readable()) {
            failures.add(where + ": lost its text (readable cells " + l.readable() + ", at the light start "
                    + before.readable() + ")");
        }
    }

    /** The rectangle around the graph's nodes, where each node's text sits on its fill. */
    private void checkNodes(String state, File shot, boolean dark) {
        if (shot == null) return; // said by check
        var graph = ShownGraph.of(editor);
        int x0 = Integer.MAX_VALUE, y0 = Integer.MAX_VALUE, x1 = 0, y1 = 0;
        for (String key : graph.keys()) {
            int[] c = graph.center(key), b = graph.bounds(key);
            if (c == null || b == null) continue;
            x0 = Math.min(x0, c[0] - b[2] / 2);
            y0 = Math.min(y0, c[1] - b[3] / 2);
            x1 = Math.max(x1, c[0] + b[2] / 2);
            y1 = Math.max(y1, c[1] + b[3] / 2);
        }
        Point at = Screens.inShot(journey.shell(), graph.getControl());
        Legibility l = Legibility.of(shot, new Rectangle(at.x + x0, at.y + y0, x1 - x0, y1 - y0));
        record(state, "graph-nodes", shot, l, dark);
    }
}
