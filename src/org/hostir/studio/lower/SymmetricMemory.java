package org.hostir.studio.lower;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.TensorSubstitution;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.HostUnit;
import org.hostir.studio.ir.host.PostOnStream;

/**
 * Where the lowering puts tensors in symmetric memory (nvFuser's {@code MemoryType::Symmetric}, #5520): a tensor the
 * file declares {@code memory: symmetric} stays so where every other host tensor becomes global
 * (HostIrLower::lower, csrc/host_ir/lower.cpp:166-173; Fusion::addInput/addOutput, csrc/fusion.cpp:349, 377;
 * convertSingleOpToCommunication, csrc/host_ir/lower_to_communication.cpp:654-659 at 81c4b22fd), and with the CUDA
 * backend and offset_stream_indexing_by_rank off, the output of a resharding op pipelined in a stream loop is
 * allocated there (addTensorAllocations, csrc/host_ir/pass/stream_parallel_type.cpp:270-274): the CUDA backend's
 * Broadcast and Allgather write through the output's symmetric memory (SymMemForBroadcast, SymMemForAllgather,
 * csrc/multidevice/ipc_handle.cpp:159, 344).
 */
final class SymmetricMemory {
    private SymmetricMemory() {}

    /**
     * addTensorAllocations' rule over a program's top level before its stream loops are built: each resharding op
     * that {@code pipelined} says goes into a loop gets its output in symmetric memory, everywhere it is named.
     */
    static HostIrContainer streamedOutputs(HostIrContainer program, LoweringOptions options,
                                           Predicate<HostNode> pipelined) {
        if (options.backend() != CommunicatorBackend.CUDA || options.offsetStreamIndexingByRank()) return program;
        Map<Integer, TensorView> symmetric = new HashMap<>();
        for (HostNode n : program.topLevel()) {
            if (n instanceof HostOp o && Resharding.isResharding(o.op()) && pipelined.test(n)) {
                symmetric.put(o.op().output().id(), o.op().output().withMemoryType(MemoryType.SYMMETRIC));
            }
        }
        return symmetric.isEmpty() ? program : substitute(program, symmetric);
    }

    /** {@code program} with tensors replaced (by id) in its top-level ops, host units and inputs and outputs. */
    static HostIrContainer substitute(HostIrContainer program, Map<Integer, TensorView> r) {
        Map<Integer, HostUnit> units = new HashMap<>();
        for (HostUnit u : program.hostUnits()) units.put(u.number(), unit(u, r));
        List<HostNode> top = program.topLevel().stream().map(n -> node(n, units, r)).toList();
        return new HostIrContainer(tensors(program.inputs(), r), tensors(program.outputs(), r), top,
                program.hostUnits().stream().map(u -> units.get(u.number())).toList(), program.symbols(),
                program.counters(), program.provenance());
    }

    /** Before the stream loops are built the top level holds ops and kernels, whose tensors are renamed. */
    private static HostNode node(HostNode n, Map<Integer, HostUnit> units, Map<Integer, TensorView> r) {
        if (n instanceof HostOp o) return new HostOp(o.id(), TensorSubstitution.apply(o.op(), r));
        if (n instanceof PostOnStream p) return new PostOnStream(p.id(), units.getOrDefault(p.unit().number(),
                unit(p.unit(), r)), tensors(p.inputs(), r), tensors(p.outputs(), r), p.launch());
        return n;
    }

    private static HostUnit unit(HostUnit u, Map<Integer, TensorView> r) {
        return new HostUnit(u.number(), tensors(u.inputs(), r), tensors(u.outputs(), r),
                u.ops().stream().map(op -> TensorSubstitution.apply(op, r)).toList());
    }

    private static List<TensorView> tensors(List<TensorView> tvs, Map<Integer, TensorView> r) {
        return tvs.stream().map(t -> TensorSubstitution.apply(t, r)).toList();
    }
}
