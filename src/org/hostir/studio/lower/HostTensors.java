package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Allocate;
import org.hostir.studio.ir.host.CollectivePermute;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.Deallocate;
import org.hostir.studio.ir.host.EndCoalescing;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.GetCurrentStream;
import org.hostir.studio.ir.host.HirAliasSelect;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.LaunchKernel;
import org.hostir.studio.ir.host.MoeCombine;
import org.hostir.studio.ir.host.MoeDispatch;
import org.hostir.studio.ir.host.OpaqueNode;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.PostOnStream;
import org.hostir.studio.ir.host.SetCurrentStream;
import org.hostir.studio.ir.host.ShardByStream;
import org.hostir.studio.ir.host.ShareMemHandles;
import org.hostir.studio.ir.host.StartCoalescing;
import org.hostir.studio.ir.host.SymmetricContiguousView;
import org.hostir.studio.ir.host.Synchronize;
import org.hostir.studio.ir.host.Wait;

/**
 * The tensors a Host IR node reads and writes as nvFuser's Expr inputs and outputs list them, not counting its
 * nested bodies: what AllocateAndDeallocate's dominator walks look at. {@code hir::Allocate} lists its tensor as an
 * input (csrc/host_ir/ir.cpp:505-516 at 81c4b22fd), so it uses the tensor without defining it; a Deallocate holds
 * its tensor as an attribute, and a Wait its Communication ({@code Expr(passkey, {}, {}, {expr})}, ir.cpp:253-254),
 * so a Wait is no use of the communication's buffers: they are freed before it, as nvFuser frees them.
 */
final class HostTensors {
    private HostTensors() {}

    /** The tensors {@code n} defines (its Expr outputs). */
    static List<TensorView> written(HostNode n) {
        return switch (n) {
            case HostOp o -> List.of(o.op().output());
            case Communication c -> List.of(c.output());
            case CollectivePermute c -> List.of(c.output());
            case ShardByStream s -> List.of(s.out());
            case SymmetricContiguousView s -> List.of(s.out());
            case HirAliasSelect s -> List.of(s.out());
            case PostOnStream p -> p.outputs();
            case LaunchKernel k -> k.outputs();
            case MoeDispatch m -> m.outputs();
            case MoeCombine m -> List.of(m.out());
            case P2PCommunication p -> p.type() == P2PCommunication.Type.RECV ? List.of(p.buffer()) : List.of();
            case Allocate _, Deallocate _, ForLoop _, IfThenElse _, GetCurrentStream _, SetCurrentStream _,
                 Synchronize _, StartCoalescing _, EndCoalescing _, ShareMemHandles _, Wait _, OpaqueNode _ -> List.of();
        };
    }

    /** Every tensor {@code n} reads or writes (its Expr inputs and outputs). */
    static List<TensorView> touched(HostNode n) {
        // the switch's value in a local, not an argument: Eclipse's compiler (the Tycho build) emits an
        // unverifiable stack map for a switch expression inside a constructor call
        List<TensorView> read = switch (n) {
            case HostOp o -> o.op().inputs();
            case Communication c -> List.of(c.input());
            case CollectivePermute c -> List.of(c.input());
            case ShardByStream s -> List.of(s.in());
            case SymmetricContiguousView s -> List.of(s.in());
            case HirAliasSelect s -> List.of(s.in());
            case PostOnStream p -> p.inputs();
            case LaunchKernel k -> k.inputs();
            case MoeDispatch m -> List.of(m.in(), m.topkIdx(), m.topkWeights());
            case MoeCombine m -> m.inputs();
            case P2PCommunication p -> p.type() == P2PCommunication.Type.SEND ? List.of(p.buffer()) : List.of();
            case Allocate a -> List.of(a.buffer());
            case Deallocate _, ForLoop _, IfThenElse _, GetCurrentStream _, SetCurrentStream _, Synchronize _,
                 StartCoalescing _, EndCoalescing _, ShareMemHandles _, Wait _, OpaqueNode _ -> List.<TensorView>of();
        };
        List<TensorView> all = new ArrayList<>(read);
        all.addAll(written(n));
        return all;
    }
}
