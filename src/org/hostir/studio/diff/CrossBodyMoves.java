package org.hostir.studio.diff;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.diff.DiffNode.Match;
import org.hostir.studio.ir.host.HostNode;

/**
 * Finds the nodes a pass moved to another body (into a loop's body, out of it, from one branch to the other):
 * {@link BodyDiff} pairs within one body only, so such a node first shows as removed where it was and added where
 * it is. A node id is kept by the pass that keeps the node (DESIGN 2.1), so a removed node and an added node with
 * the same id, each the only one with that id among the removed and the added nodes, are one node that moved.
 * The pair becomes one diff node where the node is now, {@link Match#ID_ELSEWHERE} and flagged moved, its bodies
 * diffed as any pair's are; the removed one is dropped where it was (its body goes with it: a node moved with its
 * body is one move). Ancestors keep their kinds: the body the node left and the one it joined both changed.
 */
final class CrossBodyMoves {
    private CrossBodyMoves() {}

    static List<DiffNode> apply(List<DiffNode> nodes) {
        Map<Integer, List<DiffNode>> removed = new HashMap<>(), added = new HashMap<>();
        collect(nodes, removed, added);
        Map<Integer, HostNode> movedFrom = new HashMap<>();
        removed.forEach((id, rs) -> {
            List<DiffNode> as = added.get(id);
            if (rs.size() == 1 && as != null && as.size() == 1
                    && rs.get(0).before().getClass() == as.get(0).after().getClass()) {
                movedFrom.put(id, rs.get(0).before());
            }
        });
        return movedFrom.isEmpty() ? nodes : rebuild(nodes, movedFrom);
    }

    /** The removed and added nodes by id, at any depth (inside removed and added subtrees too). */
    private static void collect(List<DiffNode> nodes, Map<Integer, List<DiffNode>> removed,
                                Map<Integer, List<DiffNode>> added) {
        for (DiffNode d : nodes) {
            if (d.kind() == DiffKind.REMOVED) removed.computeIfAbsent(d.before().id(), k -> new ArrayList<>()).add(d);
            if (d.kind() == DiffKind.ADDED) added.computeIfAbsent(d.after().id(), k -> new ArrayList<>()).add(d);
            for (List<DiffNode> body : d.bodies()) collect(body, removed, added);
        }
    }

    private static List<DiffNode> rebuild(List<DiffNode> nodes, Map<Integer, HostNode> movedFrom) {
        List<DiffNode> out = new ArrayList<>(nodes.size());
        for (DiffNode d : nodes) {
            if (d.kind() == DiffKind.REMOVED && movedFrom.containsKey(d.before().id())) continue;
            if (d.kind() == DiffKind.ADDED && movedFrom.containsKey(d.after().id())) {
                out.add(BodyDiff.paired(movedFrom.get(d.after().id()), d.after(), Match.ID_ELSEWHERE, true));
                continue;
            }
            List<List<DiffNode>> bodies = d.bodies().stream().map(b -> rebuild(b, movedFrom)).toList();
            out.add(bodies.equals(d.bodies()) ? d
                    : new DiffNode(d.kind(), d.match(), d.moved(), d.before(), d.after(), d.headline(), bodies));
        }
        return out;
    }
}
