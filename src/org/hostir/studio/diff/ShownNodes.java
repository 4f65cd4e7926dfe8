package org.hostir.studio.diff;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;

/**
 * The node a view shows for a node of a compared program: {@link ProgramComparison} diffs {@link Canonical} copies
 * (numbered afresh, the right side's node ids from {@link ProgramComparison#RIGHT_NODE_BASE}), but a tree beside a
 * text should label each row as that text prints it ({@code Communication 0}, not {@code Communication 16777216};
 * issue 35). Canonical keeps a program's shape, one node for each node and one body for each body, so the node at
 * the same place in the shown program is the one meant. Where the shapes differ (not a canonical copy) a node
 * stands for itself.
 */
public final class ShownNodes {
    private final Map<HostNode, HostNode> shown = new IdentityHashMap<>();

    private ShownNodes() {}

    /** Nodes of {@code compared} (a canonical copy of {@code shown}) shown as {@code shown}'s, by place. */
    public static ShownNodes of(HostIrContainer compared, HostIrContainer shown) {
        return new ShownNodes().and(compared, shown);
    }

    /** These and the nodes of another canonical copy, by place in the program it copies. */
    public ShownNodes and(HostIrContainer compared, HostIrContainer shownProgram) {
        pair(compared.topLevel(), shownProgram.topLevel());
        return this;
    }

    private void pair(List<HostNode> compared, List<HostNode> shownBody) {
        if (compared.size() != shownBody.size()) return;
        for (int i = 0; i < compared.size(); i++) {
            HostNode c = compared.get(i);
            HostNode s = shownBody.get(i);
            shown.put(c, s);
            List<List<HostNode>> cb = c.bodies();
            List<List<HostNode>> sb = s.bodies();
            if (cb.size() != sb.size()) continue;
            for (int b = 0; b < cb.size(); b++) pair(cb.get(b), sb.get(b));
        }
    }

    /** The node shown for {@code node}: the one at its place in the shown program, else itself. */
    public HostNode of(HostNode node) {
        return shown.getOrDefault(node, node);
    }

    /** {@link #of} as a function. */
    public UnaryOperator<HostNode> function() { return this::of; }
}
