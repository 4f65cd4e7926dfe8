package org.hostir.studio.exec.tensor;

import java.util.Arrays;
import java.util.List;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.RFactorProduct;
import org.hostir.studio.ir.TensorView;

/**
 * The meaning of every fusion op on runtime tensors: the CPU backend runs ops with it and the reference
 * interpreter evaluates whole fusions with it. The op supplies the attributes (permutation, reduced axes,
 * broadcast flags) and, through {@link org.hostir.studio.ir.AxisMap}, how batched matmul pairs batch axes; the
 * tensors supply the sizes, so the same op runs on unsharded tensors and on a rank's local ones (where a DID
 * axis has size 1).
 *
 * <p>Each input tensor must have as many axes as its TensorView has non-reduction axes (the runtime convention
 * of {@link DenseTensor}); a mismatch is an {@link IllegalArgumentException} naming the op and the tensor.
 *
 * <p>Arithmetic: pointwise ops in float32; sum accumulates in double (a result within one float rounding of the
 * exact value); matmul and linear are float32 GEMMs ({@link Gemm}: OpenBLAS, or the Java kernel), rounding as
 * the GPU's GEMMs do, which the error-bounded tolerance counts on both sides (docs/validation.md). Results are
 * rounded to the output's dtype on store.
 */
public final class OpKernels {
    private OpKernels() {}

    /** Computes the op into a new contiguous tensor of the output's dtype. */
    public static DenseTensor compute(FusionOp op, List<DenseTensor> inputs) { return compute(op, inputs, null); }

    /**
     * Computes the op into {@code out} (a pre-allocated output, possibly a view of a larger tensor; its shape must
     * be the op's output shape) and returns it; with {@code out == null} allocates the output. The result is
     * computed in full before it is stored, so {@code out} may alias an input.
     */
    public static DenseTensor compute(FusionOp op, List<DenseTensor> inputs, DenseTensor out) {
        checkInputs(op, inputs);
        DenseTensor result = switch (op) {
            case FusionOp.Set s -> PointwiseKernels.set(s, inputs.get(0));
            case FusionOp.Unary u -> UnaryKernels.compute(u, inputs.get(0));
            case FusionOp.Where w -> ShapeKernels.where(w, inputs.get(0), inputs.get(1), inputs.get(2));
            case FusionOp.Squeeze q -> ShapeKernels.squeeze(q, inputs.get(0));
            case FusionOp.Expand e -> ShapeKernels.expand(e, inputs.get(0), out == null ? null : out.shape());
            case FusionOp.Reshape r -> ShapeKernels.reshape(r, inputs.get(0), out == null ? null : out.shape());
            case FusionOp.Binary b -> PointwiseKernels.binary(b, inputs.get(0), inputs.get(1));
            case FusionOp.Broadcast b -> PointwiseKernels.broadcast(b, inputs.get(0));
            case FusionOp.Reduction r -> ReductionKernel.compute(r, inputs.get(0));
            case FusionOp.Matmul m -> MatmulKernels.matmul(m, inputs.get(0), inputs.get(1));
            case FusionOp.Linear l -> MatmulKernels.linear(l, inputs.get(0), inputs.get(1),
                    l.bias() == null ? null : inputs.get(2));
            case FusionOp.IndexSelect s -> ShapeKernels.indexSelect(s, inputs.get(0), inputs.get(1));
            case FusionOp.TakeAlongAxis t -> ShapeKernels.takeAlongAxis(t, inputs.get(0), inputs.get(1));
            case FusionOp.TopK t -> TopKKernel.compute(t, inputs.get(0), out == null ? null : out.shape());
            case FusionOp.Scatter s -> ScatterKernel.compute(s, inputs.get(0), inputs.get(1), inputs.get(2));
            case FusionOp.GroupedMm g -> GroupedMmKernel.compute(g, inputs.get(0), inputs.get(1), inputs.get(2));
        };
        result = withRFactorAxis(op, result);
        checkOutputRank(op, result.rank());
        if (out == null) {
            result.roundInPlace();
            return result;
        }
        if (!Arrays.equals(out.shape, result.shape)) {
            throw new IllegalArgumentException(describe(op) + ": the output tensor has shape "
                    + Arrays.toString(out.shape) + " but the op computes " + Arrays.toString(result.shape));
        }
        out.copyFrom(result);
        return out;
    }

