package org.hostir.studio.ir.host;

import java.util.List;

/**
 * A Host IR node. Every node has a stable id: a pass that keeps a node keeps its id, a new node gets a fresh one
 * from the builder. Communication-like nodes print their id ({@code Communication 39}), as nvFuser prints the
 * statement name.
 */
public sealed interface HostNode
        permits Allocate, Deallocate, ForLoop, IfThenElse, GetCurrentStream, SetCurrentStream, Synchronize,
        HirAliasSelect, ShardByStream, SymmetricContiguousView, Communication, CollectivePermute, P2PCommunication,
        StartCoalescing, EndCoalescing, ShareMemHandles, Wait, PostOnStream, HostOp, LaunchKernel, MoeDispatch,
        MoeCombine, OpaqueNode {

    int id();

    /** Nested bodies (loop body, then/else), empty for leaf nodes. */
    default List<List<HostNode>> bodies() { return List.of(); }
}
