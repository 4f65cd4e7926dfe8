package org.hostir.studio.tests.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.trace.EventKind;
import org.junit.jupiter.api.Test;

/**
 * Every timeline event kind has its bar colour in both places the theme reads it from: a colorDefinition in
 * plugin.xml (the light theme, and Preferences > Colors and Fonts) and a rule in css/dark.css (the dark theme).
 * A kind without either would be painted in the view's grey fallback; a colour of no kind is a leftover.
 */
class EventKindColorsTest {
    /** Timeline colours that belong to no kind. */
    private static final Set<String> OTHERS = Set.of(EventKind.COLOR_ID_PREFIX + "arrow",
            EventKind.COLOR_ID_PREFIX + "highlight", EventKind.COLOR_ID_PREFIX + "counter",
            EventKind.COLOR_ID_PREFIX + "criticalPath", EventKind.COLOR_ID_PREFIX + "slower",
            EventKind.COLOR_ID_PREFIX + "faster");
    private static final Pattern DEFINITION = Pattern.compile(
            "<colorDefinition\\s+id=\"([^\"]+)\"[^>]*\\svalue=\"(\\d+,\\d+,\\d+)\"");
    private static final Pattern DARK_RULE = Pattern.compile(
            "ColorDefinition#([\\w-]+)\\s*\\{\\s*color:\\s*#[0-9a-fA-F]{6}\\s*;\\s*}");

    private static Map<String, String> matches(Pattern p, String text) {
        Map<String, String> out = new TreeMap<>();
        Matcher m = p.matcher(text);
        while (m.find()) out.put(m.group(1), m.groupCount() > 1 ? m.group(2) : "");
        return out;
    }

    @Test
    void everyKindHasItsColourInPluginXmlAndTheDarkTheme() throws Exception {
        Map<String, String> light = matches(DEFINITION, Files.readString(RepoPaths.repo().resolve("plugin.xml")));
        Map<String, String> dark = matches(DARK_RULE, Files.readString(RepoPaths.repo().resolve("css/dark.css")));
        for (EventKind k : EventKind.values()) {
            assertTrue(light.containsKey(k.colorId()), k + ": no colorDefinition id=\"" + k.colorId()
                    + "\" in plugin.xml");
            String css = k.colorId().replace('.', '-');
            assertTrue(dark.containsKey(css), k + ": no rule ColorDefinition#" + css + " in css/dark.css");
        }
    }

    @Test
    void everyTimelineColourBelongsToAKind() throws Exception {
        Set<String> expected = new TreeSet<>(OTHERS);
        for (EventKind k : EventKind.values()) expected.add(k.colorId());
        Set<String> defined = new TreeSet<>(matches(DEFINITION, Files.readString(RepoPaths.repo()
                .resolve("plugin.xml"))).keySet());
        defined.removeIf(id -> !id.startsWith(EventKind.COLOR_ID_PREFIX));
        assertEquals(expected, defined, "plugin.xml's timeline colours");
        Set<String> darkIds = new TreeSet<>();
        for (String id : matches(DARK_RULE, Files.readString(RepoPaths.repo().resolve("css/dark.css"))).keySet()) {
            if (id.startsWith(EventKind.COLOR_ID_PREFIX.replace('.', '-'))) darkIds.add(id.replace('-', '.'));
        }
        assertEquals(expected, darkIds, "css/dark.css's timeline colours");
    }

    @Test
    void computeAndCommunicationAreDeclaredPerKind() {
        for (EventKind k : EventKind.values()) {
            assertEquals(k.role() == EventKind.Role.COMPUTE, k.isCompute(), k.toString());
            assertEquals(k.role() == EventKind.Role.COMMUNICATION, k.isCommunication(), k.toString());
        }
        assertTrue(EventKind.MATMUL.isCompute() && EventKind.P2P.isCommunication() && !EventKind.COPY.isCompute()
                && !EventKind.COPY.isCommunication());
    }
}
