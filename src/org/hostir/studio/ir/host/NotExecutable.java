package org.hostir.studio.ir.host;

import java.util.Optional;

/**
 * Why the Studio cannot run a node it reads and prints, declared once so that every backend refuses alike: the
 * nodes nvFuser executes with code or data its dump does not contain. Empty for every node the evaluator runs.
 */
public final class NotExecutable {
    private NotExecutable() {}

    /** The reason {@code node} cannot run, or empty when it can. */
    public static Optional<String> reason(HostNode node) {
        return Optional.ofNullable(switch (node) {
            case LaunchKernel k -> "nvFuser's LaunchKernel runs the compiled CUDA kernel of segment " + k.groupId()
                    + ", which a Host IR dump does not contain";
            case MoeDispatch d -> d.routing().isPresent() ? null : "Dispatch " + d.id() + " was read from a dump,"
                    + " which does not print its outputs recv_topk_idx, recv_topk_weights, recv_src_idx,"
                    + " n_tokens_to_rank and n_tokens_from_rank (communication.cpp:294-304)";
            case MoeCombine c -> c.counts().isPresent() ? null : "Combine " + c.id() + " was read from a dump,"
                    + " which does not print its inputs n_tokens_to_rank, n_tokens_from_rank and num_tokens"
                    + " (communication.cpp:360-369)";
            case OpaqueNode o -> o.reason() + " (a statement the dump reader kept as text)";
            case Allocate _, Deallocate _, ForLoop _, IfThenElse _, GetCurrentStream _, SetCurrentStream _,
                 Synchronize _, HirAliasSelect _, ShardByStream _, Communication _, CollectivePermute _,
                 SymmetricContiguousView _, P2PCommunication _, StartCoalescing _, EndCoalescing _, ShareMemHandles _, Wait _, PostOnStream _,
                 HostOp _ -> null;
        });
    }
}
