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
            case MoeDispatch d -> "nvFuser's MoeDispatch (mixture-of-experts token dispatch) is not modelled by the"
                    + " Studio's backends";
            case MoeCombine c -> "nvFuser's MoeCombine (mixture-of-experts combine) is not modelled by the Studio's"
                    + " backends";
            case OpaqueNode o -> o.reason() + " (a statement the dump reader kept as text)";
            case Allocate _, Deallocate _, ForLoop _, IfThenElse _, GetCurrentStream _, SetCurrentStream _,
                 Synchronize _, HirAliasSelect _, ShardByStream _, Communication _, CollectivePermute _,
                 SymmetricContiguousView _, P2PCommunication _, StartCoalescing _, EndCoalescing _, ShareMemHandles _, Wait _, PostOnStream _,
                 HostOp _ -> null;
        });
    }
}
