package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.TensorSubstitution;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CommunicationType;

/**
 * Gather, Allgather, Scatter and ReduceScatter move contiguous slices, so the sharded axis must be outermost (Stream
 * axes, sliced away by the loop, and reduction axes, absent at run time, do not count). Otherwise the set is wrapped
 * in {@code Set.Permute}s: permute the sharded axis out, communicate, permute back (seed 003's Scatter pipeline); a
 * reduce-scatter on an inner axis likewise becomes permute, reduce-scatter of the permuted input, permute back
 * (nvFuser's ReorderShardedAxisPass: {@code [i0 DIDx(i1) i2] -> [i0 r1 DIDx(i2)]} is rewritten through
 * {@code [i2 i0 DIDx(i1)] -> [DIDx(i2) i0 r1]}).
 */
public final class ReorderShardedAxisPass implements FusionPass {
    public String name() { return "ReorderShardedAxis"; }

    public Fusion run(Fusion fusion, LoweringContext context) {
        IrBuilder b = new IrBuilder(fusion.counters(), fusion.symbols());
        List<FusionOp> ops = new ArrayList<>();
        Map<Integer, TensorView> renamed = new HashMap<>();
        for (FusionOp original : fusion.ops()) {
            List<FusionOp> group = new ArrayList<>();
            for (FusionOp piece : PermutedResharding.split(b, TensorSubstitution.apply(original, renamed))) {
                group.addAll(reorder(b, TensorSubstitution.apply(piece, renamed), renamed));
            }
            ops.addAll(PermutedResharding.composePermutes(group));
        }
        List<TensorView> outputs = fusion.outputs().stream().map(t -> TensorSubstitution.apply(t, renamed)).toList();
        return new Fusion(fusion.name(), fusion.inputs(), ops, outputs, b.symbols(), b.counters());
    }

    /** One op as it is, or with its gathered, scattered or reduce-scattered axis permuted out and back. */
    private static List<FusionOp> reorder(IrBuilder b, FusionOp op, Map<Integer, TensorView> renamed) {
        if (op instanceof FusionOp.Reduction r && innerScatteredAxis(r) > 0) {
            return reorderReduceScatter(b, r, innerScatteredAxis(r), renamed);
        }
        checkScatteredAxisOutermost(op);
        int axis = op instanceof FusionOp.Set s && !s.isPermute() && Resharding.isResharding(s)
                && Resharding.didToStreamAxis(s).isEmpty() ? misplacedAxis(s) : -1;
        if (axis <= 0) return List.of(op);
        FusionOp.Set set = (FusionOp.Set) op;
        List<Integer> perm = outermostFirst(axis, set.output().rank());
        TensorView in = set.input();
        List<IterDomain> inAxes = in.allocationAxes();
        TensorView permuted = b.tensor(null, in.dtype(), MemoryType.GLOBAL, in.mesh(),
                perm.stream().map(p -> b.copy(inAxes.get(p))).toList());
        TensorView out = set.output();
        TensorView communicated = b.tensor(null, out.dtype(), MemoryType.GLOBAL, out.mesh(),
                perm.stream().map(p -> b.copy(out.axis(p))).toList());
        List<IterDomain> back = new ArrayList<>();
        for (int p = 0; p < out.rank(); p++) back.add(null);
        for (int i = 0; i < perm.size(); i++) back.set(perm.get(i), b.copy(communicated.axis(i)));
        // the restored tensor stands for out (a fusion output, often): it keeps out's loop domain, as nvFuser's
        // output keeps its own and only gets another allocation domain
        TensorView restored = out.loop() == null ? b.tensor(null, out.dtype(), MemoryType.LOCAL, out.mesh(), back)
                : b.tensor(out.dtype(), MemoryType.LOCAL, out.mesh(), back, out.loop().replay(back,
                        b::nextIterDomainId));
        renamed.put(out.id(), restored);
        return List.of(new FusionOp.Set(permuted, in, perm), new FusionOp.Set(communicated, permuted),
                new FusionOp.Set(restored, communicated, inverse(perm)));
    }

    /**
     * The run-time position of the gathered or scattered axis when an axis holding data comes before it, else -1
     * (getCommunicationLayout, {@link CommunicationLayout}). The axis is the one of the parallel type the set
     * changes (on a 2-D mesh a DIDy axis may come first). The axis a stream loop slices away (the output's Stream
     * axis, and the input axis at the same place: a plain set keeps positions) does not count: inside the loop the
     * communication sees the slices; a chunk keeps it.
     */
    static int misplacedAxis(FusionOp.Set s) {
        TensorView sharded = switch (CommunicationPlanner.plan(s).get(0).type()) {
            case SCATTER -> s.output();
            case GATHER, ALLGATHER -> s.input();
            // getCommunicationLayout: nvFuser does not reorder for AllToAll either (CommunicationPlanner checks it)
            case BROADCAST, REDUCE, ALLREDUCE, REDUCE_SCATTER, SEND_RECV, ALL_TO_ALL -> null;
        };
        if (sharded == null) return -1;
        int axis = ShardingChange.position(sharded, ShardingChange.of(s).type());
        if (axis < 0) return -1;
        // a chunk of a split Stream axis keeps the axis, so it counts (SplitStream)
        int sliced = SplitStream.of(s.output()).isPresent() ? -1
                : s.output().streamAxis().map(a -> s.output().axes().indexOf(a)).orElse(-1);
        return CommunicationLayout.misplacedPosition(sharded, axis, sliced);
    }

