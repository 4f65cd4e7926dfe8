package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterTransform;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.ShardByStream;

/**
 * What nvFuser 2026-04's host IR lowering asks of a tensor's Stream sharding: whether its allocation is sharded on
 * Stream ({@link FinalizeMultideviceDomainsPass}; fusion inputs arrive whole and outputs are returned whole, so a
 * loop reads and writes them through chunks), whether two segments share a loop, and {@code hir::shardByStream}.
 */
final class StreamAllocation {
    /** A ShardByStream node and the chunk it defines. */
    record Chunk(TensorView out, HostNode node) {}

    private final StreamAxisMapping axes;

    private StreamAllocation(StreamAxisMapping axes) { this.axes = axes; }

    static StreamAllocation of(HostIrContainer program, LoweringContext context) {
        List<FusionOp> ops = new ArrayList<>();
        for (HostNode n : program.topLevel()) if (n instanceof HostOp op) ops.add(op.op());
        return new StreamAllocation(StreamAxisMapping.of(context.fusion() != null ? context.fusion().ops() : ops));
    }

    /** Whether {@code tv}'s allocation is sharded on Stream (FinalizeMultideviceDomainsPass decided it). */
    boolean streamSharded(TensorView tv) {
        return tv.loop() != null && tv.loop().allocationIsLoop()
                && tv.loop().loopPositionOf(ParallelType.STREAM).isPresent();
    }

    /**
     * computeInlinePosition for the Stream position: two segments share a loop when their reference tensors'
     * Stream loop axes have one extent and come from mapped logical axes (IdModel's EXACT graph).
     */
    boolean sameLoop(TensorView a, TensorView b) {
        Optional<IterDomain> x = streamSource(a);
        Optional<IterDomain> y = streamSource(b);
        return x.isPresent() && y.isPresent() && axes.mapped(x.get(), y.get())
                && HostIrLoweringPass.leadingStream(a).orElseThrow().extent()
                        .equals(HostIrLoweringPass.leadingStream(b).orElseThrow().extent());
    }

    /** The logical axis {@code tv}'s Stream loop axis comes from. */
    private static Optional<IterDomain> streamSource(TensorView tv) {
        LoopDomain loop = tv.loopDomain();
        return loop.loopPositionOf(ParallelType.STREAM)
                .map(p -> tv.axis(loop.source(p).logicalPosition()));
    }

    /**
     * hir::shardByStream (csrc/host_ir/ops.cpp:27-184): a new local tensor like {@code source} (newValLike: its
     * reductions dropped), its domain replayed (selfReplay, in the order the splits make it, before
     * FinalizeMultideviceDomains moved parallel ids to the front) and sharded on Stream where the loop's axis maps
     * (shardLoopLike from the segment's output); null when no axis of {@code source} maps to it.
     */
    Chunk shardByStream(HostIrBuilder h, TensorView source, TensorView loopRef, Scalar index, int origin) {
        TensorView like = source.withoutReductions();
        LoopDomain.Axis loopAxis = HostIrLoweringPass.leadingStream(loopRef).orElseThrow();
        Optional<Integer> position = positionOf(like, loopRef);
        if (position.isEmpty()) return null;
        TensorView chunk;
        if (loopRef.loopDomain().source(loopRef.loopDomain().loop().indexOf(loopAxis)).derivation()
                == LoopDomain.Derivation.OUTER_OF_OUTER_SPLIT) {
            chunk = SplitStream.chunkOf(h.ir(), like, position.get(), loopAxis, MemoryType.LOCAL);
            chunk = chunk.withLoop(naturalOrder(chunk.loop()));
        } else { // a logical Stream axis: the chunk keeps it, of extent one at run time
            List<IterDomain> axes = new ArrayList<>();
            for (int i = 0; i < like.rank(); i++) {
                IterDomain a = like.axis(i);
                axes.add(h.ir().copy(i == position.get() ? a.withParallelType(ParallelType.STREAM)
                        : a.isStream() ? a.withParallelType(ParallelType.SERIAL) : a));
            }
            chunk = h.ir().tensor(like.dtype(), MemoryType.LOCAL, like.mesh(), axes,
                    LoopDomain.of(axes).withAllocationIsLoop(true)); // shardAllocationAsLoop(destination)
        }
        return new Chunk(chunk, h.inherit(origin, new ShardByStream(h.ir().nextNodeId(), chunk, source, index)));
    }

