package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorSubstitution;
import org.hostir.studio.ir.TensorView;

/**
 * An expression that both computes and changes sharding gets a {@code set} after it when it has one input
 * ({@link InsertReshardingAfter}, nvFuser's whereToReshard) and in front otherwise, so every resharding
 * expression is a set or a single-axis reduction that maps to one collective (seed 001's AG_matmul: the
 * matmul on [S, DIDx D, M, K] becomes an allgathering set into [Stream S, D, M, K] and a local matmul).
 */
public final class DecomposeReshardingsPass implements FusionPass {
    public String name() { return "DecomposeReshardings"; }

    public Fusion run(Fusion fusion, LoweringContext context) {
        IrBuilder b = new IrBuilder(fusion.counters(), fusion.symbols());
        List<FusionOp> ops = new ArrayList<>();
        for (FusionOp op : fusion.ops()) {
            if (op instanceof FusionOp.Reduction r && SplitReduction.splitSharded(r) != null) {
                ops.addAll(SplitReduction.rFactor(b, r));
                continue;
            }
            if (op instanceof FusionOp.Set || Resharding.isCommunicatingReduction(op)
                    || !Resharding.isResharding(op)) {
                ops.add(op);
                continue;
            }
            if (InsertReshardingAfter.applies(op)) { // whereToReshard: one input, one output
                ops.addAll(InsertReshardingAfter.decompose(b, op));
                continue;
            }
            Map<Integer, TensorView> gathered = new HashMap<>();
            for (int i = 0; i < op.inputs().size(); i++) {
                TensorView in = op.inputs().get(i);
                if (!Resharding.changes(op, i) || gathered.containsKey(in.id())) continue;
                TensorView moved = resharded(b, op, i);
                ops.add(new FusionOp.Set(moved, in));
                gathered.put(in.id(), moved);
            }
            FusionOp local = TensorSubstitution.apply(op, gathered);
            if (Resharding.isResharding(local)) {
                throw new LoweringException(op, "sharding.output-change",
                        "shards its output differently from its inputs; compute first, then set the result");
            }
            ops.add(local);
        }
        return new Fusion(fusion.name(), fusion.inputs(), ops, fusion.outputs(), b.symbols(), b.counters());
    }

    /** The input as the op's output wants it placed: its axes, with the consumer's parallel types and mesh. */
    private static TensorView resharded(IrBuilder b, FusionOp op, int i) {
        TensorView in = op.inputs().get(i);
        TensorView out = op.output();
        int[] map = AxisMap.of(op, i);
        List<IterDomain> axes = new ArrayList<>();
        for (int p = 0; p < in.rank(); p++) {
            IterDomain a = in.axis(p);
            if (a.isReduction()) continue;
            ParallelType pt = a.isDeviceDim() ? ParallelType.SERIAL : a.parallelType();
            if (map[p] != AxisMap.NONE && !out.axis(map[p]).isReduction()) pt = out.axis(map[p]).parallelType();
            axes.add(b.copy(a).withParallelType(pt));
        }
        return SplitStream.streamedLike(b, in.dtype(), out.mesh(), axes, out);
    }
}
