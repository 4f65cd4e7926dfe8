package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.BinaryOpType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;

/**
 * nvFuser's decomposeRowParallelLinearWithBias (csrc/preseg_passes/decompose_reshardings.cpp, lines 246-311 at
 * 81c4b22fd): a linear with a bias whose output has a parallelized reduction loop axis (its contracted axis
 * reduced over devices) becomes the linear without the bias, scheduled like the output, then the bias
 * broadcast over the leading axes and added once, after the reduction over the devices. Added inside the
 * linear, every device's partial product would carry it and the Allreduce would sum it D times.
 */
final class RowParallelBias {
    private RowParallelBias() {}

    /** A linear with a bias whose output loop domain has a parallelized reduction axis (lines 257-269). */
    static boolean applies(FusionOp op) {
        return op instanceof FusionOp.Linear l && l.bias() != null && l.output().loopDomain().loop().stream()
                .anyMatch(a -> a.iterType() == IterType.REDUCTION && a.parallelType() != ParallelType.SERIAL);
    }

    /**
     * The linear without bias into a tensor like the output, the bias broadcast to the output's rank, and their
     * sum into the output, which keeps its id and name and loses its reduction axes (nvFuser's new_out, a
     * pointwise result). The last op's output replaces the linear's wherever the fusion reads it.
     */
    static List<FusionOp> decompose(IrBuilder b, FusionOp.Linear linear) {
        TensorView out = linear.output();
        List<IterDomain> axes = out.axes().stream().map(b::copy).toList();
        LoopDomain loop = out.loop() == null ? null : out.loop().replay(axes, b::nextIterDomainId);
        TensorView withoutBias = b.tensor(out.dtype(), MemoryType.GLOBAL, out.mesh(), axes, loop);
        TensorView bias = linear.bias();
        List<IterDomain> biasAxes = bias.allocationAxes();
        int rank = out.allocationAxes().size();
        List<IterDomain> broadcastAxes = new ArrayList<>();
        List<Boolean> flags = new ArrayList<>();
        for (int i = 0; i < rank - biasAxes.size(); i++) {
            broadcastAxes.add(b.broadcast());
            flags.add(true);
        }
        for (IterDomain a : biasAxes) {
            broadcastAxes.add(b.copy(a));
            flags.add(false);
        }
        TensorView broadcasted = b.tensor(null, bias.dtype(), MemoryType.GLOBAL, bias.mesh(), broadcastAxes);
        TensorView newOut = out.withoutReductions();
        return List.of(new FusionOp.Linear(withoutBias, linear.input(), linear.weight(), null),
                new FusionOp.Broadcast(broadcasted, bias, flags),
                new FusionOp.Binary(BinaryOpType.ADD, newOut, withoutBias, broadcasted));
    }
}
