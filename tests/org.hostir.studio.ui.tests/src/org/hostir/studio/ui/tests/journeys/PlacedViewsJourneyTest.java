package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.debug.core.model.IProcess;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.ui.console.IConsole;
import org.eclipse.ui.console.TextConsole;
import org.hostir.studio.engine.RunCommandLine;
import org.hostir.studio.ui.launch.HostIrLaunchShortcut;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.launch.LaunchSettings;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IViewPart;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand at 1280 x 800: F1 opened the Help view in a full-height column of its own at the right,
 * which cut the Lowering view's µs column and its Options toggle; Window > Show View > nvFuser Dump then opened
 * beside it, and Window > Perspective > Reset Perspective... kept that column. Now the Help view opens beside
 * Properties, the Dump view as a tab beside the Lowering view, and Reset puts the perspective back as it was made.
 */
public class PlacedViewsJourneyTest {
    private static final String HELP_VIEW = "org.eclipse.help.ui.HelpView";
    private static final String SIZE = "1280x800";
    private Journey journey;
    private Person person;

    @AfterEach
    public void close() {
        journey.hide(DumpView.ID);
        journey.hide(HELP_VIEW);
        journey.closeEditors();
    }

    @Test
    public void helpAndDumpOpenInFoldersAndResetPutsThePerspectiveBack() throws Exception {
        journey = Journey.inResetStudio(1280, 800);
        person = journey.person();
        journey.openSeedWithLowering("placedviews");
        LoweringView lowering = journey.show(LoweringView.ID);
        person.settle(500);
        Table passes = (Table) ShownLowering.of(lowering).passList();
        int row = passes.getItemHeight();
        person.click(passes, 30, passes.getHeaderHeight() + row / 2);
        person.settle(300);
        person.press(SWT.F1);   // context help for the Lowering view
        assertTrue(person.until(20_000, () -> journey.page().findView(HELP_VIEW) != null), "F1 opened the Help view");
        person.settle(800);
        IViewPart help = journey.page().findView(HELP_VIEW);
        IViewPart properties = journey.page().findView(IPageLayout.ID_PROP_SHEET);
        assertTrue(Arrays.asList(journey.page().getViewStack(help)).contains(properties),
                "the Help view opened in Properties' folder: " + names(journey.page().getViewStack(help)));
        assertEquals(List.of("Properties", "Help"), tabs(folderOf("Help")), "the tabs beside Help");
        // the Lowering view keeps its width: its pass list's figures and its Options toggle whole
        LayoutJourneyTest.assertColumnsReadable(passes, SIZE + " with Help open");
        assertToggleWhole(lowering);
        ViewTestSupport.screenshot(journey.shell(), "placed-views-help-1280x800.png");

        showDumpByShowView();
        DumpView dump = (DumpView) journey.page().findView(DumpView.ID);
        assertNotNull(dump, "Show View opened the nvFuser Dump view");
        assertTrue(Arrays.asList(journey.page().getViewStack(dump)).contains(lowering),
                "the Dump view opened in the Lowering view's folder: " + names(journey.page().getViewStack(dump)));
        assertTrue(tabs(folderOf("nvFuser Dump")).contains("Lowering"), "the Dump view's tab beside Lowering's: "
                + tabs(folderOf("nvFuser Dump")));
        ViewTestSupport.screenshot(journey.shell(), "placed-views-dump-1280x800.png");

        resetByMenu();
        assertNull(journey.page().findView(DumpView.ID), "Reset Perspective closed the Dump view");
        assertNull(journey.page().findView(HELP_VIEW), "Reset Perspective closed the Help view");
        List<String> shown = ViewTestSupport.descendants(journey.shell(), CTabFolder.class).stream()
                .filter(CTabFolder::isVisible).flatMap(f -> tabs(f).stream()).toList();
        assertTrue(!shown.contains("nvFuser Dump") && !shown.contains("Help"), "tabs after Reset: " + shown);
        CTabFolder bottom = folderOf("Lowering");
        Rectangle at = journey.shell().getDisplay().map(bottom.getParent(), null, bottom.getBounds());
        Rectangle window = journey.shell().getDisplay().map(journey.shell(), null, journey.shell().getClientArea());
        assertTrue(at.x + at.width >= window.x + window.width - 12, "the Lowering view's folder reaches the window's"
                + " right edge after Reset (nothing beside it): " + at + " in " + window);
        ViewTestSupport.screenshot(journey.shell(), "placed-views-reset-1280x800.png");
    }

