package org.hostir.studio.exec;

import org.hostir.studio.ir.host.P2PCommunication;

/**
 * One send or receive of a point-to-point transfer with {@code peer}; {@code nodeId} the P2PCommunication node that
 * posted it (its bar names that node, also inside a coalesced group: nvFuser posts each send and receive at its
 * P2PCommunication, csrc/host_ir/evaluator.cpp:404-431 at 81c4b22fd), or -1 where the op's own node posted it.
 */
public record P2PCall(P2PCommunication.Type type, Buffer buffer, int peer, int nodeId) {
    public P2PCall(P2PCommunication.Type type, Buffer buffer, int peer) {
        this(type, buffer, peer, -1);
    }

    /** The node this call's bar names: its own posting node, else {@code opNode} (the op's). */
    public int node(int opNode) {
        return nodeId >= 0 ? nodeId : opNode;
    }
}
