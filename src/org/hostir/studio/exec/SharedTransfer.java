package org.hostir.studio.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.ShareMemHandles;

/** The point-to-point calls a ShareMemHandles names, collected as the evaluator reaches them. */
final class SharedTransfer {
    private final ShareMemHandles node;
    private final Map<Integer, P2PCall> calls = new HashMap<>();
    private final List<Integer> order = new ArrayList<>();

    SharedTransfer(ShareMemHandles node) { this.node = node; }

    ShareMemHandles node() { return node; }

    boolean names(P2PCommunication p) {
        return node.communications().stream().anyMatch(c -> c.id() == p.id());
    }

    void add(P2PCommunication p, P2PCall call) {
        if (calls.put(p.id(), call) == null) order.add(p.id());
    }

    boolean complete() { return calls.size() == node.communications().size(); }

    /** The calls in the order the program reached them. */
    List<P2PCall> calls() { return order.stream().map(calls::get).toList(); }
}
