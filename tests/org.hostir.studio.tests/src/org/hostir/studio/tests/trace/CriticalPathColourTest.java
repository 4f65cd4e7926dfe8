package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.trace.EventKind;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand: the Timeline's critical-path outline (224,0,0; #ff5a5a dark) was a red next to the p2p
 * bars' red (206,70,56; #eb6e5a), ΔE00 8 and 6, so a path through p2p bars did not stand out and the legend's two
 * swatches read alike. The outline's colour is apart from every kind's bars, and from the other marks drawn over
 * bars (the table row's highlight, the send-to-receive arrows), in both themes: a new kind's colour too close fails.
 */
class CriticalPathColourTest {
    /** Below this ΔE00 two colours read as shades of one (20: "another colour" at a glance on a 2 px line). */
    private static final double APART = 20;
    private static final String PATH = EventKind.COLOR_ID_PREFIX + "criticalPath";
    private static final Pattern LIGHT = Pattern.compile(
            "<colorDefinition\\s+id=\"([^\"]+)\"[^>]*\\svalue=\"(\\d+),(\\d+),(\\d+)\"");
    private static final Pattern DARK = Pattern.compile(
            "ColorDefinition#([\\w-]+)\\s*\\{\\s*color:\\s*#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})\\s*;");

    private static Map<String, int[]> colours(Pattern p, String text, int radix) {
        Map<String, int[]> out = new LinkedHashMap<>();
        Matcher m = p.matcher(text);
        while (m.find()) {
            out.put(m.group(1).replace('-', '.'), new int[] {Integer.parseInt(m.group(2), radix),
                    Integer.parseInt(m.group(3), radix), Integer.parseInt(m.group(4), radix)});
        }
        return out;
    }

    /** The ids the outline must stand apart from: every kind's bars, the highlight and the arrows. */
    private static List<String> others() {
        List<String> ids = new ArrayList<>();
        for (EventKind k : EventKind.values()) ids.add(k.colorId());
        ids.add(EventKind.COLOR_ID_PREFIX + "highlight");
        ids.add(EventKind.COLOR_ID_PREFIX + "arrow");
        return ids;
    }

    private static List<String> tooClose(String theme, Map<String, int[]> colours) {
        int[] path = colours.get(PATH);
        assertTrue(path != null, theme + ": the critical path has a colour");
        List<String> close = new ArrayList<>();
        for (String id : others()) {
            int[] other = colours.get(id);
            assertTrue(other != null, theme + ": " + id + " has a colour");
            double d = Ciede2000.distance(path, other);
            System.out.printf("%s: critical path vs %s: dE00 %.1f%n", theme, id, d);
            if (d < APART) close.add(String.format("%s (dE00 %.1f)", id, d));
        }
        return close;
    }

    @Test
    void theCriticalPathOutlineIsApartFromEveryKindInBothThemes() throws Exception {
        Map<String, int[]> light = colours(LIGHT, Files.readString(RepoPaths.repo().resolve("plugin.xml")), 10);
        Map<String, int[]> dark = colours(DARK, Files.readString(RepoPaths.repo().resolve("css/dark.css")), 16);
        assertEquals(List.of(), tooClose("light", light), "light theme: colours too close to the critical path's");
        assertEquals(List.of(), tooClose("dark", dark), "dark theme: colours too close to the critical path's");
    }

    /** The formula against pairs of Sharma, Wu and Dalal's published test data, and sRGB red's known Lab. */
    @Test
    void theDistanceIsCiede2000() {
        assertEquals(2.0425, Ciede2000.distance(new double[] {50, 2.6772, -79.7751},
                new double[] {50, 0, -82.7485}), 1e-4);
        assertEquals(2.3669, Ciede2000.distance(new double[] {50, 0, 0}, new double[] {50, -1, 2}), 1e-4);
        assertEquals(1.0000, Ciede2000.distance(new double[] {50, 2.5, 0}, new double[] {50, 3.1736, 0.5854}), 1e-4);
        assertEquals(0, Ciede2000.distance(new int[] {206, 70, 56}, new int[] {206, 70, 56}), 1e-9);
        // black against white is ΔE00 100 (L 0 against L 100, no chroma)
        assertEquals(100, Ciede2000.distance(new int[] {0, 0, 0}, new int[] {255, 255, 255}), 0.01);
        double[] red = Ciede2000.lab(new int[] {255, 0, 0});
        assertEquals(53.24, red[0], 0.05);
        assertEquals(80.09, red[1], 0.1);
        assertEquals(67.20, red[2], 0.1);
    }
}
