package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorSubstitution;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.rules.StreamReduction;

/**
 * The part of nvFuser 2026-04's FinalizeMultideviceDomainsPass (csrc/preseg_passes/finalize_multidevice_domains.cpp
 * at 81c4b22fd) that shows in a dump: every fusion input and op output has its parallelized loop ids moved to the
 * front, Stream first, then DIDy, then DIDx, the serial ids after them in their order (reorderParallelizedToFront,
 * csrc/multidevice/utils.cpp:228-272), so that a host loop over the Stream id can hold the segments after it.
 * Its other half, shardAllocation: an intermediate whose uses keep its Stream sharding is allocated per iteration
 * (the loop domain's {@code allocationIsLoop}, which the evaluator's Allocate reads).
 */
public final class FinalizeMultideviceDomainsPass implements FusionPass {
    public String name() { return "FinalizeMultideviceDomains"; }

    public Fusion run(Fusion fusion, LoweringContext context) {
        refuseReduceBasedReduceScatter(fusion);
        Map<Integer, TensorView> reordered = new HashMap<>();
        for (TensorView tv : fusion.tensors()) {
            LoopDomain loop = reorderParallelizedToFront(tv.loopDomain());
            if (shouldParallelizeAllocationOnStream(tv, fusion)) loop = loop.withAllocationIsLoop(true);
            if (!loop.equals(tv.loopDomain())) reordered.put(tv.id(), tv.withLoop(loop));
        }
        if (reordered.isEmpty()) return fusion;
        List<FusionOp> ops = fusion.ops().stream().map(op -> TensorSubstitution.apply(op, reordered)).toList();
        return new Fusion(fusion.name(), swap(fusion.inputs(), reordered), ops, swap(fusion.outputs(), reordered),
                fusion.symbols(), fusion.counters());
    }

    /**
     * Not modelled on this path: the Reduce-based matmul + ReduceScatter (#5923, {@link StreamReduction}). nvFuser
     * 2026-04 lowers it in MultiDeviceExecutor's StreamParallelType (csrc/host_ir/pass/stream_parallel_type.cpp:
     * 470-506 at 81c4b22fd), which RSMatmulTest.ReduceScatterReduceBased runs; host_ir_lowering
     * (csrc/host_ir/lowering.cpp) has no Reduce rooted at the loop index (lowerToReduce roots at the receiver mesh's
     * devices, lower_to_communication.cpp:227-264), and no test of nvFuser runs this fusion there.
     */
    private static void refuseReduceBasedReduceScatter(Fusion fusion) {
        for (FusionOp op : fusion.ops()) {
            if (!StreamReduction.isReduceBasedReduceScatter(op)) continue;
            throw new LoweringException(op, "stream.reduction-host-ir-lowering", "the Reduce-based ReduceScatter"
                    + " into " + Texts.quote(op.output().label())
                    + " (a Stream-parallel reduced device axis) is lowered by nvFuser"
                    + " 2026-04's MultiDeviceExecutor path, not by its host_ir_lowering path, which this lowering"
                    + " does not model for it: use --option hostIrLowering=false");
        }
    }

    /**
     * shouldParallelizeAllocationOnStream (lines 45-57): a tensor with a Stream loop id that is neither a fusion
     * input nor output, whose every use's outputs are sharded on Stream alike (not haveDifferentShardings(tv, output,
     * {Stream})), is allocated per iteration. A use whose output splits another axis, or the same one into another
     * number of chunks, runs in another loop and reads the tensor whole (found under 2026-04 by GeneratedSpaceTest:
     * rsqrt, seed 30000700, read a chunk as the whole tensor, an internal error).
     */
    static boolean shouldParallelizeAllocationOnStream(TensorView tv, Fusion fusion) {
        if (tv.loopDomain().loopPositionOf(ParallelType.STREAM).isEmpty()) return false;
        if (fusion.inputs().stream().anyMatch(t -> t.id() == tv.id())
                || fusion.outputs().stream().anyMatch(t -> t.id() == tv.id())) {
            return false;
        }
        StreamAxisMapping axes = StreamAxisMapping.of(fusion.ops());
        return fusion.uses(tv).stream().allMatch(op -> sameStreamSharding(tv, op.output(), axes));
    }

    /** Both sharded on Stream along mapped logical axes into the same number of chunks. */
    private static boolean sameStreamSharding(TensorView a, TensorView b, StreamAxisMapping axes) {
        LoopDomain x = a.loopDomain();
        LoopDomain y = b.loopDomain();
        var p = x.loopPositionOf(ParallelType.STREAM);
        var q = y.loopPositionOf(ParallelType.STREAM);
        if (p.isEmpty() || q.isEmpty()) return false;
        return axes.mapped(a.axis(x.source(p.get()).logicalPosition()), b.axis(y.source(q.get()).logicalPosition()))
                && x.loop().get(p.get()).extent().equals(y.loop().get(q.get()).extent());
    }

    static LoopDomain reorderParallelizedToFront(LoopDomain loop) {
        List<Integer> order = new ArrayList<>();
        for (int p = 0; p < loop.loop().size(); p++) order.add(p);
        order.sort(Comparator.comparingInt(p -> rank(loop.loop().get(p).parallelType())));
        return loop.reorder(order);
    }

    /** rankOfParallelType: Stream before the device types (DIDy before DIDx), serial ids last. */
    private static int rank(ParallelType p) {
        return switch (p) {
            case STREAM -> 0;
            case DIDY -> 1;
            case DIDX -> 2;
            case SERIAL -> 3;
        };
    }

    private static List<TensorView> swap(List<TensorView> tvs, Map<Integer, TensorView> r) {
        return tvs.stream().map(t -> TensorSubstitution.apply(t, r)).toList();
    }
}
