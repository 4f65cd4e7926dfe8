package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.TensorSubstitution;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CommunicationType;

/**
 * A {@code set} that permutes and changes sharding at once. A collective moves flat buffers and never permutes, so
 * the permute is a local copy. nvFuser's ReorderShardedAxisPass gives a communication whose input layout does not
 * suit it a local copy {@code set(input)} in the layout it needs, and one whose output layout differs from what
 * the communication delivers a copy after it (makeCommunicationLayoutCompliant,
 * csrc/preseg_passes/reorder_sharded_axis.cpp:42-56 and 72-83 at 81c4b22fd). Here: where the input's own layout
 * suits the communication (getCommunicationLayout needs no reorder), communicate in the input's axis order and
 * permute the result; otherwise permute the input locally into the output's order, on the input's mesh, and
 * communicate from that (a Stream output then gets the pipelined allgather on the same positions). An AllToAll is left to the planner, which
 * refuses to permute in it ({@code sharding.alltoall-permute}).
 */
final class PermutedResharding {
    private PermutedResharding() {}

    /** {@code op} as a local permute then a plain resharding set, or unchanged when it is not such a set. */
    static List<FusionOp> split(IrBuilder b, FusionOp op) {
        if (!(op instanceof FusionOp.Set s) || !s.isPermute() || !Resharding.isResharding(s)) return List.of(op);
        if (CommunicationPlanner.plan(s).get(0).type() == CommunicationType.ALL_TO_ALL) {
            return List.of(op);
        }
        TensorView in = s.input();
        TensorView out = s.output();
        // the input's layout suits the communication as it is: communicate in the input's axis order, then permute
        // (tried on a scratch builder, so that the other way does not skip the ids)
        FusionOp.Set first = communicateFirst(new IrBuilder(b.counters(), b.symbols()), s);
        if (Resharding.didToStreamAxis(first).isEmpty() && ReorderShardedAxisPass.misplacedAxis(first) <= 0) {
            first = communicateFirst(b, s);
            return List.of(first, new FusionOp.Set(out, first.output(), s.permutation()));
        }
        List<IterDomain> kept = in.allocationAxes();
        TensorView local = b.tensor(null, in.dtype(), MemoryType.GLOBAL, in.mesh(),
                s.permutation().stream().map(p -> b.copy(kept.get(p))).toList());
        return List.of(new FusionOp.Set(local, in, s.permutation()), new FusionOp.Set(out, local));
    }

    /** The set from the input into the output's sharding, in the input's axis order. */
    private static FusionOp.Set communicateFirst(IrBuilder b, FusionOp.Set s) {
        TensorView out = s.output();
        List<IterDomain> moved = new ArrayList<>();
        for (int i = 0; i < s.permutation().size(); i++) moved.add(b.copy(out.axis(s.permutation().indexOf(i))));
        return new FusionOp.Set(SplitStream.streamedLike(b, out.dtype(), out.mesh(), moved, out), s.input());
    }

    /**
     * Two permutes in a row where the first's output feeds only the second (the local permute above, then
     * ReorderShardedAxis's permute of the sharded axis outermost) become one; one that composes to the identity
     * goes, its readers taking its input.
     */
    static List<FusionOp> composePermutes(List<FusionOp> ops) {
        List<FusionOp> out = new ArrayList<>();
        Map<Integer, TensorView> renamed = new HashMap<>();
        for (FusionOp next : ops) {
            FusionOp op = TensorSubstitution.apply(next, renamed);
            if (!out.isEmpty() && out.getLast() instanceof FusionOp.Set first && first.isPermute()
                    && op instanceof FusionOp.Set second && second.isPermute()
                    && second.input().id() == first.output().id() && readOnce(ops, first.output())) {
                out.removeLast();
                List<Integer> composed = second.permutation().stream().map(first.permutation()::get).toList();
                boolean identity = IntStream.range(0, composed.size()).allMatch(i -> composed.get(i) == i);
                if (identity) renamed.put(second.output().id(), first.input());
                else out.add(new FusionOp.Set(second.output(), first.input(), composed));
                continue;
            }
            out.add(op);
        }
        return out;
    }

    private static boolean readOnce(List<FusionOp> ops, TensorView tv) {
        return ops.stream().filter(o -> o.inputs().stream().anyMatch(t -> t.id() == tv.id())).count() == 1;
    }
}
