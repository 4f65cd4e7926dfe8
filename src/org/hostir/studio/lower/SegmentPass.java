package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.TensorSubstitution;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;

/**
 * From fusion to Host IR for one rank. Each standalone host op (set, binary, reduction, matmul, linear; every
 * resharding expression) becomes its own top-level node; runs of other ops (broadcast) become a HostUnit posted
 * with {@code PostOnStream}. Ops whose tensors live on meshes without this rank are skipped.
 *
 * <p>Memory: every tensor is global, as nvFuser's HostIrLower::lower makes the container's tensors, unless the
 * file declares it local (seed 003's Scatter pipeline, whose test sets one local) and it only passes from one host
 * op to another: fusion inputs, outputs, communication buffers, HostUnit tensors and stream-pipelined tensors are
 * global whatever the file says.
 */
public final class SegmentPass implements Pass {
    public String name() { return "Segment"; }

    @Override
    public Snapshot apply(Snapshot before, LoweringContext context) {
        if (!(before instanceof Snapshot.OfFusion(var fusion, _))) {
            throw new IllegalStateException("Segment turns a fusion into Host IR");
        }
        return new Snapshot.OfHost(run(fusion, context.rank()), context.generation());
    }

    public HostIrContainer run(Fusion fusion, int rank) {
        Map<Integer, TensorView> placed = placeInMemory(fusion);
        HostIrBuilder h = new HostIrBuilder(new IrBuilder(fusion.counters(), fusion.symbols()));
        List<HostNode> top = new ArrayList<>();
        List<FusionOp> unit = new ArrayList<>();
        List<FusionOp> ops = fusion.ops();
        for (int i = 0; i < ops.size(); i++) {
            FusionOp op = TensorSubstitution.apply(ops.get(i), placed);
            if (!involves(op, rank)) continue;
            if (isStandalone(op)) {
                flush(h, unit, fusion, placed, top);
                top.add(h.from(i, h.op(op)));
            } else {
                unit.add(op);
            }
        }
        flush(h, unit, fusion, placed, top);
        return h.container(swap(fusion.inputs(), placed), swap(fusion.outputs(), placed), top);
    }

    /** nvFuser's standalone host ops; broadcast (and any op we would compile) goes into a HostUnit. */
    static boolean isStandalone(FusionOp op) {
        return !(op instanceof FusionOp.Broadcast) || Resharding.isResharding(op);
    }

    private static boolean involves(FusionOp op, int rank) {
        if (op.output().mesh() == null || op.output().mesh().contains(rank)) return true;
        return op.inputs().stream().anyMatch(t -> t.mesh() != null && t.mesh().contains(rank));
    }

    private static void flush(HostIrBuilder h, List<FusionOp> unit, Fusion fusion, Map<Integer, TensorView> placed,
                              List<HostNode> top) {
        if (unit.isEmpty()) return;
        Set<Integer> produced = new HashSet<>();
        LinkedHashSet<TensorView> inputs = new LinkedHashSet<>();
        for (FusionOp op : unit) {
            for (TensorView in : op.inputs()) {
                if (!produced.contains(in.id())) inputs.add(in);
            }
            produced.add(op.output().id());
        }
        List<TensorView> outputs = new ArrayList<>();
        Set<Integer> inUnit = new HashSet<>(produced);
        for (FusionOp op : unit) {
            TensorView out = op.output();
            boolean usedOutside = fusion.outputs().stream().anyMatch(t -> t.id() == out.id())
                    || fusion.ops().stream().filter(o -> !inUnit.contains(o.output().id()))
                    .anyMatch(o -> o.inputs().stream().anyMatch(t -> t.id() == out.id()));
            if (usedOutside) outputs.add(out);
        }
        top.add(h.postOnStream(List.copyOf(inputs), outputs, unit));
        unit.clear();
    }

    private static Map<Integer, TensorView> placeInMemory(Fusion fusion) {
        Set<Integer> global = new HashSet<>();
        fusion.inputs().forEach(t -> global.add(t.id()));
        fusion.outputs().forEach(t -> global.add(t.id()));
        for (FusionOp op : fusion.ops()) {
            if (Resharding.isResharding(op) || !isStandalone(op)) {
                op.inputs().forEach(t -> global.add(t.id()));
                global.add(op.output().id());
            }
        }
        Map<Integer, TensorView> placed = new HashMap<>();
        for (TensorView tv : fusion.tensors()) {
            boolean isGlobal = global.contains(tv.id()) || tv.streamAxis().isPresent()
                    || tv.memoryType() == MemoryType.GLOBAL;
            // symmetric memory stays symmetric (csrc/host_ir/lower.cpp:166-173 at 81c4b22fd; SymmetricMemory)
            MemoryType m = tv.memoryType() == MemoryType.SYMMETRIC ? MemoryType.SYMMETRIC
                    : isGlobal ? MemoryType.GLOBAL : MemoryType.LOCAL;
            placed.put(tv.id(), tv.withMemoryType(m));
        }
        return placed;
    }

    private static List<TensorView> swap(List<TensorView> tvs, Map<Integer, TensorView> placed) {
        return tvs.stream().map(t -> TensorSubstitution.apply(t, placed)).toList();
    }
}