    /** The runtime shape of the op's output for these inputs, without computing it. */
    public static long[] outputShape(FusionOp op, List<DenseTensor> inputs) {
        checkInputs(op, inputs);
        long[] shape = switch (op) {
            case FusionOp.Set s -> PointwiseKernels.setShape(s, inputs.get(0));
            case FusionOp.Unary u -> inputs.get(0).shape();
            case FusionOp.Where w -> ShapeKernels.whereShape(w, inputs.get(0), inputs.get(1), inputs.get(2));
            case FusionOp.Squeeze q -> ShapeKernels.squeezeShape(q, inputs.get(0));
            case FusionOp.Expand e -> ShapeKernels.expandShape(e, inputs.get(0), null);
            case FusionOp.Reshape r -> ShapeKernels.reshapeShape(r, inputs.get(0), null);
            case FusionOp.Binary b -> PointwiseKernels.binaryShape(b, inputs.get(0), inputs.get(1));
            case FusionOp.Broadcast b -> PointwiseKernels.broadcastShape(b, inputs.get(0));
            case FusionOp.Reduction r -> ReductionKernel.shape(r, inputs.get(0));
            case FusionOp.Matmul m -> MatmulKernels.matmulPlan(m, inputs.get(0), inputs.get(1)).outShape();
            case FusionOp.Linear l -> MatmulKernels.linearShape(l, inputs.get(0), inputs.get(1));
            case FusionOp.IndexSelect s -> ShapeKernels.indexSelectShape(s, inputs.get(0), inputs.get(1));
            case FusionOp.TakeAlongAxis t -> ShapeKernels.takeAlongAxisShape(t, inputs.get(0), inputs.get(1));
            case FusionOp.TopK t -> TopKKernel.shape(t, inputs.get(0), null);
            case FusionOp.Scatter s -> ScatterKernel.shape(s, inputs.get(0), inputs.get(1), inputs.get(2));
            case FusionOp.GroupedMm g -> GroupedMmKernel.shape(g, inputs.get(0), inputs.get(1), inputs.get(2));
        };
        int rf = RFactorProduct.runtimePosition(op);
        if (rf >= 0) {
            long[] kept = shape;
            shape = new long[kept.length + 1];
            System.arraycopy(kept, 0, shape, 0, rf);
            shape[rf] = 1;
            System.arraycopy(kept, rf, shape, rf + 1, kept.length - rf);
        }
        checkOutputRank(op, shape.length);
        return shape;
    }

    /**
     * Floating-point operations for the timeline: {@code 2 * batch * M * N * K} for matmul and linear (the bias
     * add is not counted, as GEMM figures usually leave it out), one per output element for binary ops, one per
     * input element for reductions, none for set and broadcast (data movement only).
     */
    public static long flops(FusionOp op, List<DenseTensor> inputs) {
        checkInputs(op, inputs);
        return switch (op) {
            case FusionOp.Matmul m -> MatmulKernels.matmulPlan(m, inputs.get(0), inputs.get(1)).flops();
            case FusionOp.Linear l -> MatmulKernels.linearFlops(l, inputs.get(0), inputs.get(1));
            case FusionOp.Unary u -> inputs.get(0).numel();
            case FusionOp.Where w -> numel(ShapeKernels.whereShape(w, inputs.get(0), inputs.get(1), inputs.get(2)));
            case FusionOp.Squeeze q -> 0;
            case FusionOp.Expand e -> 0;
            case FusionOp.Reshape r -> 0;
            case FusionOp.Binary b -> numel(PointwiseKernels.binaryShape(b, inputs.get(0), inputs.get(1)));
            case FusionOp.Reduction r -> inputs.get(0).numel();
            case FusionOp.Set s -> 0;
            case FusionOp.Broadcast b -> 0;
            case FusionOp.IndexSelect s -> 0;
            case FusionOp.TakeAlongAxis t -> 0;
            case FusionOp.TopK t -> 0;
            case FusionOp.Scatter s -> 0;
            // 2 m k n: the groups split one of m, k or n (createGroupedMmaOutput's cases)
            case FusionOp.GroupedMm g -> 2 * inputs.get(0).numel() / (inputs.get(0).rank() == 3 ? inputs.get(0).size(0) : 1)
                    * inputs.get(1).size(inputs.get(1).rank() - 1);
        };
    }

    /** A partial product of an rFactor'd matmul or linear gets its size-1 device axis, as nvFuser unsqueezes. */
    private static DenseTensor withRFactorAxis(FusionOp op, DenseTensor result) {
        int rf = RFactorProduct.runtimePosition(op);
        return rf < 0 ? result : result.unsqueeze(rf);
    }

    /** Position among the runtime axes (reduction axes skipped) of axis {@code axis} of {@code tv}. */
    static int runtimePosition(TensorView tv, int axis) {
        int p = 0;
        for (int i = 0; i < axis; i++) {
            if (!tv.axis(i).isReduction()) p++;
        }
        return p;
    }

    static String describe(FusionOp op) {
        StringBuilder b = new StringBuilder(op.output().name()).append(" = ").append(op.opName()).append('(');
        List<TensorView> in = op.inputs();
        for (int i = 0; i < in.size(); i++) b.append(i == 0 ? "" : ", ").append(in.get(i).name());
        return b.append(')').toString();
    }

    static long numel(long[] shape) {
        long n = 1;
        for (long s : shape) n *= s;
        return n;
    }

    private static void checkInputs(FusionOp op, List<DenseTensor> inputs) {
        List<TensorView> tvs = op.inputs();
        if (inputs.size() != tvs.size()) {
            throw new IllegalArgumentException(describe(op) + " takes " + tvs.size() + " tensors, got "
                    + inputs.size());
        }
        for (int i = 0; i < tvs.size(); i++) {
            int expected = tvs.get(i).allocationAxes().size();
            DenseTensor t = inputs.get(i);
            if (t == null || t.rank() != expected) {
                throw new IllegalArgumentException(describe(op) + ": input " + tvs.get(i).name() + " has "
                        + expected + " runtime axes, but the tensor given has shape "
                        + (t == null ? "null" : Arrays.toString(t.shape)));
            }
        }
    }

    private static void checkOutputRank(FusionOp op, int rank) {
        int expected = op.output().allocationAxes().size();
        if (rank != expected) {
            throw new IllegalArgumentException(describe(op) + ": the op computes " + rank + " axes, but "
                    + op.output().name() + " has " + expected + " runtime axes");
        }
    }
}
