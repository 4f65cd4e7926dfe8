package org.hostir.studio.ir.host;

import java.util.List;

/**
 * nvFuser's {@code hir::ShareMemHandles}: before the CUDA backend's point-to-point transfers, the peers exchange
 * the IPC handles of the buffers they name. The P2P nodes it lists follow it in the same body; nvFuser prints
 * them inline. Here the copy engine learns addresses when a send is posted, so the evaluator uses the node only
 * to post the listed send and receive as one transfer.
 */
public record ShareMemHandles(int id, List<P2PCommunication> communications) implements HostNode {
    public ShareMemHandles {
        communications = List.copyOf(communications);
    }
}
