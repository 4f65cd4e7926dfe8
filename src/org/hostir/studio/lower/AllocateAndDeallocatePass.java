package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.IfThenElse;

/**
 * nvFuser 2026-04's AllocateAndDeallocate (csrc/host_ir/allocate_and_deallocate.cpp:361-369 at 81c4b22fd), the
 * first of {@code hir::runPasses}. insertAllocations (lines 187-233): a matmul's or linear's output that no
 * dominating node defines is allocated right before it ({@code hir::Allocate}), so the evaluator always finds it
 * preallocated. insertDeallocations (lines 299-323, inner scopes since #6007): every tensor a node reads or writes,
 * fusion inputs and outputs aside, is freed right after the lowest common ancestor of its uses in the
 * post-dominator tree (lines 141-181, 238-297), the latest point that follows every use; inside a loop body that is
 * inside the body. A Wait lists no tensor (csrc/host_ir/ir.cpp:253-254), so a communication's buffers are freed
 * between it and its Wait. nvFuser inserts the frees of one point by iterating an {@code unordered_map} keyed by
 * {@code TensorView*}, each at {@code std::next} of the point (lines 312-321): their order follows the tensors'
 * addresses, which no lowering can know; here in tensor order.
 */
public final class AllocateAndDeallocatePass implements HostPass {
    public String name() { return "AllocateAndDeallocate"; }

    public HostIrContainer run(HostIrContainer program, LoweringContext context) {
        HostIrBuilder h = new HostIrBuilder(new IrBuilder(program.counters(), program.symbols()))
                .withProvenance(program.provenance());
        List<HostNode> allocated = insertAllocations(program.topLevel(), new HashSet<>(), h);
        Set<Integer> kept = new HashSet<>();
        program.inputs().forEach(t -> kept.add(t.id()));
        program.outputs().forEach(t -> kept.add(t.id()));
        List<HostNode> top = insertDeallocations(allocated, kept, h);
        return new HostIrContainer(program.inputs(), program.outputs(), top, program.hostUnits(), program.symbols(),
                h.ir().counters(), h.provenance());
    }

    /** The dominator-tree walk: {@code defined} holds the outputs of the nodes that dominate this scope. */
    private static List<HostNode> insertAllocations(List<HostNode> scope, Set<Integer> defined, HostIrBuilder h) {
        Set<Integer> here = new HashSet<>(defined);
        List<HostNode> out = new ArrayList<>();
        for (HostNode n : scope) {
            if (n instanceof HostOp op && needsOutputPreallocation(op.op()) && !here.contains(op.op().output().id())) {
                out.add(h.inherit(op.id(), h.allocateHostIr(op.op().output())));
            }
            out.add(withBodies(n, body -> insertAllocations(body, here, h)));
            HostTensors.written(n).forEach(t -> here.add(t.id()));
        }
        return out;
    }

    /** needsOutputPreallocation (line 183): MatmulOp and LinearOp. */
    private static boolean needsOutputPreallocation(FusionOp op) {
        return op instanceof FusionOp.Matmul || op instanceof FusionOp.Linear;
    }

    /** A node of the post-dominator tree: its scope and place, its parent (the next node, or the enclosing one). */
    private record Place(List<HostNode> scope, int index, Place parent, int depth) {}

    private static List<HostNode> insertDeallocations(List<HostNode> top, Set<Integer> kept, HostIrBuilder h) {
        Map<Integer, Place> lca = new TreeMap<>();
        Map<Integer, TensorView> tensors = new LinkedHashMap<>();
        collect(top, null, kept, lca, tensors);
        IdentityHashMap<List<HostNode>, Map<Integer, List<TensorView>>> frees = new IdentityHashMap<>();
        for (var e : lca.entrySet()) {
            Place p = e.getValue();
            frees.computeIfAbsent(p.scope(), k -> new TreeMap<>()).computeIfAbsent(p.index(), k -> new ArrayList<>())
                    .add(tensors.get(e.getKey()));
        }
        return rebuild(top, frees, h);
    }

    /** Walks a scope from its end (PostDominatorTree::build), recording each tensor's lowest common ancestor. */
    private static void collect(List<HostNode> scope, Place enclosing, Set<Integer> kept, Map<Integer, Place> lca,
                                Map<Integer, TensorView> tensors) {
        Place parent = enclosing;
        for (int i = scope.size() - 1; i >= 0; i--) {
            HostNode n = scope.get(i);
            Place p = new Place(scope, i, parent, parent == null ? 0 : parent.depth() + 1);
            for (TensorView t : HostTensors.touched(n)) {
                if (kept.contains(t.id())) continue;
                tensors.putIfAbsent(t.id(), t);
                lca.merge(t.id(), p, AllocateAndDeallocatePass::common);
            }
            for (List<HostNode> body : n.bodies()) collect(body, p, kept, lca, tensors);
            parent = p;
        }
    }

    /** findLca (lines 270-292): climb the deeper one, then both, until they meet. */
    private static Place common(Place a, Place b) {
        while (a.depth() > b.depth()) a = a.parent();
        while (b.depth() > a.depth()) b = b.parent();
        while (a != b) {
            a = a.parent();
            b = b.parent();
        }
        return a;
    }

    private static List<HostNode> rebuild(List<HostNode> scope,
                                          IdentityHashMap<List<HostNode>, Map<Integer, List<TensorView>>> frees,
                                          HostIrBuilder h) {
        Map<Integer, List<TensorView>> after = frees.getOrDefault(scope, Map.of());
        List<HostNode> out = new ArrayList<>();
        for (int i = 0; i < scope.size(); i++) {
            HostNode n = scope.get(i);
            out.add(withBodies(n, body -> rebuild(body, frees, h)));
            for (TensorView t : after.getOrDefault(i, List.of())) out.add(h.inherit(n.id(), h.deallocate(t)));
        }
        return out;
    }

    private static HostNode withBodies(HostNode n, UnaryOperator<List<HostNode>> f) {
        return switch (n) {
            case ForLoop loop -> loop.withBody(f.apply(loop.body()));
            case IfThenElse i -> new IfThenElse(i.id(), i.predicate(), f.apply(i.thenBody()), f.apply(i.elseBody()));
            default -> n;
        };
    }
}