    /**
     * Issue 35, Deliver 6, driven by hand: an 8-rank CPU run prints how many ranks are done every 2 s; Window > Show
     * View > Progress opened the Progress view as a tab beside the Console, which came back to the front at each
     * line, so the run's job could not be watched. Now it opens beside Properties and stays in sight, listing the
     * run with its latest line.
     */
    @Test
    public void theProgressViewStaysInSightDuringARun() throws Exception {
        journey = Journey.inResetStudio(1280, 800);
        person = journey.person();
        IFile file = journey.openSeed("placedprogress", "ag_matmul_p2p", "placed_progress.fusion").getEditorInput()
                .getAdapter(IFile.class);
        ILaunchConfigurationWorkingCopy copy = HostIrLaunchShortcut.configurationFor(file).getWorkingCopy();
        LaunchSettings s = LaunchAttributes.read(copy);
        // long enough to open a view during it (several seconds an iteration here; ended by Terminate below)
        LaunchAttributes.write(new LaunchSettings(s.file(), Map.of("M", "1024", "K", "1024", "N", "1024"), "cpu", 8,
                2, 8, 0, false, s.options(), s.profile(), s.routing(), s.capacityFactor()), copy);
        String period = System.getProperty(RunCommandLine.PROGRESS_PERIOD);
        System.setProperty(RunCommandLine.PROGRESS_PERIOD, "300");   // a line every 0.3 s: the Console's pull
        ILaunch launch = copy.doSave().launch(ILaunchManager.RUN_MODE, null);
        try {
            IProcess process = launch.getProcesses()[0];
            assertTrue(person.until(60_000, () -> console(process).contains("ranks done")), "the run prints its"
                    + " ranks done: " + console(process));
            showByShowView("progress", "Progress");
            IViewPart progress = journey.page().findView(IPageLayout.ID_PROGRESS_VIEW);
            assertNotNull(progress, "Show View opened the Progress view");
            int printed = console(process).length();
            assertTrue(person.until(10_000, () -> console(process).length() > printed + 30), () -> "the run printed"
                    + " more (ended: " + launch.isTerminated() + "): " + console(process));
            person.settle(500);
            assertTrue(!launch.isTerminated(), "the run still goes on: " + console(process));
            CTabFolder folder = folderOf("Progress");
            ViewTestSupport.screenshot(journey.shell(), "placed-views-progress-1280x800.png");
            assertEquals("Progress", folder.getSelection().getText().replace("&", ""), "the Progress view in front"
                    + " of its folder while the run prints: " + tabs(folder));
            assertTrue(journey.page().isPartVisible(progress), "the Progress view is visible during the run");
            assertTrue(!tabs(folder).contains("Console"), "the Progress view beside the Console: " + tabs(folder));
            assertTrue(person.until(10_000, () -> shownTexts(folder).stream().anyMatch(t -> t.contains("ranks done"))
                    && shownTexts(folder).stream().anyMatch(t -> t.contains("Host IR run: placed_progress.fusion"))),
                    "the Progress view lists the run with its ranks done: " + shownTexts(folder));
        } finally {
            if (!launch.isTerminated()) launch.terminate();
            if (period == null) System.clearProperty(RunCommandLine.PROGRESS_PERIOD);
            else System.setProperty(RunCommandLine.PROGRESS_PERIOD, period);
            journey.hide(IPageLayout.ID_PROGRESS_VIEW);
        }
    }

    private static String console(IProcess process) {
        IConsole console = DebugUITools.getConsole(process);
        return console instanceof TextConsole text ? text.getDocument().get() : "";
    }