    /** The logical position of {@code tv}'s axis that is (or maps to) the one {@code ref}'s Stream axis splits. */
    private Optional<Integer> positionOf(TensorView tv, TensorView ref) {
        Optional<IterDomain> own = streamSource(tv);
        IterDomain target = streamSource(ref).orElseThrow();
        // its own Stream axis only where it is the loop's: else the chunk is taken along the axis the loop's maps to
        // (shardLoopLike from the segment's output; found under 2026-04 by NumpyOracleTest: div_broadcast+abs,
        // seed 210000479, chunked z along its own Stream axis in t_y's loop over another axis)
        if (own.isPresent() && axes.mapped(own.get(), target)) return Optional.of(tv.axes().indexOf(own.get()));
        for (int i = 0; i < tv.rank(); i++) {
            IterDomain a = tv.axis(i);
            if (a.isReduction() || !axes.mapped(a, target)) continue;
            // a broadcast is the same for every chunk; an axis sharded on devices is already split (nvFuser:
            // "Destination's loop domain may not be stream-parallelized if the corresponding id is already
            // sharded", ops.cpp:72-78): no chunk
            return a.isBroadcast() || a.isDeviceDim() ? Optional.empty() : Optional.of(i);
        }
        return Optional.empty();
    }

    /**
     * Whether {@code tv}'s axis that maps to {@code ref}'s Stream axis is sharded on devices: a DID-to-Stream
     * resharding, which nvFuser 2026-04 lowers inside the loop to a Broadcast rooted at the loop index or a
     * CollectivePermute (getCommunicationInfoForParallelType with the host loop index, lowering.cpp:234-259).
     */
    boolean deviceShardedAlong(TensorView tv, TensorView ref) { return deviceAxisAlong(tv, ref).isPresent(); }

    /** {@code tv}'s device-sharded axis that maps to {@code ref}'s Stream axis, if any. */
    Optional<IterDomain> deviceAxisAlong(TensorView tv, TensorView ref) {
        Optional<IterDomain> target = streamSource(ref);
        if (target.isEmpty()) return Optional.empty();
        return tv.axes().stream().filter(a -> a.isDeviceDim() && axes.mapped(a, target.get())).findFirst();
    }

    /** The loop axes in the order the transforms make them, without later reorders. */
    static LoopDomain naturalOrder(LoopDomain loop) {
        if (loop == null) return null;
        List<Integer> ids = new ArrayList<>(loop.logical().stream().map(IterDomain::id).toList());
        for (IterTransform t : loop.transforms()) {
            int at = ids.indexOf(t.inputs().get(0));
            t.inputs().forEach(ids::remove);
            ids.addAll(Math.max(at, 0), t.outputs().stream().map(LoopDomain.Axis::id).toList());
        }
        List<Integer> order = new ArrayList<>();
        for (int id : ids) {
            for (int p = 0; p < loop.loop().size(); p++) if (loop.loop().get(p).id() == id) order.add(p);
        }
        return order.size() == loop.loop().size() ? loop.reorder(order) : loop;
    }

    /** {@code c} reading and writing the chunks that replace its tensors. */
    static Communication withTensors(Communication c, Map<Integer, TensorView> replacement) {
        return new Communication(c.id(), c.type(), c.team(), c.root(),
                replacement.getOrDefault(c.input().id(), c.input()),
                replacement.getOrDefault(c.output().id(), c.output()), c.reduction(), c.backend());
    }
}
