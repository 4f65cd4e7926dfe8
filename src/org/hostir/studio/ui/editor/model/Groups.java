package org.hostir.studio.ui.editor.model;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/**
 * Groups of nodes in the file's {@code layout} section, the graph's compound nodes: {@code "groups": {"mlp":
 * {"nodes": ["op:tv2", "tv2"], "collapsed": true}}}. A group is drawn as a box around its nodes, or collapsed into
 * one box that the arrows to its nodes meet; like positions it is a hint the engine ignores, so a malformed entry is
 * skipped and a node that is gone simply drops out. A node belongs to one group at most (the first that names it).
 */
public final class Groups {
    public static final String GROUPS = "groups";
    /** The layout key of a group's own box (a collapsed group's place is stored under it, as a node's). */
    public static final String PREFIX = "group:";

    private Groups() {}

    /** One group: its name, its nodes' keys, and whether it is shown collapsed. */
    public record Group(String name, List<String> nodes, boolean collapsed) {
        public Group {
            nodes = List.copyOf(nodes);
        }

        public String key() { return PREFIX + name; }
    }

    /** The groups stored in {@code layout}, in file order, limited to nodes {@code present} (and not yet grouped). */
    public static Map<String, Group> of(JsonObject layout, Set<String> present) {
        Map<String, Group> out = new LinkedHashMap<>();
        if (layout == null || !(layout.get(GROUPS) instanceof JsonObject groups)) return out;
        Set<String> taken = new HashSet<>();
        for (Map.Entry<String, JsonElement> e : groups.entrySet()) {
            if (!(e.getValue() instanceof JsonObject g) || !(g.get("nodes") instanceof JsonArray a)) continue;
            List<String> nodes = new ArrayList<>();
            for (JsonElement n : a) {
                if (n.isJsonPrimitive() && present.contains(n.getAsString()) && taken.add(n.getAsString())) {
                    nodes.add(n.getAsString());
                }
            }
            boolean collapsed = g.get("collapsed") instanceof JsonElement c && c.isJsonPrimitive()
                    && c.getAsJsonPrimitive().isBoolean() && c.getAsBoolean();
            if (!nodes.isEmpty()) out.put(e.getKey(), new Group(e.getKey(), nodes, collapsed));
        }
        return out;
    }

    /** {@code layout} with {@code group} added or replaced. */
    public static JsonObject with(JsonObject layout, Group group) {
        JsonObject out = layout == null ? new JsonObject() : layout.deepCopy();
        JsonObject groups = out.get(GROUPS) instanceof JsonObject g ? g : new JsonObject();
        JsonObject entry = new JsonObject();
        JsonArray nodes = new JsonArray();
        group.nodes().forEach(nodes::add);
        entry.add("nodes", nodes);
        entry.addProperty("collapsed", group.collapsed());
        groups.add(group.name(), entry);
        out.add(GROUPS, groups);
        return out;
    }

    /** A group name not used yet: {@code group1}, {@code group2}, ... */
    public static String freshName(JsonObject layout) {
        JsonObject groups = layout != null && layout.get(GROUPS) instanceof JsonObject g ? g : new JsonObject();
        int i = 1;
        while (groups.has("group" + i)) i++;
        return "group" + i;
    }
}