    /** The texts the visible page of {@code folder} shows (labels and links). */
    private static List<String> shownTexts(CTabFolder folder) {
        var page = folder.getSelection().getControl();
        if (page == null) return List.of();
        List<String> out = new java.util.ArrayList<>();
        ViewTestSupport.descendants((org.eclipse.swt.widgets.Composite) page, org.eclipse.swt.widgets.Label.class)
                .stream().filter(l -> l.isVisible()).forEach(l -> out.add(l.getText()));
        ViewTestSupport.descendants((org.eclipse.swt.widgets.Composite) page, org.eclipse.swt.widgets.Link.class)
                .stream().filter(l -> l.isVisible()).forEach(l -> out.add(l.getText()));
        return out;
    }

    /** Window > Show View > Other... (Alt+Shift+Q Q), "nvfuser dump" typed into its filter, Enter twice. */
    private void showDumpByShowView() throws Exception { showByShowView("nvfuser dump", "nvFuser Dump"); }

    /** Window > Show View > Other... (Alt+Shift+Q Q), {@code typed} into its filter, Enter twice. */
    private void showByShowView(String typed, String view) throws Exception {
        ModalSteps showView = ModalSteps.whenOpen("Show View", 30, d -> {
            person.settle(500);
            Text filter = ViewTestSupport.descendants(d, Text.class).stream().filter(Text::isVisible).findFirst()
                    .orElseThrow(() -> new AssertionError("Show View has no filter field"));
            person.focusByClick(filter);
            person.type(typed, 30);
            person.settle(500);
            person.press(SWT.CR);
            person.settle(300);
            person.press(SWT.CR);
            assertTrue(person.until(5_000, d::isDisposed), "Enter on " + view + " closed Show View");
        });
        person.lookAt(journey.shell());
        person.press(SWT.ALT | SWT.SHIFT, 'q');
        person.press(0, 'q');
        showView.check(person);
        person.settle(800);
    }

    /** Window > Perspective > Reset Perspective... by the menus' mnemonics, then the question's Reset button. */
    private void resetByMenu() throws Exception {
        ModalSteps confirm = ModalSteps.whenOpen("Reset Perspective", 30, d -> {
            person.settle(300);
            Button reset = ViewTestSupport.descendants(d, Button.class).stream()
                    .filter(b -> b.isVisible() && "Reset Perspective".equals(b.getText().replace("&", "")))
                    .findFirst().orElseThrow(() -> new AssertionError("the question has no Reset Perspective button"));
            person.clickCenter(reset);
            assertTrue(person.until(5_000, d::isDisposed), "Reset Perspective closed the question");
        });
        person.lookAt(journey.shell());
        person.press(SWT.ALT, 'w');
        person.settle(500);
        person.press(0, MENU_PERSPECTIVE);
        person.settle(500);
        person.press(0, MENU_RESET);
        confirm.check(person);
        person.settle(1_000);
    }

    /** The mnemonics of Window > Perspective and of its Reset Perspective... item. */
    private static final char MENU_PERSPECTIVE = 'r';
    private static final char MENU_RESET = 'r';

    private void assertToggleWhole(LoweringView lowering) {
        Button toggle = ShownLowering.optionsToggle(lowering);
        var top = ShownLowering.top(lowering);
        Rectangle in = toggle.getDisplay().map(toggle.getParent(), top, toggle.getBounds());
        Rectangle view = top.getClientArea();
        assertTrue(toggle.isVisible() && toggle.getSize().x >= toggle.computeSize(SWT.DEFAULT, SWT.DEFAULT).x
                && in.x + in.width <= view.x + view.width, SIZE + " with Help open: the Options toggle at " + in
                + " (needs " + toggle.computeSize(SWT.DEFAULT, SWT.DEFAULT).x + " px) in the view's " + view);
    }

    private CTabFolder folderOf(String tab) {
        return ViewTestSupport.descendants(journey.shell(), CTabFolder.class).stream()
                .filter(f -> f.isVisible() && tabs(f).contains(tab)).findFirst()
                .orElseThrow(() -> new AssertionError("no tab reads " + tab));
    }

    private static List<String> tabs(CTabFolder folder) {
        return Arrays.stream(folder.getItems()).map(i -> i.getText().replace("&", "")).toList();
    }

    private static List<String> names(IViewPart[] views) {
        return Arrays.stream(views).map(v -> v.getTitle()).toList();
    }
}
