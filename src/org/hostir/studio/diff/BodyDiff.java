package org.hostir.studio.diff;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.hostir.studio.diff.DiffNode.Match;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.StructuralHash;
import org.hostir.studio.ir.print.HostIrPrinter;

/**
 * Diffs one body (a list of sibling nodes) of the before program against the corresponding body of the after
 * program, recursing into the bodies of the nodes it pairs.
 *
 * <p>Pairing, within this body only (a node that moves to another body shows as removed there and added here,
 * until {@link CrossBodyMoves} pairs the two):
 * <ol>
 * <li>by id: a pass that keeps a node keeps its id (DESIGN 2.1), so an equal id is the strongest evidence;</li>
 * <li>the nodes left over, by {@link StructuralHash#of(HostNode)}: a pass that rebuilds a node the same way gives
 * it a fresh id but the same structure. Each after node in order takes the first unpaired before node with its
 * hash, so runs of identical nodes pair up in order;</li>
 * <li>everything else is added or removed.</li>
 * </ol>
 * A pair is CHANGED when paired by id but its own fields (bodies aside) differ, or when anything in its bodies
 * changed or moved; otherwise UNCHANGED. A pair matched by structure has equal fields by construction.
 *
 * <p>Order: the after body's order. Paired nodes whose relative order changed are flagged {@code moved}; the
 * moved set is the complement of a longest subsequence that kept its order, the smallest such set. A removed node goes
 * right after the nearest unmoved paired node that preceded it in the before body (first if none), so removed
 * lines sit before added ones at the same place, as in a unified diff.
 */
final class BodyDiff {
    private static final int NONE = -1;

    private BodyDiff() {}

    static List<DiffNode> diff(List<HostNode> before, List<HostNode> after) {
        int[] partner = new int[after.size()];
        Match[] how = new Match[after.size()];
        Arrays.fill(partner, NONE);
        Arrays.fill(how, Match.NONE);
        pairById(before, after, partner, how);
        pairByStructure(before, after, partner, how);
        boolean[] moved = moved(partner);

        // removedAt.get(0): removed nodes before every after node; removedAt.get(j + 1): those after after[j].
        List<List<Integer>> removedAt = new ArrayList<>();
        for (int j = 0; j <= after.size(); j++) removedAt.add(new ArrayList<>());
        int[] partnerOfBefore = new int[before.size()];
        Arrays.fill(partnerOfBefore, NONE);
        for (int j = 0; j < after.size(); j++) {
            if (partner[j] != NONE) partnerOfBefore[partner[j]] = j;
        }
        int slot = 0;
        for (int i = 0; i < before.size(); i++) {
            int j = partnerOfBefore[i];
            if (j == NONE) removedAt.get(slot).add(i);
            else if (!moved[j]) slot = j + 1;
        }

        List<DiffNode> out = new ArrayList<>(Math.max(before.size(), after.size()));
        for (int i : removedAt.get(0)) out.add(removed(before.get(i)));
        for (int j = 0; j < after.size(); j++) {
            out.add(partner[j] == NONE ? added(after.get(j))
                    : paired(before.get(partner[j]), after.get(j), how[j], moved[j]));
            for (int i : removedAt.get(j + 1)) out.add(removed(before.get(i)));
        }
        return List.copyOf(out);
    }

    private static void pairById(List<HostNode> before, List<HostNode> after, int[] partner, Match[] how) {
        // Ids are unique in a well-formed program; the queue keeps a malformed one deterministic anyway.
        Map<Integer, ArrayDeque<Integer>> byId = new HashMap<>();
        for (int i = 0; i < before.size(); i++) {
            byId.computeIfAbsent(before.get(i).id(), k -> new ArrayDeque<>()).add(i);
        }
        for (int j = 0; j < after.size(); j++) {
            ArrayDeque<Integer> candidates = byId.get(after.get(j).id());
            if (candidates != null && !candidates.isEmpty()) {
                partner[j] = candidates.poll();
                how[j] = Match.ID;
            }
        }
    }

