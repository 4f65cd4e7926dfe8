package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;

/**
 * A Stream loop axis that is the outer part of an outer split of a logical axis ({@code outer_split(0, d)} then
 * Stream, as nvFuser's test_column_parallel_linear_forward writes it). The stream loop runs over that loop axis
 * (extent d), and an iteration's slice is one of d chunks of the logical axis, which keeps its place: nvFuser's
 * ShardByStream, whose destination has the source's domain sharded on Stream (HostIrEvaluator::handle chunks the
 * logical axis getShardedLogicalAxis finds). Here the slice is a HirAliasSelect along the loop axis, which the
 * evaluator reads as that chunk.
 */
final class SplitStream {
    private SplitStream() {}

    /** The Stream loop axis of {@code tv} when it comes from an outer split, with its loop position. */
    static Optional<LoopDomain.Axis> of(TensorView tv) {
        if (tv.loop() == null) return Optional.empty();
        return tv.loop().loopPositionOf(ParallelType.STREAM)
                .filter(p -> tv.loop().source(p).derivation() == LoopDomain.Derivation.OUTER_OF_OUTER_SPLIT)
                .map(p -> tv.loop().loop().get(p));
    }

    /**
     * The iter domain a stream loop over {@code tv} iterates: its Stream loop axis when that is split (its extent
     * is the split's factor), else the logical Stream axis.
     */
    static Optional<IterDomain> loopAxis(TensorView tv) {
        Optional<LoopDomain.Axis> split = of(tv);
        if (split.isEmpty()) return tv.streamAxis();
        LoopDomain.Axis a = split.get();
        if (!(a.extent() instanceof Extent e)) {
            throw new LoweringException(List.of(new LoweringError(tv.label(), "loop.stream", "the Stream axis of "
                    + Texts.quote(tv.label()) + " is split by a factor that is not a symbol or a constant",
                    tv.subject())));
        }
        return Optional.of(new IterDomain(a.id(), e, IterType.ITERATION, ParallelType.STREAM));
    }

    /**
     * A new global tensor over {@code axes} (which carry their parallel types on the logical axes) whose Stream axis
     * is chunked as {@code like}'s is: the tensor a pass inserts beside an op takes the op's output's loop splits
     * on Stream (nvFuser's shardLoopLike in insertReshardingSetsBefore/After,
     * csrc/preseg_passes/decompose_reshardings.cpp:147-151 and 238-242 at 81c4b22fd), so a loop over chunks does
     * not become a loop over the whole logical axis. Without a split Stream axis in {@code like}, a plain tensor.
     */
    static TensorView streamedLike(IrBuilder ir, DataType dtype, DeviceMesh mesh, List<IterDomain> axes,
                                   TensorView like) {
        int q = axes.indexOf(axes.stream().filter(IterDomain::isStream).findFirst().orElse(null));
        Optional<LoopDomain.Axis> split = of(like);
        if (split.isEmpty() || q < 0) return ir.tensor(null, dtype, MemoryType.GLOBAL, mesh, axes);
        List<IterDomain> logical = new ArrayList<>(axes);
        logical.set(q, axes.get(q).withParallelType(ParallelType.SERIAL));
        LoopDomain loop = LoopDomain.of(logical).split(q, split.get().extent(), false, ir::nextIterDomainId)
                .parallelize(q, ParallelType.STREAM);
        return ir.tensor(dtype, MemoryType.GLOBAL, mesh, logical, loop);
    }

    /**
     * One iteration's chunk of {@code tv} along logical axis {@code position}, for a loop over {@code split}: a new
     * tensor with fresh copies of its logical axes and its loop domain replayed (ShardByStream's newValLike and
     * selfReplay), so it prints sharded on Stream like its source; a tensor not split alike (an input the loop
     * reads, a tensor streamed over another axis) is given the loop's outer split there.
     */
    static TensorView chunkOf(IrBuilder ir, TensorView tv, int position, LoopDomain.Axis split,
                              MemoryType memoryType) {
        // a tensor split alike is replayed, its loop giving the logical axes their parallel types again; any
        // other is split here, its logical axes keeping theirs (a DIDx axis stays sharded in the chunk)
        Optional<LoopDomain.Axis> own = of(tv);
        boolean replay = own.isPresent() && own.get().extent().equals(split.extent())
                && tv.loop().source(tv.loop().loop().indexOf(own.get())).logicalPosition() == position;
        List<IterDomain> axes = new ArrayList<>();
        for (IterDomain a : tv.axes()) axes.add(ir.copy((replay && a.isDeviceDim()) || a.isStream()
                ? a.withParallelType(ParallelType.SERIAL) : a));
        LoopDomain loop = replay ? tv.loop().replay(axes, ir::nextIterDomainId)
                : LoopDomain.of(axes).split(position, split.extent(), false, ir::nextIterDomainId)
                        .parallelize(position, ParallelType.STREAM);
        return ir.tensor(tv.dtype(), memoryType, tv.mesh(), axes, loop);
    }
}
