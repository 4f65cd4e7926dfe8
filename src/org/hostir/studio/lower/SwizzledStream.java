package org.hostir.studio.lower;

import java.util.Optional;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterTransform;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.print.IrText;

/**
 * A Stream loop axis defined by a Swizzle1D, and the integer math nvFuser derives from it for one rank
 * (csrc/multidevice/utils.cpp dispatchSwizzle1D, HostIrEvaluator::handle(ShardByStream*)). With n devices along
 * the swizzle's parallel type and this rank at team index k (a constant per rank, as nvFuser lowers per device),
 * iteration i handles slice {@code (i + k) % n}, receives it from team index {@code (i + k) % n} and sends its own
 * shard to team index {@code (n + k - i) % n}: a cyclic shift, as XLA's CollectivePermute.
 */
final class SwizzledStream {
    private SwizzledStream() {}

    /** nvFuser's {@code stream_id->definition()->isA<Swizzle1D>()} on the tensor's Stream loop axis. */
    static Optional<IterTransform.Swizzle1D> of(TensorView tv) {
        if (tv.loop() == null) return Optional.empty();
        return tv.loop().loopPositionOf(ParallelType.STREAM).flatMap(p -> tv.loop().swizzleOf(p));
    }

    /**
     * The slice iteration {@code loopIndex} of {@code tv} handles on {@code rank}: the loop index itself, or for a
     * swizzled Stream axis {@code ( ( i + k ) % n )}, which nvFuser's ShardByStream computes when it runs (its
     * TODO moves that math into the Host IR, as here).
     */
    static Scalar sliceIndex(TensorView tv, Scalar loopIndex, int rank) {
        Optional<IterTransform.Swizzle1D> z = of(tv);
        if (z.isEmpty()) return loopIndex;
        return recvPeer(tv.mesh(), z.get().parallelType(), loopIndex, rank);
    }

    /** dispatchSwizzle1D's first value: {@code ( ( i + k ) % n )}. */
    static Scalar recvPeer(DeviceMesh mesh, ParallelType type, Scalar loopIndex, int rank) {
        Scalar n = Scalar.constant(mesh.extent(type));
        return Scalar.mod(Scalar.add(loopIndex, Scalar.constant(teamIndex(mesh, type, rank))), n);
    }

    /** dispatchSwizzle1D's second value: {@code ( ( n + ( k - i ) ) % n )}. */
    static Scalar sendPeer(DeviceMesh mesh, ParallelType type, Scalar loopIndex, int rank) {
        Scalar n = Scalar.constant(mesh.extent(type));
        return Scalar.mod(Scalar.add(n, Scalar.sub(Scalar.constant(teamIndex(mesh, type, rank)), loopIndex)), n);
    }

    /** The rank's index along {@code type} (mesh.multiDimensionalIndexOf); 0 for a rank outside the mesh. */
    static int teamIndex(DeviceMesh mesh, ParallelType type, int rank) {
        return mesh.contains(rank) ? mesh.coordinate(rank, type) : 0;
    }

    /**
     * lowerToCollectivePermute's checks, as nvFuser words them: one mesh on both sides, a Stream-parallel output,
     * and (here) a 1-D mesh: nvFuser's team is the whole mesh while its peers count along one parallel type, which
     * agree only when the mesh has one axis.
     */
    static void check(FusionOp.Set set) {
        TensorView in = set.input();
        TensorView out = set.output();
        if (!in.mesh().equals(out.mesh())) {
            throw new LoweringException(set, "sharding.collective-permute-mesh", "CollectivePermute sender and"
                    + " receiver meshes must be the same. Given " + IrText.mesh(in.mesh()) + " and "
                    + IrText.mesh(out.mesh()));
        }
        if (out.streamAxis().isEmpty()) {
            throw new LoweringException(set, "sharding.collective-permute-stream", "CollectivePermute output tensor"
                    + " must be sharded by stream: " + Texts.quote(out.label())
                    + " has a swizzle1d axis but no Stream axis");
        }
        ParallelType type = of(out).orElseThrow().parallelType();
        if (in.mesh().axisOf(type) < 0) {
            throw new LoweringException(set, "sharding.collective-permute-type", Texts.quote(out.label())
                    + "'s Stream axis is"
                    + " swizzled by " + type.fileName() + ", which " + IrText.mesh(in.mesh()) + " has no axis for");
        }
        if (in.mesh().rank() > 1) {
            throw new LoweringException(set, "sharding.mesh-2d", "lowers to CollectivePermute, whose team is the"
                    + " whole mesh while its peers count along one parallel type: on a 2-D mesh they disagree, so"
                    + " only 1-D meshes are lowered");
        }
    }
}
