package org.hostir.studio.ui.editor;

import java.util.HashMap;
import java.util.Map;

import org.eclipse.draw2d.FigureUtilities;
import org.eclipse.draw2d.geometry.Dimension;
import org.eclipse.swt.graphics.Font;

/**
 * The size of a text in a font, measured once: the node figures measure their titles, shapes and badges to size
 * themselves and again at each paint, and most of those texts repeat from node to node ("float [DIDx D, M, N]",
 * "DIDx"). Issue 35: each measure is a Pango layout on GTK, thousands of them at a 1,000-op fusion's opening.
 */
final class TextExtents {
    /** Enough for the texts of several large graphs; past it the cache starts again (names typed, fonts changed). */
    private static final int LIMIT = 50_000;
    private static final Map<Key, Dimension> CACHE = new HashMap<>();

    private record Key(Font font, String text) {}

    private TextExtents() {}

    /** The text's extent in the font (a copy: callers may change it). */
    static Dimension of(String text, Font font) {
        if (CACHE.size() > LIMIT) CACHE.clear();
        return CACHE.computeIfAbsent(new Key(font, text), k -> FigureUtilities.getTextExtents(k.text(), k.font())).getCopy();
    }
}
