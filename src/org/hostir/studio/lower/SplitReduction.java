package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.TensorView;

/**
 * A reduction over an axis sharded by an outer split (each device holds {@code extent / D} of it) as nvFuser
 * lowers it: the local part is reduced first (its rFactor, a Reduction segment) into partial sums with one
 * element per device, {@code [.., DIDx{D}, ..]}, which the collective then reduces (Allreduce, Reduce or
 * ReduceScatter), as for a logical DIDx axis.
 */
final class SplitReduction {
    private SplitReduction() {}

    /** The DID loop axis that shards the reduced axis by an outer split, or null. */
    static LoopDomain.Axis splitSharded(FusionOp.Reduction r) {
        TensorView in = r.input();
        if (r.axes().size() != 1 || in.loop() == null || Resharding.isPartial(r)) return null;
        int axis = r.axes().get(0);
        for (int p = 0; p < in.loop().loop().size(); p++) {
            LoopDomain.Axis a = in.loop().loop().get(p);
            LoopDomain.Source src = in.loop().source(p);
            if (a.isDeviceDim() && src.logicalPosition() == axis
                    && src.derivation() == LoopDomain.Derivation.OUTER_OF_OUTER_SPLIT
                    && !in.axis(axis).extent().equals(a.extent())) {
                return a;
            }
        }
        return null;
    }

    /** The local reduction into partial sums, then the reduction over the devices' partial sums. */
    static List<FusionOp> rFactor(IrBuilder b, FusionOp.Reduction r) {
        TensorView in = r.input();
        int axis = r.axes().get(0);
        LoopDomain.Axis device = splitSharded(r);
        List<IterDomain> axes = new ArrayList<>();
        for (int i = 0; i < in.rank(); i++) {
            IterDomain a = in.axis(i);
            axes.add(i == axis ? b.iterDomain((Extent) device.extent(), IterType.ITERATION, device.parallelType())
                    : b.copy(a));
        }
        TensorView partial = b.tensor(null, r.output().dtype(), MemoryType.GLOBAL, in.mesh(), axes);
        return List.of(new FusionOp.Reduction(r.op(), partial, in, List.of(axis)),
                new FusionOp.Reduction(r.op(), r.output(), partial, List.of(axis)));
    }
}
