package org.hostir.studio.file;

import java.util.ArrayList;
import java.util.List;

/**
 * Lines of a fusion file by JSON path ({@code $.tensors[1].axes[0]}), so that diagnostics found after parsing
 * (names, shapes, meshes) still point at the line to fix. A path that goes beyond the file resolves to the
 * line of its deepest existing part.
 */
public final class SourceMap {
    /** For documents built in memory: every line is 0 (unknown). */
    public static final SourceMap NONE = new SourceMap(null);

    private final JsonNode root;

    SourceMap(JsonNode root) {
        this.root = root;
    }

    /** 1-based line of the value at {@code path}, 0 when unknown. */
    public int line(String path) {
        if (root == null || path == null || !path.startsWith("$")) return 0;
        JsonNode node = root;
        for (String segment : segments(path)) {
            JsonNode next = null;
            if (segment.startsWith("[")) {
                if (node instanceof JsonNode.JArray a) {
                    try {
                        int i = Integer.parseInt(segment.substring(1, segment.length() - 1));
                        if (i >= 0 && i < a.items().size()) next = a.items().get(i);
                    } catch (NumberFormatException e) {
                        next = null;
                    }
                }
            } else if (node instanceof JsonNode.JObject o) {
                next = o.get(segment);
            }
            if (next == null) break;
            node = next;
        }
        return node.line();
    }

    /** "$.tensors[1].axes" -> ["tensors", "[1]", "axes"]. */
    private static List<String> segments(String path) {
        List<String> out = new ArrayList<>();
        int i = 1;
        while (i < path.length()) {
            char c = path.charAt(i);
            if (c == '.') {
                int j = i + 1;
                while (j < path.length() && path.charAt(j) != '.' && path.charAt(j) != '[') j++;
                out.add(path.substring(i + 1, j));
                i = j;
            } else if (c == '[') {
                int j = path.indexOf(']', i);
                if (j < 0) break;
                out.add(path.substring(i, j + 1));
                i = j + 1;
            } else {
                break;
            }
        }
        return out;
    }
}
