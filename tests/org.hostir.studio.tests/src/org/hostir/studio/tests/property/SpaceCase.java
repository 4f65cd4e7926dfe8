package org.hostir.studio.tests.property;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One fusion of the generated space ({@link SpaceGenerator}): the {@code .fusion} text, the devices and lowering
 * options it runs with, and what it was made to exercise (op template, dtype, sharding change, mesh, layout), for
 * reports and for grouping failures into classes.
 */
record SpaceCase(String id, String template, String dtype, String change, String mesh, String layout, int devices,
                 Map<String, String> options, String text, long seed) {

    /** The command line that replays it with the CLI, after saving {@link #text()} as {@code FILE}. */
    String replay(String file) {
        return "./hirstudio run " + file + " --backend cpu --devices " + devices + new TreeMap<>(options).entrySet()
                .stream().map(e -> " --option " + e.getKey() + "=" + e.getValue()).collect(Collectors.joining());
    }

    /** The {@code --option} arguments, in a stable order. */
    String[] optionArguments() {
        return new TreeMap<>(options).entrySet().stream()
                .flatMap(e -> java.util.stream.Stream.of("--option", e.getKey() + "=" + e.getValue()))
                .toArray(String[]::new);
    }

    /** What the case exercises, without the extents: failures of one class share it. */
    String shape() {
        return template + " " + dtype + " " + change + " " + mesh + " " + layout;
    }
}
