package org.hostir.studio.ui.studio;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.runtime.Platform;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Shell;

/**
 * What the smoke test's first picture shows of each part, measured on its pixels ({@link Legibility}): one report
 * line per part stack, its selected tab's text and whether it reads. A product started in Dark (the theme chosen in
 * the workspace's preferences, as Preferences > Appearance leaves it before a restart) must show every stack dark and
 * readable; the script checks these lines (issue 35: after a restart in Dark, the Lowering compare panes came up
 * white).
 */
final class SmokeContrast {
    private SmokeContrast() {}

    /** {@code theme-preference=ID}, then {@code contrast=TAB: LEGIBILITY} per visible stack of {@code shell}. */
    static List<String> of(Shell shell, Path png) {
        List<String> lines = new ArrayList<>();
        lines.add("theme-preference=" + Platform.getPreferencesService()
                .getString("org.eclipse.e4.ui.css.swt.theme", "themeid", "", null));
        Point origin = shell.getLocation();
        List<CTabFolder> stacks = new ArrayList<>();
        collect(shell, stacks);
        for (CTabFolder f : stacks) {
            Control c = f.getSelection().getControl();
            Point at = c.toDisplay(0, 0);
            Rectangle r = new Rectangle(at.x - origin.x, at.y - origin.y, c.getSize().x, c.getSize().y);
            lines.add("contrast=" + f.getSelection().getText() + ": " + Legibility.of(png.toFile(), r));
        }
        return lines;
    }

    /** Visible stacks showing a part's control of at least 100 x 60 pixels. */
    private static void collect(Composite parent, List<CTabFolder> into) {
        for (Control c : parent.getChildren()) {
            if (!c.isVisible()) continue;
            if (c instanceof CTabFolder f && f.getSelection() != null && partShown(f.getSelection().getControl())) {
                into.add(f);
            }
            if (c instanceof Composite k) collect(k, into);
        }
    }

    private static boolean partShown(Control part) {
        return part != null && part.isVisible() && part.getSize().x >= 100 && part.getSize().y >= 60;
    }
}
