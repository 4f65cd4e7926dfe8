package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.RFactorProduct;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorSubstitution;
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

    /**
     * The DID loop axis that shards the contracted axis of a matmul, linear or grouped_mm output by an outer split,
     * or null: the reduction loop axis outside the logical domain that nvFuser's rFactorLoopSplits finds parallelized
     * (csrc/preseg_passes/decompose_reshardings.cpp, lines 341-369 at 81c4b22fd).
     */
    static LoopDomain.Axis splitShardedProduct(FusionOp op) {
        TensorView out = op.output();
        // GroupedMmaOp rFactors as a matmul does (TensorView::rFactor, csrc/tensor_view.cpp:860-881)
        boolean product = op instanceof FusionOp.Matmul || op instanceof FusionOp.Linear
                || op instanceof FusionOp.GroupedMm;
        if (!product || out.loop() == null || out.rank() == 0) return null;
        int k = out.rank() - 1;
        if (!out.axis(k).isReduction()) return null;
        for (int p = 0; p < out.loop().loop().size(); p++) {
            LoopDomain.Axis a = out.loop().loop().get(p);
            LoopDomain.Source src = out.loop().source(p);
            if (a.isDeviceDim() && a.iterType() == IterType.REDUCTION && src.logicalPosition() == k
                    && src.derivation() == LoopDomain.Derivation.OUTER_OF_OUTER_SPLIT) {
                return a;
            }
        }
        return null;
    }

    /**
     * rFactorLoopSplits on a matmul or linear (lines 371-405): the local op into partial products
     * {@code [.., iDIDx{D}]}, one per device where the contracted axis was (the local part of it reduced by the
     * op itself, {@link RFactorProduct}), then their sum over the devices, which lowers to an Allreduce, or a
     * ReduceScatter when the output keeps another axis sharded. The partial's other axes of the reduced parallel
     * type are unparallelized, as nvFuser does after {@code tv->rFactor} (lines 395-402). With {@code rFactorIds}
     * the partial keeps the local part of the contracted axis, a reduction after its device axis, both marked
     * rFactor products, as {@code TensorView::rFactor} makes and marks them and {@code IterDomain::toString} prints
     * them ({@code ideviceIdx.x22{2}rf, .., rS23{4}rf}, csrc/ir/internal_base_nodes.cpp:319-321 at 81c4b22fd;
     * {@link #withLocalReduction}), and the output is given the domain the rFactor leaves it
     * ({@link #rFactoredOutput}).
     */
    static List<FusionOp> rFactorProduct(IrBuilder b, FusionOp op, boolean rFactorIds) {
        TensorView out = op.output();
        LoopDomain.Axis device = splitShardedProduct(op);
        List<IterDomain> axes = new ArrayList<>();
        for (int i = 0; i < out.rank() - 1; i++) {
            IterDomain a = out.axis(i);
            axes.add(b.copy(a.parallelType() == device.parallelType() ? a.withParallelType(ParallelType.SERIAL) : a));
        }
        axes.add(b.iterDomain((Extent) device.extent(), IterType.ITERATION, device.parallelType()));
        // 2026-04: the contracted axis's local part stays, a reduction (TransformRFactor gives the partial the
        // output's root, its rK{K} replayed into the logical [iDIDx{D}rf, rS{K/D}rf], csrc/transform_rfactor.cpp:
        // 427-485); an extent K/D that is no constant is kept as the whole rK{K}, split in the loop
        IterDomain contracted = out.axis(out.rank() - 1).withParallelType(ParallelType.SERIAL);
        Scalar localPart = Scalar.ceilDiv(contracted.extent(), device.extent());
        boolean whole = !(localPart instanceof Extent);
        if (rFactorIds) axes.add(localPart instanceof Extent e
                ? b.iterDomain(e, IterType.REDUCTION, ParallelType.SERIAL) : b.copy(contracted));
        // the partial's Stream axis chunked as the output's (rFactor keeps the loop's Stream split: the partial of
        // test_overlap.py's row_parallel_linear_forward prints [istreamIdx{3}, ideviceIdx.x{2}rf, ..])
        TensorView streamed = SplitStream.streamedLike(b, out.dtype(), out.mesh(), axes, out);
        TensorView partial = rFactorIds ? withLocalReduction(b, streamed, device, whole) : streamed;
        FusionOp local = TensorSubstitution.apply(op, Map.of(out.id(), partial));
        TensorView reduced = rFactorIds ? rFactoredOutput(b, out, device) : out;
        return List.of(local, new FusionOp.Reduction(ReductionOpType.SUM, reduced, partial,
                List.of(reduced.rank() - 1)));
    }

    /**
     * The rFactor'd partial's loop at 2026-04 as nvFuser prints it, {@code [.., ideviceIdx.x{D}rf, .., rS{K/D}rf]}
     * (test_overlap.py's quote: {@code T3[istreamIdx20{3}, ideviceIdx.x22{2}rf, iS21{..}, iS18{2}, rS23{4}rf]}),
     * its device axis and its last logical axis, the local part of the contracted axis, marked rFactor products
     * ({@code IterDomain::isRFactorProduct}, printed {@code rf}, csrc/ir/internal_base_nodes.cpp:319-321). With
     * {@code whole} that axis is the whole {@code rK{K}} (K/D no constant, which a logical extent cannot be): it is
     * outer-split by D as rFactorLoopSplits found it and its outer part, which the partial's own device axis stands
     * for (the runtime tensor's size-1 axis, {@link RFactorProduct}), left out of the loop, so that the loop prints
     * {@code rS{( ceilDiv(K, D) )}rf}.
     */
    private static TensorView withLocalReduction(IrBuilder b, TensorView partial, LoopDomain.Axis device,
                                                 boolean whole) {
        LoopDomain loop = partial.loopDomain();
        int contracted = loop.loop().size() - 1; // the last logical axis: last in the loop, after any Stream split
        if (whole) {
            LoopDomain split = loop.split(contracted, device.extent(), false, b::nextIterDomainId);
            List<LoopDomain.Axis> axes = new ArrayList<>(split.loop());
            axes.remove(contracted);
            loop = new LoopDomain(split.logical(), split.transforms(), axes, split.allocationIsLoop());
        }
        return partial.withLoop(loop.withRFactorProduct(partial.axis(partial.rank() - 2).id())
                .withRFactorProduct(loop.loop().getLast().id()));
    }

    /**
     * The output as {@code tv->rFactor} leaves it (csrc/tensor_view.cpp, TransformRFactor, called by
     * rFactorLoopSplits, decompose_reshardings.cpp:372 at 81c4b22fd): a new domain whose logical axes are the
     * output's iteration axes and one reduction over the devices' partials, {@code [.., rDIDx{D}]}, the contracted
     * axis's local part gone (the test_overlap.py quote prints {@code T2[istreamIdx27{3}, rdeviceIdx.x26{2},
     * iS28{..}, iS25{2}]}); its other loop transforms replayed on fresh ids. The tensor keeps its name, as nvFuser's
     * rFactor changes the domain of the tensor it is called on.
     */
    private static TensorView rFactoredOutput(IrBuilder b, TensorView out, LoopDomain.Axis device) {
        List<IterDomain> kept = new ArrayList<>();
        for (int i = 0; i < out.rank() - 1; i++) kept.add(b.copy(out.axis(i)));
        IterDomain reduction = b.iterDomain((Extent) device.extent(), IterType.REDUCTION, device.parallelType());
        LoopDomain rest = out.loop().withoutReductions().replay(kept, b::nextIterDomainId);
        List<IterDomain> logical = new ArrayList<>(rest.logical());
        logical.add(reduction);
        List<LoopDomain.Axis> loop = new ArrayList<>(rest.loop());
        loop.add(new LoopDomain.Axis(reduction.id(), reduction.extent(), IterType.REDUCTION, device.parallelType()));
        LoopDomain domain = new LoopDomain(logical, rest.transforms(), loop, rest.allocationIsLoop());
        return new TensorView(out.id(), out.label(), out.dtype(), out.memoryType(), logical, out.mesh(), null)
                .withLoop(domain);
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
