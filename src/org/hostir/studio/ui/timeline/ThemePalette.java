package org.hostir.studio.ui.timeline;

import java.util.EnumMap;
import java.util.Map;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.ui.ThemeColors;

/**
 * The Timeline's colours: bars, arrows, the critical path's outline, a table row's outline, counter tracks and a
 * comparison's difference tracks from the theme's colour registry
 * (plugin.xml's colorDefinitions, css/dark.css); background and text follow the canvas (and so a dark theme).
 */
final class ThemePalette implements TimelineCanvas.Palette {
    private static final String ARROW = EventKind.COLOR_ID_PREFIX + "arrow";
    private static final String HIGHLIGHT = EventKind.COLOR_ID_PREFIX + "highlight";
    private static final String COUNTER = EventKind.COLOR_ID_PREFIX + "counter";
    private static final String CRITICAL_PATH = EventKind.COLOR_ID_PREFIX + "criticalPath";
    private static final String SLOWER = EventKind.COLOR_ID_PREFIX + "slower";
    private static final String FASTER = EventKind.COLOR_ID_PREFIX + "faster";

    private final Map<EventKind, Color> textColors = new EnumMap<>(EventKind.class);
    private Control control;
    private Color alternate;
    private Color grid;
    private RGB blendBackground;
    private RGB blendForeground;

    @Override
    public Color bar(EventKind kind) {
        Color c = PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry()
                .get(kind.colorId());
        return c != null ? c : control.getDisplay().getSystemColor(SWT.COLOR_GRAY);
    }

    @Override
    public Color barText(EventKind kind) {
        // black or white, whichever contrasts more with the bar (WCAG), so labels read on any theme's bars
        return textColors.computeIfAbsent(kind, k -> {
            double bar = ThemeColors.luminance(bar(k).getRGB());
            boolean black = (bar + 0.05) / 0.05 >= 1.05 / (bar + 0.05);
            return control.getDisplay().getSystemColor(black ? SWT.COLOR_BLACK : SWT.COLOR_WHITE);
        });
    }

    @Override
    public Color background() { return control.getBackground(); }

    @Override
    public Color criticalPath() { return ThemeColors.get(CRITICAL_PATH, SWT.COLOR_MAGENTA); }

    @Override
    public Color alternate() {
        blends();
        return alternate;
    }

    @Override
    public Color foreground() { return control.getForeground(); }

    @Override
    public Color grid() {
        blends();
        return grid;
    }

    /** The alternate-row and grid colours, blended again when the theme changed the canvas's colours. */
    private void blends() {
        RGB bg = background().getRGB(), fg = foreground().getRGB();
        if (bg.equals(blendBackground) && fg.equals(blendForeground)) return;
        blendBackground = bg;
        blendForeground = fg;
        alternate = blend(background(), foreground(), 0.05);
        grid = blend(background(), foreground(), 0.3);
    }

    @Override
    public Color arrow() {
        Color c = PlatformUI.getWorkbench().getThemeManager().getCurrentTheme().getColorRegistry()
                .get(ARROW);
        return c != null ? c : foreground();
    }

    @Override
    public Color highlight() { return ThemeColors.get(HIGHLIGHT, SWT.COLOR_DARK_YELLOW); }

    @Override
    public Color counter() { return ThemeColors.get(COUNTER, SWT.COLOR_DARK_GREEN); }

    @Override
    public Color difference(boolean slower) {
        return slower ? ThemeColors.get(SLOWER, SWT.COLOR_DARK_RED) : ThemeColors.get(FASTER, SWT.COLOR_DARK_CYAN);
    }

    @Override
    public Color selection() {
        return control.getDisplay().getSystemColor(SWT.COLOR_LIST_SELECTION);
    }

    private static Color blend(Color a, Color b, double t) {
        // Color needs no disposal since SWT 3.129 (no OS resource is held)
        return new Color((int) (a.getRed() * (1 - t) + b.getRed() * t),
                (int) (a.getGreen() * (1 - t) + b.getGreen() * t), (int) (a.getBlue() * (1 - t) + b.getBlue() * t));
    }

    /** The canvas whose background and text the palette follows; set once it is made. */
    void paintsOn(Control canvas) { control = canvas; }

    /** Forgets the bar labels' colours worked out for the last theme. */
    void themeChanged() { textColors.clear(); }
}
