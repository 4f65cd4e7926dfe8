package org.hostir.studio.ui.tests.timeline;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;

import org.eclipse.core.resources.IFile;
import org.eclipse.e4.ui.css.swt.theme.IThemeEngine;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.ide.IDE;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.ui.passes.Colors;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.theme.StaleCssElements;
import org.hostir.studio.ui.timeline.CpuRun;
import org.hostir.studio.ui.timeline.TimelineView;
import org.junit.jupiter.api.Test;

/**
 * Both views under the dark theme (switched through the IThemeEngine, as Preferences > Appearance does): a
 * screenshot of each (lowering-view-dark.png, timeline-view-dark.png), and the colours the views choose read on
 * the backgrounds they sit on (WCAG contrast of at least 4.5 for text, 3 for bars and arrows).
 */
public class DarkThemeTest {
    private static final String DARK = "org.eclipse.e4.ui.css.theme.e4_dark";

    @Test
    public void bothViewsReadUnderTheDarkTheme() throws Exception {
        Display display = Display.getCurrent();
        IThemeEngine engine = PlatformUI.getWorkbench().getService(IThemeEngine.class);
        if (engine == null) engine = (IThemeEngine) display.getData("org.eclipse.e4.ui.css.swt.theme");
        assertNotNull(engine, "the workbench has a theme engine");
        String before = engine.getActiveTheme() == null ? null : engine.getActiveTheme().getId();
        IWorkbenchPage page = ViewTestSupport.page();
        StaleCssElements.drop(display);
        try {
            engine.setTheme(DARK, false);
            ViewTestSupport.spin(display, 500);
            page.getWorkbenchWindow().getShell().setSize(1280, 960);

            IFile file = ViewTestSupport.copyToWorkspace("dark", "examples/seeds/ag_matmul_p2p.fusion",
                    "ag_matmul_p2p.fusion");
            LoweringView lowering = (LoweringView) page.showView(LoweringView.ID);
            IDE.openEditor(page, file, "org.eclipse.ui.DefaultTextEditor");
            lowering.setFile(file);
            ViewTestSupport.join(LoweringView.JOB_FAMILY);
            ShownLowering.of(lowering).selectPass("StreamParallelType");
            page.activate(lowering);
            page.setPartState(page.findViewReference(LoweringView.ID), IWorkbenchPage.STATE_MAXIMIZED);
            ViewTestSupport.spin(display, 800);
            ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "lowering-view-dark.png");
            page.setPartState(page.findViewReference(LoweringView.ID), IWorkbenchPage.STATE_RESTORED);

            RGB treeText = ShownLowering.of(lowering).tree().getControl().getForeground().getRGB();
            RGB treeBack = ShownLowering.of(lowering).tree().getControl().getBackground().getRGB();
            assertTrue(luminance(treeBack) < 0.2, "the tree is dark: " + treeBack);
            for (String id : new String[] { Colors.ADDED, Colors.REMOVED, Colors.CHANGED }) {
                RGB back = Colors.get(id, display, 0).getRGB();
                assertTrue(contrast(treeText, back) >= 4.5, id + " " + back + " under text " + treeText + ": "
                        + contrast(treeText, back));
            }
            assertTrue(contrast(Colors.get(Colors.UNCHANGED_TEXT, display, 0).getRGB(), treeBack) >= 3,
                    "unchanged passes stay legible");
            assertTrue(contrast(Colors.get(Colors.ERROR_TEXT, display, 0).getRGB(), treeBack) >= 4.5,
                    "diagnostics stay legible");

            String source = Files.readString(ViewTestSupport.repoFile("examples/seeds/ag_matmul_p2p.fusion"));
            var ran = (CpuRun.Outcome.Ran) CpuRun.run(source, "ag_matmul_p2p.fusion", 2, LoweringOptions.DEFAULTS,
                    s -> { });
            TimelineView timeline = TimelineView.show(ran.result().timeline(), "ag_matmul_p2p: dark theme", file);
            page.setPartState(page.findViewReference(TimelineView.ID), IWorkbenchPage.STATE_MAXIMIZED);
            ViewTestSupport.spin(display, 500);
            timeline.fit();
            ViewTestSupport.spin(display, 800);
            ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "timeline-view-dark.png");
            page.setPartState(page.findViewReference(TimelineView.ID), IWorkbenchPage.STATE_RESTORED);

            var palette = timeline.palette();
            RGB back = palette.background().getRGB();
            assertTrue(luminance(back) < 0.2, "the timeline is dark: " + back);
            assertTrue(contrast(palette.foreground().getRGB(), back) >= 4.5, "row labels and ruler");
            assertTrue(contrast(palette.arrow().getRGB(), back) >= 3, "arrows: " + palette.arrow().getRGB());
            assertTrue(contrast(palette.highlight().getRGB(), back) >= 3, "a table row's bars' outline: "
                    + palette.highlight().getRGB());
            assertTrue(contrast(palette.counter().getRGB(), back) >= 3, "counter tracks: " + palette.counter().getRGB());
            for (EventKind k : EventKind.values()) {
                Color bar = palette.bar(k);
                assertTrue(contrast(palette.barText(k).getRGB(), bar.getRGB()) >= 4.5, k + " bar labels");
                assertTrue(contrast(bar.getRGB(), back) >= 3, k + " bars on the background: " + bar.getRGB()
                        + " on " + back + ": " + contrast(bar.getRGB(), back));
            }
        } finally {
            if (before != null) engine.setTheme(before, false);
            // switching back at run time leaves some of the dark styling on live widgets (a restart clears it in
            // the IDE): close what this test opened so that later tests build their views under the light theme
            page.closeAllEditors(false);
            for (String id : new String[] { LoweringView.ID, TimelineView.ID }) {
                var ref = page.findViewReference(id);
                if (ref != null) page.hideView(ref);
            }
            ViewTestSupport.spin(display, 300);
        }
    }

    /** WCAG relative luminance. */
    static double luminance(RGB c) {
        return 0.2126 * channel(c.red) + 0.7152 * channel(c.green) + 0.0722 * channel(c.blue);
    }

    private static double channel(int v) {
        double s = v / 255.0;
        return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
    }

    /** WCAG contrast ratio, 1 to 21. */
    static double contrast(RGB a, RGB b) {
        double la = luminance(a), lb = luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }
}
