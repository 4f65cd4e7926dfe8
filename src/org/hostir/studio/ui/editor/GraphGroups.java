package org.hostir.studio.ui.editor;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.eclipse.draw2d.IFigure;
import org.eclipse.draw2d.geometry.Rectangle;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.ui.editor.model.Groups;

/**
 * The graph's compound nodes: a {@link GroupFigure} per group of the file's layout section, and which nodes a
 * collapsed group hides (the arrows to them meet the group's box instead).
 */
final class GraphGroups {
    private final IFigure layer;
    private final Consumer<Groups.Group> toggle;
    private final Map<String, GroupFigure> figures = new LinkedHashMap<>();
    /** Each grouped node's group key. */
    private final Map<String, String> groupOf = new HashMap<>();

    GraphGroups(IFigure layer, Consumer<Groups.Group> toggle) {
        this.layer = layer;
        this.toggle = toggle;
    }

    /** Brings the figures up to the groups of {@code doc} over the nodes {@code present}. */
    void update(FusionDocument doc, Set<String> present) {
        Map<String, Groups.Group> next = new LinkedHashMap<>();
        Groups.of(doc.layout(), present).values().forEach(g -> next.put(g.key(), g));
        figures.entrySet().removeIf(e -> {
            boolean gone = !next.containsKey(e.getKey());
            if (gone) layer.remove(e.getValue());
            return gone;
        });
        groupOf.clear();
        next.forEach((k, g) -> {
            GroupFigure f = figures.get(k);
            if (f == null) {
                f = new GroupFigure(g, toggle);
                layer.add(f, 0);   // behind the nodes
                figures.put(k, f);
            } else {
                f.show(g);
            }
            for (String n : g.nodes()) groupOf.put(n, k);
        });
    }

    Map<String, GroupFigure> figures() { return figures; }

    private boolean collapsed(String group) { return group != null && figures.get(group).group().collapsed(); }

    /** Whether {@code node} is hidden in a collapsed group. */
    boolean hidden(String node) { return collapsed(groupOf.get(node)); }

    /** What an arrow to {@code node} is drawn to: its collapsed group's box, or the node. */
    String end(String node) { return hidden(node) ? groupOf.get(node) : node; }

    /** The expanded group {@code node} is drawn inside, or null. */
    String expandedGroup(String node) {
        String g = groupOf.get(node);
        return g == null || collapsed(g) ? null : g;
    }

    /** Frames every expanded group around its nodes' figures that are shown; one with none shown is hidden. */
    void frame(Map<String, NodePart> parts) {
        figures.forEach((k, f) -> {
            if (f.group().collapsed()) return;
            Rectangle all = null;
            for (String n : f.group().nodes()) {
                NodePart p = parts.get(n);
                if (p == null || !p.figure.isVisible()) continue;
                all = all == null ? p.figure.getBounds().getCopy() : all.union(p.figure.getBounds());
            }
            f.setVisible(all != null);
            if (all != null) f.frame(all);
        });
    }

    /** Where a collapsed group's box goes when it has no place yet: at its nodes' top left, if they have one. */
    Rectangle membersBounds(String group, Map<String, NodePart> parts, Set<String> placed) {
        Rectangle all = null;
        for (String n : figures.get(group).group().nodes()) {
            NodePart p = parts.get(n);
            if (p == null || !placed.contains(n)) continue;
            all = all == null ? p.figure.getBounds().getCopy() : all.union(p.figure.getBounds());
        }
        return all;
    }
}
