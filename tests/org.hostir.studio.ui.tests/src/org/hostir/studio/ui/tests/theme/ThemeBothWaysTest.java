package org.hostir.studio.ui.tests.theme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.e4.ui.css.swt.theme.IThemeEngine;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IWorkbenchPartReference;
import org.hostir.studio.ui.FusionElement;
import org.hostir.studio.ui.ThemeColors;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.studio.Legibility;
import org.hostir.studio.ui.tests.SampleFusions;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.journeys.JourneyTest;
import org.hostir.studio.ui.tests.journeys.Screens;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, defect 1, as the person drove it: Preferences > General > Appearance > Dark, Apply and Close, Don't
 * restart; then Light the same way (Light to Dark, then Dark to Light, no restart). After each switch the graph
 * node's tooltip (hovered), the graph canvas, the Source page's text and rulers, the Outline, Properties, Project
 * Explorer, Lowering (with its compare panes and their changed lines) and Timeline are each brought up and saved as
 * {@code both-ways-STATE-PART.png}; on each picture the part's background must follow the theme and its text must
 * read ({@link Legibility}: cells of ink under 3 to 1 against their background). Defects it catches: the node
 * tooltip in the toolkit's colours whatever the theme (Draw2d reads them once: black under Light, then whatever the
 * CSS engine last gave its shell), the Outline's overview keeping the old theme's picture.
 * <p>
 * The pom's execution dark-start runs it again in a workbench started in Dark (a default theme preference, as the
 * Studio has after a restart in Dark; {@code -Dhirstudio.tests.darkStart=true} says it must have started in Dark,
 * so that a runtime that ignored the preference cannot pass as a Dark start): then Dark, Light, Dark again.
 * <p>
 * Round 15 (driven by hand): the Outline's overview is measured right after each switch, before the graph page is
 * brought up (switched with the Source page in front, it kept the old theme's picture); under Light a selected row
 * (the Problems view's, the Lowering view's pass) and the Dump view's text selection are Light's, not the dark navy
 * a Dark start left behind.
 * <p>
 * Three states in each of two workbenches are minutes of CI: CI measures the first switch of each (Light -> Dark
 * from a Light start, Dark -> Light from a Dark start, where every defect above was seen); the switch back to the
 * start's theme runs with {@code -Dhirstudio.tests.themeBothWays=true}.
 */
public class ThemeBothWaysTest extends JourneyTest {
    /** The share of a part's ink cells that may not read (icons, greyed text and buttons count as ink). */
    private static final double MOST_UNREADABLE = 0.3;
    /**
     * The share of a part's readable ink cells at the start that must read after a switch: the parts show the same
     * things in both themes (their counts differ by under 2 %), and text gone (white on white) is no ink at all.
     */
    private static final double LEAST_KEPT = 0.85;
    /**
     * Cells a part may lose besides that share: the Find bar shows about 13 cells of ink, where a text field's caret
     * (blinking) and its border's corners moved the count by 2 between states with the same text (11 of 13 cells,
     * 2026-11-29).
     */
    private static final int LOST_SLACK = 3;
    /**
     * The least luminance of a selection's fill under Light: Light's list selection is #3584e4 (0.23), what a Dark
     * start left behind #15539e (0.09), the dark theme's text selection #214283 (0.06).
     */
    private static final double LIGHT_SELECTION = 0.15;
    /** All three states in each workbench (else CI's sample: the first switch). */
    private static final boolean FULL = Boolean.getBoolean("hirstudio.tests.themeBothWays");
    /** What each part showed at the start, which later states are measured against. */
    private final java.util.Map<String, Legibility> atStart = new java.util.HashMap<>();
    private final List<String> failures = new ArrayList<>();
    private FusionEditor editor;

    @Test
    public void everyPartReadsAfterEachSwitch() throws Exception {
        IThemeEngine engine = ThemeFrame.engine();
        String start = engine.getActiveTheme().getId();
        // a workbench started in Dark (the Studio after a restart in Dark) goes Dark -> Light -> Dark
        boolean darkStart = start.contains("dark");
        assertEquals(Boolean.getBoolean("hirstudio.tests.darkStart"), darkStart,
                "the workbench started in " + start + " (hirstudio.tests.darkStart="
                        + System.getProperty("hirstudio.tests.darkStart") + ")");
        String first = darkStart ? "dark-start" : "light-start", other = darkStart ? "Light" : "Dark";
        IFile file = ViewTestSupport.copyToWorkspace("bothways", "examples/seeds/ag_matmul_p2p.fusion",
                "bothways.fusion");
        try {
            openAll(file);
            // the tooltip and the Source page made under the start theme, as by the person
            tooltip(first, darkStart, false);
            ShownGraph.showPage(editor, FusionEditor.SOURCE_PAGE);
            person.settle(400);
            measureAll(first, darkStart);
            sourceInFront();
            AppearancePage.chooseTheme(person, journey.shell(), other);
            String second = other.toLowerCase(java.util.Locale.ROOT);
            overviewAsLeft(second, !darkStart);
            measureAll(second, !darkStart);
            if (FULL) {
                sourceInFront();
                AppearancePage.chooseTheme(person, journey.shell(), darkStart ? "Dark" : "Light");
                String third = darkStart ? "dark-again" : "light-again";
                overviewAsLeft(third, darkStart);
                measureAll(third, darkStart);
            } else {
                System.out.println("ThemeBothWaysTest: " + first + " and " + second + " measured; the switch back runs"
                        + " with -Dhirstudio.tests.themeBothWays=true");
            }
        } finally {
            ThemeFrame.restore(engine, start);
            journey.hide(TimelineView.ID);
            journey.hide(DumpView.ID);
            person.settle(300);
        }
        ThemeFrame.assertNone(failures, "parts do not read");
    }

    private void openAll(IFile file) throws Exception {
        // a file with an error first, for rows in the Problems view (its editor stays open behind)
        journey.open(ViewTestSupport.workspaceFile("bothways", "mismatch.fusion", SampleFusions.MISMATCH));
        editor = journey.open(file);
        LoweringView lowering = journey.show(LoweringView.ID);
        journey.waitForLowering();
        ShownLowering.of(lowering).selectPass("StreamParallelType");
        journey.runInTimeline("ag_matmul_p2p", 2, file);
        page.showView(IPageLayout.ID_PROJECT_EXPLORER);
        page.showView(IPageLayout.ID_OUTLINE);
        page.activate(editor);
        editor.select(List.of(FusionElement.tensor(editor.workspacePath(), editor.model().tensors().get(0).name())));
        page.showView(IPageLayout.ID_PROP_SHEET);
        BothWaysExtras.showDump(journey.show(DumpView.ID));
        BothWaysExtras.launchForConsole(page, person, file);
        String errors = BothWaysExtras.openErrors(page, person);
        if (errors != null) failures.add("setup: " + errors);
        page.activate(editor);
        person.settle(300);
    }

    /** The Source page clicked to the front, as the person had it at the switch (the graph hidden). */
    private void sourceInFront() {
        page.activate(editor);
        ShownGraph.showPage(editor, FusionEditor.SOURCE_PAGE);
        person.settle(400);
    }

    /**
     * The Outline's overview as the switch left it, the Source page still in front (the graph not painted since): it
     * kept the old theme's picture after Light -> Dark until the Graph page was shown (round 15, by hand).
     */
    private void overviewAsLeft(String state, boolean dark) {
        Control overview = ShownGraph.outline(editor);
        int[] thumb = ShownGraph.outlinePage(editor).thumbnailSize();
        person.moveTo(journey.shell(), 2, journey.shell().getSize().y - 2);
        person.settle(600);
        File shot = ViewTestSupport.screenshot(journey.shell(), "both-ways-" + state + "-overview-as-left.png");
        if (overview == null || thumb[0] <= 20 || thumb[1] <= 20) {
            failures.add(state + " overview-as-left: no overview shown (" + thumb[0] + " x " + thumb[1] + ")");
            return;
        }
        Point o = Screens.inShot(journey.shell(), overview);
        check(state, "overview-as-left", shot, new Rectangle(o.x, o.y, thumb[0], thumb[1]), dark);
    }

    private void measureAll(String state, boolean dark) throws Exception {
        tooltip(state, dark, true);
        ruler(state, dark);
        view(state, "outline", page.findViewReference(IPageLayout.ID_OUTLINE), dark);
        view(state, "properties", page.findViewReference(IPageLayout.ID_PROP_SHEET), dark);
        view(state, "project-explorer", page.findViewReference(IPageLayout.ID_PROJECT_EXPLORER), dark);
        view(state, "lowering", page.findViewReference(LoweringView.ID), dark);
        view(state, "timeline", page.findViewReference(TimelineView.ID), dark);
        // not measured before round 14: the Problems view's rows, the Console's text and the nvFuser Dump view
        view(state, "problems", page.findViewReference(IPageLayout.ID_PROBLEM_VIEW), dark);
        view(state, "console", page.findViewReference(BothWaysExtras.CONSOLE), dark);
        view(state, "dump", page.findViewReference(DumpView.ID), dark);
    }

    /** The pointer rests on the first tensor until Draw2d shows its tooltip; the tooltip's shell is measured. */
    private void tooltip(String state, boolean dark, boolean measure) {
        page.activate(editor);
        ShownGraph.showPage(editor, FusionEditor.GRAPH_PAGE);
        person.settle(400);
        GraphViewer graph = ShownGraph.of(editor);
        String key = editor.model().tensors().get(0).name();
        int[] c = graph.center(key);
        person.moveTo(graph.getControl(), c[0] - 10, c[1]);
        person.moveTo(graph.getControl(), c[0], c[1]);
        Shell[] tip = new Shell[1];
        person.until(5_000, () -> (tip[0] = tipShell()) != null);
        person.settle(300);
        File shot = ViewTestSupport.screenshot(journey.shell(), "both-ways-" + state + "-graph-tooltip.png");
        if (!measure) return;
        if (tip[0] == null) {
            failures.add(state + " graph-tooltip: no tooltip shown after resting on " + key);
            return;
        }
        Rectangle b = tip[0].getBounds(), w = journey.shell().getBounds();
        Rectangle inShot = new Rectangle(b.x - w.x, b.y - w.y, b.width, b.height);
        Legibility l = check(state, "graph-tooltip", shot, inShot, dark);
        if (l != null && l.inkCells() == 0) failures.add(state + " graph-tooltip: no text seen (" + l + ")");
        // the Outline's overview beside the graph, in the perspective's layout (it kept the old theme's picture)
        Control overview = ShownGraph.outline(editor);
        int[] thumb = ShownGraph.outlinePage(editor).thumbnailSize();
        if (overview != null && thumb[0] > 20 && thumb[1] > 20) {
            Point o = Screens.inShot(journey.shell(), overview);
            check(state, "outline-overview", shot, new Rectangle(o.x, o.y, thumb[0], thumb[1]), dark);
        }
        person.moveTo(journey.shell(), 2, journey.shell().getSize().y - 2);
        person.settle(300);
        // the canvas and its nodes without the tooltip (it stayed white under Dark)
        File plain = ViewTestSupport.screenshot(journey.shell(), "both-ways-" + state + "-graph.png");
        Point g = Screens.inShot(journey.shell(), graph.getControl());
        check(state, "graph-canvas", plain, new Rectangle(g.x, g.y, graph.getControl().getSize().x,
                graph.getControl().getSize().y), dark);
        // the palette's buttons (left dark, Connect white on light grey, after a switch back to Light)
        Control palette = ShownGraph.button(editor, "Auto layout").getParent();
        Point p = Screens.inShot(journey.shell(), palette);
        check(state, "graph-palette", plain, new Rectangle(p.x, p.y, palette.getSize().x,
                Math.min(palette.getSize().y, graph.getControl().getSize().y)), dark);
        drawersAndFind(state, dark, palette);
    }

    /**
     * The palette's View and Arrange drawers opened by their headers (their tools not measured before round 14), and
     * the graph's Find bar (Ctrl+F, a name typed): each measured on its own picture, then closed again.
     */
    private void drawersAndFind(String state, boolean dark, Control palette) {
        GraphViewer graph = ShownGraph.of(editor);
        List<org.eclipse.swt.widgets.Button> headers = ViewTestSupport.descendants((org.eclipse.swt.widgets.Composite)
                palette, org.eclipse.swt.widgets.Button.class).stream()
                .filter(b -> b.getText().matches("[\u25B8\u25BE] (View|Arrange).*")).toList();
        if (headers.size() != 2) failures.add(state + " graph-drawers: drawer headers " + headers.size() + ", not 2");
        headers.forEach(h -> person.clickCenter(h));
        person.moveTo(journey.shell(), 2, journey.shell().getSize().y - 2);
        person.settle(400);
        File drawers = ViewTestSupport.screenshot(journey.shell(), "both-ways-" + state + "-graph-drawers.png");
        Point p = Screens.inShot(journey.shell(), palette);
        check(state, "graph-drawers", drawers, new Rectangle(p.x, p.y, palette.getSize().x,
                Math.min(palette.getSize().y, graph.getControl().getSize().y)), dark);
        headers.forEach(h -> person.clickCenter(h));
        // the Find bar: Ctrl+F on the canvas, the first tensor's name typed
        person.click(graph.getControl(), 5, 5);
        person.press(SWT.CTRL, 'f');
        person.settle(300);
        person.type(editor.model().tensors().get(0).name(), 30);
        person.settle(400);
        Control bar = ViewTestSupport.descendants(ShownGraph.page(editor).getParent(),
                org.eclipse.swt.widgets.Label.class).stream()
                .filter(l -> l.isVisible() && l.getText().equals("Find:")).map(Control::getParent).findFirst()
                .orElse(null);
        if (bar == null) {
            failures.add(state + " graph-find: Ctrl+F showed no Find bar");
            return;
        }
        File find = ViewTestSupport.screenshot(journey.shell(), "both-ways-" + state + "-graph-find.png");
        Point f = Screens.inShot(journey.shell(), bar);
        Legibility l = check(state, "graph-find", find, new Rectangle(f.x, f.y, bar.getSize().x, bar.getSize().y),
                dark);
        if (l != null && l.inkCells() == 0) failures.add(state + " graph-find: no text seen (" + l + ")");
        person.press(SWT.ESC);
        person.settle(300);
    }

    /** Draw2d's tooltip: a visible tool shell over the workbench window. */
    private Shell tipShell() {
        for (Shell s : journey.shell().getShells()) {
            if (s.isVisible() && (s.getStyle() & SWT.TOOL) != 0 && s.getSize().x > 20) return s;
        }
        return null;
    }

    /** The Source page's rulers: the strip left of its text, from the pane's top to its bottom. */
    private void ruler(String state, boolean dark) {
        page.activate(editor);
        ShownGraph.showPage(editor, FusionEditor.SOURCE_PAGE);
        person.settle(600);
        StyledText text = ViewTestSupport.descendants(ShownGraph.page(editor).getParent(), StyledText.class).stream()
                .filter(Control::isVisible).max(Comparator.comparingInt(t -> t.getSize().x * t.getSize().y))
                .orElseThrow(() -> new AssertionError("the Source page shows no text"));
        person.moveTo(journey.shell(), 2, journey.shell().getSize().y - 2);
        person.settle(300);
        File shot = ViewTestSupport.screenshot(journey.shell(), "both-ways-" + state + "-source.png");
        Point pane = Screens.inShot(journey.shell(), text.getParent()), at = Screens.inShot(journey.shell(), text);
        int width = at.x - pane.x;
        if (width < 8) {
            failures.add(state + " source-ruler: no ruler left of the text (" + width + " px)");
            return;
        }
        check(state, "source-ruler", shot, new Rectangle(pane.x, at.y, width, text.getSize().y), dark);
        // the JSON's member names and strings (dark magenta and blue on near-black under Dark)
        check(state, "source-text", shot, new Rectangle(at.x, at.y, text.getSize().x, text.getSize().y), dark);
        ShownGraph.showPage(editor, FusionEditor.GRAPH_PAGE);
        person.settle(300);
    }

    /** Maximizes the view, saves a picture, and measures what its stack shows. */
    private void view(String state, String name, IWorkbenchPartReference ref, boolean dark) throws Exception {
        ThemeFrame.Shot s = ThemeFrame.maximized(page, person, journey.shell(), ref,
                "both-ways-" + state + "-" + name + ".png");
        File shot = s.file();
        Control area = s.area();
        Point at = Screens.inShot(journey.shell(), area);
        check(state, name, shot, new Rectangle(at.x, at.y, area.getSize().x, area.getSize().y), dark);
        lists(state, name, shot, area, dark);
        labels(state, name, shot, area);
        // the compare panes on their own, with the selected pass's changed lines (white, black on dark red)
        if (s.part() instanceof LoweringView l) {
            Control panes = ShownLowering.of(l).diffControl();
            Point p = Screens.inShot(journey.shell(), panes);
            check(state, "compare-panes", shot, new Rectangle(p.x, p.y, panes.getSize().x, panes.getSize().y), dark);
            // the rows of fields above the lists (Fusion:, Devices:, Rank:, the options' labels and combos)
            Control fields = ShownLowering.fields(l);
            Point f = Screens.inShot(journey.shell(), fields);
            check(state, "lowering-fields", shot, new Rectangle(f.x, f.y, fields.getSize().x, fields.getSize().y),
                    dark);
        }
        if (s.part() instanceof DumpView) dumpPanes(state, shot, area, dark);
        ThemeFrame.unmaximize(page, person, ref);
    }

    /**
     * The Dump view's compare panes, each on its own and as shown: after a Dark start and a switch to Light the right
     * one kept a dark fill (#2d2d2d) around its selected difference (the viewer selects its first difference, here
     * the whole program), which the view's prevailing background hid. A pane's background is the colour most of its
     * cells show apart from its text selection (the toolkit's selection colour, dark blue in both themes).
     */
    private void dumpPanes(String state, File shot, Control area, boolean dark) {
        if (shot == null) return;   // said by check
        List<StyledText> panes = ViewTestSupport.descendants((org.eclipse.swt.widgets.Composite) area,
                StyledText.class).stream().filter(p -> p.isVisible() && p.getSize().x >= 60 && p.getSize().y >= 60)
                .toList();
        if (panes.isEmpty()) failures.add(state + " dump: no compare pane shown");
        org.eclipse.swt.graphics.ImageData image = new org.eclipse.swt.graphics.ImageLoader().load(shot.getPath())[0];
        for (int n = 0; n < panes.size(); n++) {
            StyledText pane = panes.get(n);
            Point at = Screens.inShot(journey.shell(), pane);
            Rectangle r = new Rectangle(at.x, at.y, pane.getSize().x, pane.getSize().y)
                    .intersection(new Rectangle(0, 0, image.width, image.height));
            org.eclipse.swt.graphics.RGB selection = pane.getSelectionBackground().getRGB(), back = null;
            java.util.Map<org.eclipse.swt.graphics.RGB, Integer> cells = new java.util.HashMap<>();
            for (int y = r.y; y < r.y + r.height; y++) {
                for (int x = r.x; x < r.x + r.width; x++) {
                    org.eclipse.swt.graphics.RGB c = image.palette.getRGB(image.getPixel(x, y));
                    if (!c.equals(selection)) cells.merge(c, 1, Integer::sum);
                }
            }
            for (var e : cells.entrySet()) if (back == null || e.getValue() > cells.get(back)) back = e.getKey();
            textSelection(state, n, shot, selection, back, r.width * r.height - cells.values().stream()
                    .mapToInt(Integer::intValue).sum(), dark);
            boolean darkPane = back != null && ThemeColors.luminance(back) < 0.2;
            System.out.println("both ways " + state + " dump-pane" + n + ": background " + back + " besides the"
                    + " selection " + selection);
            if (back != null && darkPane != dark) {
                failures.add(state + " dump-pane" + n + " (" + shot.getName() + "): background " + back
                        + " besides the selection " + selection + ": the background does not follow the theme");
            }
        }
    }

    /**
     * A pane's text selection as shown ({@code shown} of its pixels): under Light it is Light's (after Dark -> Light
     * from a Dark start the selected difference kept a dark blue, issue 35 round 15). Under Dark it is lighter than
     * the pane, as the dark theme's navy #214283 is on #2b2b2b: a selection darker than the pane shows as a hole, not
     * a highlight (black in a Dark start after the editors' selection preference was removed, round 16).
     */
    private void textSelection(String state, int n, File shot, org.eclipse.swt.graphics.RGB selection,
            org.eclipse.swt.graphics.RGB pane, int shown, boolean dark) {
        System.out.println("both ways " + state + " dump-pane" + n + ": selection " + selection + " on " + shown
                + " pixels");
        if (!dark && shown > 200 && ThemeColors.luminance(selection) < LIGHT_SELECTION) {
            failures.add(state + " dump-pane" + n + " (" + shot.getName() + "): its selection " + hex(selection)
                    + " is dark under Light (" + shown + " pixels)");
        }
        if (dark && shown > 200 && pane != null && ThemeColors.luminance(selection) <= ThemeColors.luminance(pane)) {
            failures.add(state + " dump-pane" + n + " (" + shot.getName() + "): its selection " + hex(selection)
                    + " is no lighter than the pane " + hex(pane) + " under Dark (" + shown + " pixels)");
        }
    }

    /**
     * Each list, table and tree of the part on its own: a switch back to Light left the Lowering view's pass list
     * (and the Dump view's program list) dark in a light view, which the part's prevailing background hides.
     */
    private void lists(String state, String name, File shot, Control area, boolean dark) {
        if (!(area instanceof org.eclipse.swt.widgets.Composite c)) return;
        Point a = Screens.inShot(journey.shell(), area);
        Rectangle shown = new Rectangle(a.x, a.y, area.getSize().x, area.getSize().y);
        int n = 0;
        for (Control list : ViewTestSupport.descendants(c, Control.class)) {
            boolean isList = list instanceof org.eclipse.swt.widgets.Table
                    || list instanceof org.eclipse.swt.widgets.Tree || list instanceof org.eclipse.swt.widgets.List;
            if (!isList || !list.isVisible() || list.getSize().x < 60 || list.getSize().y < 60) continue;
            Point at = Screens.inShot(journey.shell(), list);
            Rectangle r = new Rectangle(at.x, at.y, list.getSize().x, list.getSize().y).intersection(shown);
            if (r.width >= 60 && r.height >= 60) {
                check(state, name + "-list" + n, shot, r, dark);
                selectedRow(state, name + "-list" + n, shot, list, shown, dark);
                n++;
            }
        }
    }

    /**
     * A table's or tree's selected row as shown: its fill is the theme's selection (after Dark -> Light from a Dark
     * start the Problems view's and the pass list's selected rows stayed Dark's navy, issue 35 round 15).
     */
    private void selectedRow(String state, String name, File shot, Control list, Rectangle shown, boolean dark) {
        Rectangle row = switch (list) {
            case org.eclipse.swt.widgets.Table t when t.getSelectionCount() > 0 -> t.getSelection()[0].getBounds();
            case org.eclipse.swt.widgets.Tree t when t.getSelectionCount() > 0 -> t.getSelection()[0].getBounds();
            default -> null;
        };
        if (row == null || row.height < 14) return;
        Point at = Screens.inShot(journey.shell(), list);
        // the row across the list (the text of its first column is a small part of it)
        Rectangle r = new Rectangle(at.x, at.y + row.y, list.getSize().x, row.height).intersection(shown);
        if (r.width < 60 || r.height < 14) return;
        org.eclipse.swt.graphics.RGB fill = Legibility.of(shot, r).background();
        System.out.println("both ways " + state + " " + name + " selected row: " + fill);
        if (!dark && ThemeColors.luminance(fill) < LIGHT_SELECTION) {
            failures.add(state + " " + name + " (" + shot.getName() + "): the selected row's fill " + hex(fill)
                    + " is dark under Light (luminance " + String.format("%.2f", ThemeColors.luminance(fill)) + ")");
        }
    }

    /**
     * The part's labels, buttons and combos, each measured on its own bounds and counted together: after Dark to
     * Light the Lowering view's field labels and button texts were faint (issue 35, seen on a screenshot), a few
     * cells among the part's thousands that the whole part's share does not show.
     */
    private void labels(String state, String name, File shot, Control area) {
        if (shot == null || !(area instanceof org.eclipse.swt.widgets.Composite c)) return;
        Point a = Screens.inShot(journey.shell(), area);
        Rectangle shown = new Rectangle(a.x, a.y, area.getSize().x, area.getSize().y);
        int ink = 0, readable = 0, n = 0;
        org.eclipse.swt.graphics.RGB back = null;
        java.util.Map<String, Integer> colours = new java.util.TreeMap<>();
        for (Control w : ViewTestSupport.descendants(c, Control.class)) {
            boolean isLabel = w instanceof org.eclipse.swt.widgets.Label || w instanceof org.eclipse.swt.widgets.Combo
                    || w instanceof org.eclipse.swt.widgets.Button;
            if (!isLabel || !w.isVisible() || w.getSize().x < 14 || w.getSize().y < 14) continue;
            Point at = Screens.inShot(journey.shell(), w);
            Rectangle r = new Rectangle(at.x, at.y, w.getSize().x, w.getSize().y).intersection(shown);
            Legibility l = Legibility.of(shot, r);
            colours.merge(w.getClass().getSimpleName() + " " + hex(w.getForeground().getRGB()) + " on "
                    + hex(w.getBackground().getRGB()), 1, Integer::sum);
            ink += l.inkCells();
            readable += l.readable();
            if (back == null) back = l.background();
            n++;
        }
        if (n == 0) return;
        System.out.println("both ways " + state + " " + name + " label colours (widget): " + colours);
        // one text colour in a view: a switch that reset some widgets to the toolkit's default (#2e3436 under
        // Light) and left others as the theme or the repair made them (#000000) would show both
        long inks = colours.keySet().stream().map(k -> k.split(" ")[1]).distinct().count();
        if (inks > 1) failures.add(state + " " + name + "-labels: " + inks + " text colours in one view: " + colours);
        judge(state, name + "-labels", shot, new Legibility(back, ink, readable));
    }

    private static String hex(org.eclipse.swt.graphics.RGB c) {
        return String.format("#%02x%02x%02x", c.red, c.green, c.blue);
    }

    private Legibility check(String state, String name, File shot, Rectangle r, boolean dark) {
        if (shot == null) {
            failures.add(state + " " + name + ": no screenshot (-Dhirstudio.screenshots unset): nothing measured");
            return null;
        }
        Legibility l = Legibility.of(shot, r);
        if (l.dark() != dark) {
            failures.add(state + " " + name + " (" + shot.getName() + "): " + l
                    + ": the background does not follow the theme");
        }
        return judge(state, name, shot, l);
    }

    /** Fails where too many of the ink cells do not read, or where fewer read than at the start. */
    private Legibility judge(String state, String name, File shot, Legibility l) {
        System.out.println("both ways " + state + " " + name + ": " + l);
        String where = state + " " + name + " (" + shot.getName() + "): " + l;
        if (l.unreadable() > MOST_UNREADABLE) failures.add(where + ": text does not read on its background");
        Legibility start = atStart.putIfAbsent(name, l);
        if (start != null && l.readable() < LEAST_KEPT * start.readable() - LOST_SLACK) {
            failures.add(where + ": lost its text (" + l.readable() + " readable cells, " + start.readable()
                    + " at the start)");
        }
        return l;
    }
}
