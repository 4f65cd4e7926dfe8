package org.hostir.studio.ui.editor;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Color;
import org.hostir.studio.ui.ThemeColors;

/**
 * Colours of the graph, from the theme's colour registry ({@link ThemeColors}: colorDefinitions
 * {@code org.hostir.studio.ui.graph.*} in plugin.xml, their dark values in css/dark.css), read at each paint so
 * that a theme switch shows at the next one. Meshes get fills in order of first appearance; parallel types get
 * badge colours.
 */
final class EditorColors {
    static final String PREFIX = "org.hostir.studio.ui.graph.";
    /** Mesh fills declared (mesh0 .. mesh5), used in turn. */
    private static final int MESHES = 6;

    private EditorColors() {}

    private static Color get(String key) { return ThemeColors.get(PREFIX + key, SWT.COLOR_GRAY); }

    static Color background() { return ThemeColors.get(PREFIX + "background", SWT.COLOR_LIST_BACKGROUND); }

    static Color mesh(int index) { return index < 0 ? get("noMesh") : get("mesh" + index % MESHES); }

    static Color op() { return get("op"); }

    static Color border() { return get("border"); }

    static Color text() { return ThemeColors.get(PREFIX + "text", SWT.COLOR_LIST_FOREGROUND); }

    static Color selection() { return get("selection"); }

    static Color error() { return get("error"); }

    static Color edge() { return get("edge"); }

    static Color banner() { return get("banner"); }

    /** A node's tooltip: its background and text (Draw2d's own are the toolkit's, fixed at its first use). */
    static Color tooltip() { return ThemeColors.get(PREFIX + "tooltip", SWT.COLOR_INFO_BACKGROUND); }

    static Color tooltipText() { return ThemeColors.get(PREFIX + "tooltipText", SWT.COLOR_INFO_FOREGROUND); }

    static Color bannerText() { return ThemeColors.get(PREFIX + "bannerText", SWT.COLOR_BLACK); }

    /**
     * The text of an inferred (outlined) badge: darker than the badge's fill colour under the light theme, lighter
     * under the dark one, so that it reads on the mesh fills without a fill of its own.
     */
    static Color inferredText(String kind) {
        return switch (kind) {
            case "DIDx", "DIDy" -> get("badge.inferred.did");
            case "Stream" -> get("badge.inferred.stream");
            default -> text();
        };
    }

    static Color badge(String kind) {
        return switch (kind) {
            case "DIDx", "DIDy" -> get("badge.did");
            case "Stream" -> get("badge.stream");
            case "reduction" -> get("badge.reduction");
            case "broadcast" -> get("badge.broadcast");
            default -> get("badge.serial");
        };
    }
}
