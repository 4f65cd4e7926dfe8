package org.hostir.studio.ui.editor.model;

import java.util.LinkedHashMap;
import java.util.Map;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/**
 * Node positions in the file's {@code layout} section, which the engine keeps verbatim and ignores:
 * {@code "layout": {"nodes": {"tv0": [x, y], "op:tv2": [x, y]}}}. Tensor names are identifiers, so the
 * {@code op:} prefix (an op is named by its output) cannot collide. Other keys of the section are kept.
 */
public final class Layout {
    public static final String NODES = "nodes";
    public static final String OP_PREFIX = "op:";

    private Layout() {}

    public record Position(int x, int y) {}

    public static String tensorKey(String tensor) { return tensor; }

    public static String opKey(String output) { return OP_PREFIX + output; }

    /** The stored positions; malformed entries are skipped (the layout is a hint, never an error). */
    public static Map<String, Position> positions(JsonObject layout) {
        Map<String, Position> out = new LinkedHashMap<>();
        if (layout == null || !(layout.get(NODES) instanceof JsonObject nodes)) return out;
        for (Map.Entry<String, JsonElement> e : nodes.entrySet()) {
            if (e.getValue() instanceof JsonArray a && a.size() == 2 && a.get(0).isJsonPrimitive()
                    && a.get(1).isJsonPrimitive()) {
                try {
                    out.put(e.getKey(), new Position(a.get(0).getAsInt(), a.get(1).getAsInt()));
                } catch (RuntimeException ex) {
                    // not a number: ignore this entry
                }
            }
        }
        return out;
    }

    public static JsonObject withPositions(JsonObject layout, Map<String, Position> positions) {
        JsonObject out = layout == null ? new JsonObject() : layout.deepCopy();
        JsonObject nodes = new JsonObject();
        for (Map.Entry<String, Position> e : positions.entrySet()) {
            JsonArray a = new JsonArray();
            a.add(e.getValue().x());
            a.add(e.getValue().y());
            nodes.add(e.getKey(), a);
        }
        out.add(NODES, nodes);
        return out;
    }

    static JsonObject rename(JsonObject layout, String from, String to) {
        if (layout == null) return null;
        Map<String, Position> old = positions(layout);
        if (old.isEmpty()) return layout;
        Map<String, Position> out = new LinkedHashMap<>();
        old.forEach((k, v) -> out.put(k.equals(from) ? to : k.equals(opKey(from)) ? opKey(to) : k, v));
        return withPositions(layout, out);
    }
}
