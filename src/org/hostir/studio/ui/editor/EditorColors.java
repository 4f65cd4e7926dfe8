package org.hostir.studio.ui.editor;

import org.eclipse.jface.resource.ColorRegistry;
import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.RGB;

/**
 * Colours of the graph, from the JFace colour registry (so a theme can override them); the defaults are
 * registered once. Meshes get pale fills in order of first appearance; parallel types get badge colours.
 */
final class EditorColors {
    private static final String PREFIX = "org.hostir.studio.editor.";
    private static final RGB[] MESH = { new RGB(222, 235, 255), new RGB(226, 246, 226), new RGB(255, 239, 214),
            new RGB(240, 228, 255), new RGB(255, 226, 232), new RGB(226, 246, 246) };

    private EditorColors() {}

    static Color get(String key, RGB fallback) {
        ColorRegistry registry = JFaceResources.getColorRegistry();
        if (!registry.hasValueFor(PREFIX + key)) registry.put(PREFIX + key, fallback);
        return registry.get(PREFIX + key);
    }

    static Color mesh(int index) {
        return index < 0 ? get("noMesh", new RGB(245, 245, 245)) : get("mesh" + index % MESH.length, MESH[index % MESH.length]);
    }

    static Color op() { return get("op", new RGB(255, 250, 205)); }

    static Color border() { return get("border", new RGB(90, 90, 90)); }

    static Color text() { return get("text", new RGB(20, 20, 20)); }

    static Color selection() { return get("selection", new RGB(30, 110, 230)); }

    static Color error() { return get("error", new RGB(215, 30, 30)); }

    static Color edge() { return get("edge", new RGB(80, 80, 80)); }

    static Color banner() { return get("banner", new RGB(255, 220, 200)); }

    /**
     * The text of an inferred (outlined) badge: darker than the badge's fill colour, so that it reads on the pale
     * mesh fills of the light theme (a theme overrides it, as every colour here).
     */
    static Color inferredText(String kind) {
        return switch (kind) {
            case "DIDx", "DIDy" -> get("badge.inferred.did", new RGB(30, 80, 170));
            case "Stream" -> get("badge.inferred.stream", new RGB(25, 110, 55));
            default -> text();
        };
    }

    static Color badge(String kind) {
        return switch (kind) {
            case "DIDx", "DIDy" -> get("badge.did", new RGB(60, 120, 216));
            case "Stream" -> get("badge.stream", new RGB(46, 150, 80));
            case "reduction" -> get("badge.reduction", new RGB(200, 90, 30));
            case "broadcast" -> get("badge.broadcast", new RGB(140, 140, 140));
            default -> get("badge.serial", new RGB(190, 190, 190));
        };
    }
}
