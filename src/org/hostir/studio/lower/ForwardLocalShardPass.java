package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.TensorSubstitution;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Allocate;
import org.hostir.studio.ir.host.Deallocate;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HirAliasSelect;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.IfThenElse;

/**
 * In the P2P allgather's loop, the iteration that owns the slice copies its own shard into the gathered buffer
 * ({@code IF StreamIdx == rank: Tg = Set(shard)}) and then computes on {@code Tg}. When nothing else ever reads
 * the gathered buffer, that copy only delays the first computation: this pass moves the ops that follow the
 * {@code IF} into both branches, the owning branch reading the shard itself, and drops the copy. Off by
 * default ({@code forwardLocalShard}), so the seeds' pipeline prints as nvFuser's.
 */
public final class ForwardLocalShardPass implements HostPass {
    private static final String NAME = "ForwardLocalShard";

    public static final LoweringOption<Boolean> FORWARD_LOCAL_SHARD = LoweringOption.flag("forwardLocalShard", false,
            "Forward local shard", "the P2P allgather's owning iteration computes on its own shard instead of"
                    + " copying it into a gathered buffer that nothing else reads", NAME);

    public String name() { return NAME; }

    @Override
    public List<LoweringOption<?>> options() { return List.of(FORWARD_LOCAL_SHARD); }

    public HostIrContainer run(HostIrContainer program, LoweringContext context) {
        if (!context.options().get(FORWARD_LOCAL_SHARD)) return program;
        HostIrBuilder h = new HostIrBuilder(new IrBuilder(program.counters(), program.symbols()))
                .withProvenance(program.provenance());
        List<HostNode> top = rewrite(program.topLevel(), program, h);
        if (top.equals(program.topLevel())) return program;
        return new HostIrContainer(program.inputs(), program.outputs(), top, program.hostUnits(), program.symbols(),
                h.ir().counters(), h.provenance());
    }

    private List<HostNode> rewrite(List<HostNode> nodes, HostIrContainer program, HostIrBuilder h) {
        List<HostNode> out = new ArrayList<>();
        for (HostNode n : nodes) {
            out.add(n instanceof ForLoop f ? f.withBody(forward(rewrite(f.body(), program, h), program, h)) : n);
        }
        return out;
    }

    /** The loop body with the first forwardable local copy forwarded, or the body itself. */
    private List<HostNode> forward(List<HostNode> body, HostIrContainer program, HostIrBuilder h) {
        for (int i = 0; i < body.size(); i++) {
            if (!(body.get(i) instanceof IfThenElse ite) || ite.thenBody().size() != 2
                    || !(ite.thenBody().get(0) instanceof HirAliasSelect shardSelect)
                    || !(ite.thenBody().get(1) instanceof HostOp copy)
                    || !(copy.op() instanceof FusionOp.Set set) || set.isPermute()
                    || set.input().id() != shardSelect.out().id()) {
                continue;
            }
            TensorView slice = set.output(), shard = set.input();
            HirAliasSelect sliceSelect = selectOf(body.subList(0, i), slice);
            if (sliceSelect == null) continue;
            int j = i + 1;
            while (j < body.size() && (body.get(j) instanceof HirAliasSelect || body.get(j) instanceof HostOp)) j++;
            List<HostNode> after = body.subList(i + 1, j);
            if (!readsOnly(after, slice)) continue;
            Set<HostNode> allowed = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            allowed.add(sliceSelect);
            allowed.add(copy);
            allowed.addAll(after);
            allowed.addAll(ite.elseBody());
            if (!unusedElsewhere(program, sliceSelect.in(), slice, allowed)) continue;
            List<HostNode> owning = new ArrayList<>(List.of(shardSelect));
            for (HostNode n : after) owning.add(clone(n, Map.of(slice.id(), shard), h));
            List<HostNode> other = new ArrayList<>(ite.elseBody());
            other.addAll(after);
            List<HostNode> result = new ArrayList<>(body.subList(0, i));
            result.add(new IfThenElse(ite.id(), ite.predicate(), owning, other));
            result.addAll(body.subList(j, body.size()));
            return result;
        }
        return body;
    }

    private static HirAliasSelect selectOf(List<HostNode> nodes, TensorView out) {
        for (HostNode n : nodes) {
            if (n instanceof HirAliasSelect s && s.out().id() == out.id()) return s;
        }
        return null;
    }

    /** Some op of {@code nodes} reads {@code slice}, none writes it or takes a view of it. */
    private static boolean readsOnly(List<HostNode> nodes, TensorView slice) {
        boolean read = false;
        for (HostNode n : nodes) {
            switch (n) {
                case HostOp o -> {
                    if (o.op().output().id() == slice.id()) return false;
                    read |= o.op().inputs().stream().anyMatch(t -> t.id() == slice.id());
                }
                case HirAliasSelect s -> {
                    if (s.in().id() == slice.id() || s.out().id() == slice.id()) return false;
                }
                default -> { }
            }
        }
        return read;
    }

    /**
     * True when the gathered buffer is an intermediate and no node outside {@code allowed} touches it or its
     * slice (its allocation and deallocation aside): then the copy into it has no reader once forwarded.
     */
    private static boolean unusedElsewhere(HostIrContainer program, TensorView gathered, TensorView slice,
                                           Set<HostNode> allowed) {
        Set<Integer> ids = new HashSet<>(List.of(gathered.id(), slice.id()));
        if (program.inputs().stream().anyMatch(t -> ids.contains(t.id()))
                || program.outputs().stream().anyMatch(t -> ids.contains(t.id()))) {
            return false;
        }
        for (HostNode n : program.allNodes()) {
            if (n instanceof ForLoop || n instanceof IfThenElse || allowed.contains(n)) continue;
            if (n instanceof Allocate || n instanceof Deallocate) continue;
            if (InsertDeallocationsPass.touched(n).stream().anyMatch(t -> ids.contains(t.id()))) return false;
        }
        return true;
    }

    /** {@code n} under a new id, its inputs substituted; the provenance follows the original. */
    private static HostNode clone(HostNode n, Map<Integer, TensorView> substitution, HostIrBuilder h) {
        HostNode copy = switch (n) {
            case HirAliasSelect s -> new HirAliasSelect(h.ir().nextNodeId(), s.out(),
                    TensorSubstitution.apply(s.in(), substitution), s.axis(), s.index());
            case HostOp o -> new HostOp(h.ir().nextNodeId(), TensorSubstitution.apply(o.op(), substitution));
            default -> throw new IllegalStateException("not forwardable: " + n);
        };
        return h.inherit(n.id(), copy);
    }
}
