package org.hostir.studio.tests.reliability;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A fusion file moved onto another mesh, as a user would edit it: {@code "mesh": "all"} becomes {@code mesh},
 * an explicit mesh's device k becomes {@code mesh[k]}, and when the mesh is smaller than the run's devices the
 * device-count symbol {@code D} becomes the mesh's size (a sub-mesh of the run's devices).
 */
record MeshVariant(List<Integer> mesh, int devices) {
    private static final Pattern EXPLICIT = Pattern.compile("\"mesh\": \\[([0-9, ]*)\\]");

    String label() {
        return mesh.stream().map(String::valueOf).collect(Collectors.joining(",", "[", "]")) + "/" + devices;
    }

    /** The rewritten text, or empty when an explicit mesh names a device this mesh has no position for. */
    Optional<String> apply(String text) {
        Matcher m = EXPLICIT.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            List<Integer> ids = List.of(m.group(1).split(",\\s*")).stream().map(Integer::parseInt).toList();
            if (ids.stream().anyMatch(k -> k >= mesh.size())) return Optional.empty();
            m.appendReplacement(out, Matcher.quoteReplacement("\"mesh\": " + json(ids.stream().map(mesh::get)
                    .toList())));
        }
        m.appendTail(out);
        String s = out.toString().replace("\"mesh\": \"all\"", "\"mesh\": " + json(mesh));
        if (mesh.size() < devices) {
            s = s.replace("\"extent\": \"D\"", "\"extent\": " + mesh.size())
                    .replace("\"D\"", "{\"extent\": " + mesh.size() + "}");
        }
        return Optional.of(s);
    }

    private static String json(List<Integer> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(", ", "[", "]"));
    }
}