    /**
     * The position (among all axes) of the axis a reduce-scatter scatters when it is not outermost among the
     * non-reduction axes, else -1. With a logical Stream axis on the output the loop slices first and is left
     * alone.
     */
    private static int innerScatteredAxis(FusionOp.Reduction r) {
        TensorView out = r.output();
        // a chunk of a split Stream axis keeps the axis, so the loop does not make the scattered axis outermost
        boolean sliced = out.streamAxis().isPresent() && SplitStream.of(out).isEmpty();
        if (!Resharding.isCommunicatingReduction(r) || sliced || r.axes().size() != 1) return -1;
        if (!reductionsTrail(r)) return -1;
        // the scattered axis is the one of the type the reduction changes (on a 2-D mesh a DIDy axis may come
        // first); getCommunicationLayout moves it first past any axis that holds data
        int axis = ShardingChange.position(out, ShardingChange.of(r).type());
        return axis >= 0 && CommunicationLayout.misplacedPosition(out, axis, -1) >= 0 ? axis : -1;
    }

    /**
     * Whether the input's reduction axes, if any, come after all the output's axes: an rFactor'd partial at nvFuser
     * 2026-04 ends in the local part of its contracted axis, {@code rS{K/D}rf}, which the op that made it reduced
     * ({@code SplitReduction}); the permute leaves it out, as a set's output drops reduction axes (newValLike).
     */
    private static boolean reductionsTrail(FusionOp.Reduction r) {
        List<IterDomain> in = r.input().axes();
        int n = r.output().rank();
        return in.size() >= n && in.subList(0, n).stream().noneMatch(IterDomain::isReduction)
                && in.subList(n, in.size()).stream().allMatch(IterDomain::isReduction);
    }

    /** Permute the scattered axis out of the input, reduce-scatter it outermost, permute the result back. */
    private static List<FusionOp> reorderReduceScatter(IrBuilder b, FusionOp.Reduction r, int axis,
                                                       Map<Integer, TensorView> renamed) {
        TensorView in = r.input();
        TensorView out = r.output();
        int reduced = r.axes().get(0);
        List<Integer> perm = outermostFirst(axis, out.rank()); // the input's trailing reductions left out
        TensorView permuted = b.tensor(null, in.dtype(), MemoryType.GLOBAL, in.mesh(),
                perm.stream().map(p -> b.copy(in.axis(p))).toList());
        TensorView scattered = b.tensor(null, out.dtype(), MemoryType.GLOBAL, out.mesh(),
                perm.stream().map(p -> b.copy(out.axis(p))).toList());
        List<Integer> kept = perm.stream().filter(p -> p != reduced).toList(); // scattered's run-time axes
        List<Integer> back = new ArrayList<>();
        List<IterDomain> restoredAxes = new ArrayList<>();
        for (int i = 0; i < out.rank(); i++) {
            if (i == reduced) continue;
            back.add(kept.indexOf(i));
            restoredAxes.add(b.copy(out.axis(i)));
        }
        TensorView restored = b.tensor(null, out.dtype(), MemoryType.LOCAL, out.mesh(), restoredAxes);
        renamed.put(out.id(), restored);
        return List.of(new FusionOp.Set(permuted, in, perm),
                new FusionOp.Reduction(r.op(), scattered, permuted, List.of(perm.indexOf(reduced))),
                new FusionOp.Set(restored, scattered, back));
    }

    /**
     * A ReduceScatter hands out outermost slices of the reduced tensor, so its scattered axis must come first
     * (Stream axes, sliced away by their loop, aside). An inner scattered axis is permuted out above
     * ({@link #reorderReduceScatter}); where that rewrite does not apply (a Stream output, an input that keeps a
     * reduction axis) the reduction is refused rather than lowered to a ReduceScatter of the wrong axis.
     */
    private static void checkScatteredAxisOutermost(FusionOp op) {
        if (!(op instanceof FusionOp.Reduction r) || !Resharding.isCommunicatingReduction(r)) return;
        if (CommunicationPlanner.plan(r).get(0).type() != CommunicationType.REDUCE_SCATTER) return;
        TensorView out = r.output();
        ShardingChange change = ShardingChange.of(r);
        int axis = ShardingChange.position(out, change.type());
        // getCommunicationLayout: axes before it that hold data (isLocalSizeOne); a Stream axis is sliced away by
        // its loop
        int sliced = out.streamAxis().map(a -> out.axes().indexOf(a)).orElse(-1);
        int position = axis < 0 ? -1 : CommunicationLayout.misplacedPosition(out, axis, sliced);
        if (position > 0) {
            throw new LoweringException(op, "sharding.reduce-scatter-axis", "a ReduceScatter scatters its output's"
                    + " outermost axis, but " + Texts.quote(out.label()) + "'s " + change.type().fileName()
                    + " axis is axis "
                    + position + " of the reduced"
                    + " tensor; move it first (an inner scattered axis is permuted out only without a"
                    + " Stream axis and when the input keeps no reduction axis)");
        }
    }

    private static List<Integer> outermostFirst(int axis, int rank) {
        List<Integer> perm = new ArrayList<>(List.of(axis));
        for (int i = 0; i < rank; i++) {
            if (i != axis) perm.add(i);
        }
        return perm;
    }

    private static List<Integer> inverse(List<Integer> perm) {
        Integer[] inv = new Integer[perm.size()];
        for (int i = 0; i < perm.size(); i++) inv[perm.get(i)] = i;
        return List.of(inv);
    }
}