    private static void pairByStructure(List<HostNode> before, List<HostNode> after, int[] partner, Match[] how) {
        boolean[] taken = new boolean[before.size()];
        for (int p : partner) {
            if (p != NONE) taken[p] = true;
        }
        Map<Long, ArrayDeque<Integer>> byShape = new HashMap<>();
        for (int i = 0; i < before.size(); i++) {
            if (!taken[i]) byShape.computeIfAbsent(StructuralHash.of(before.get(i)), k -> new ArrayDeque<>()).add(i);
        }
        if (byShape.isEmpty()) return;
        for (int j = 0; j < after.size(); j++) {
            if (partner[j] != NONE) continue;
            ArrayDeque<Integer> candidates = byShape.get(StructuralHash.of(after.get(j)));
            if (candidates != null && !candidates.isEmpty()) {
                partner[j] = candidates.poll();
                how[j] = Match.STRUCTURE;
            }
        }
    }

    /**
     * The after nodes to flag as moved: paired ones outside a longest subsequence whose before positions increase
     * (patience method, O(n log n); ties resolve the same way every time).
     */
    private static boolean[] moved(int[] partner) {
        int[] paired = IntStream.range(0, partner.length).filter(j -> partner[j] != NONE).toArray();
        int[] tails = new int[paired.length]; // tails[len - 1]: position in paired ending the best run of len
        int[] previous = new int[paired.length];
        int length = 0;
        for (int p = 0; p < paired.length; p++) {
            int value = partner[paired[p]];
            int lo = 0, hi = length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (partner[paired[tails[mid]]] < value) lo = mid + 1;
                else hi = mid;
            }
            previous[p] = lo > 0 ? tails[lo - 1] : NONE;
            tails[lo] = p;
            if (lo == length) length++;
        }
        boolean[] moved = new boolean[partner.length];
        for (int j : paired) moved[j] = true;
        for (int p = length > 0 ? tails[length - 1] : NONE; p != NONE; p = previous[p]) moved[paired[p]] = false;
        return moved;
    }

    static DiffNode paired(HostNode before, HostNode after, Match how, boolean moved) {
        List<List<HostNode>> beforeBodies = before.bodies();
        List<List<HostNode>> afterBodies = after.bodies();
        List<List<DiffNode>> bodies = new ArrayList<>();
        boolean inside = false;
        // Nodes of one kind have the same bodies; the max only matters for an id reused across kinds.
        for (int k = 0; k < Math.max(beforeBodies.size(), afterBodies.size()); k++) {
            List<DiffNode> body = diff(k < beforeBodies.size() ? beforeBodies.get(k) : List.of(),
                    k < afterBodies.size() ? afterBodies.get(k) : List.of());
            inside |= body.stream().anyMatch(DiffNode::changed);
            bodies.add(body);
        }
        boolean own = how != Match.STRUCTURE && !withoutBodies(before).equals(withoutBodies(after));
        DiffKind kind = own || inside ? DiffKind.CHANGED : DiffKind.UNCHANGED;
        return new DiffNode(kind, how, moved, before, after, HostIrPrinter.headline(after), bodies);
    }

    private static DiffNode added(HostNode node) {
        List<List<DiffNode>> bodies = node.bodies().stream()
                .map(body -> body.stream().map(BodyDiff::added).toList()).toList();
        return new DiffNode(DiffKind.ADDED, Match.NONE, false, null, node, HostIrPrinter.headline(node), bodies);
    }

    private static DiffNode removed(HostNode node) {
        List<List<DiffNode>> bodies = node.bodies().stream()
                .map(body -> body.stream().map(BodyDiff::removed).toList()).toList();
        return new DiffNode(DiffKind.REMOVED, Match.NONE, false, node, null, HostIrPrinter.headline(node), bodies);
    }

    /** The node with empty bodies, so that record equality compares only its own fields. */
    private static HostNode withoutBodies(HostNode node) {
        return switch (node) {
            case ForLoop f -> f.withBody(List.of());
            case IfThenElse i -> new IfThenElse(i.id(), i.predicate(), List.of(), List.of());
            default -> {
                // A new node kind with bodies must be added above, or its children would count as its own fields.
                if (!node.bodies().isEmpty()) {
                    throw new IllegalStateException("no body-less form for " + node.getClass().getSimpleName());
                }
                yield node;
            }
        };
    }
}
