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
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorSubstitution;
import org.hostir.studio.ir.TensorView;

/**
 * nvFuser's DecomposeReshardingsPass (csrc/preseg_passes/decompose_reshardings.cpp at 81c4b22fd): a row-parallel
 * linear's bias is added after the reduction over the devices ({@link RowParallelBias}); a reduction, matmul or
 * linear over an axis sharded by an outer split becomes a local op into partial results plus their reduction over
 * the devices ({@link SplitReduction}, rFactorLoopSplits); an expression that both computes and changes sharding
 * gets a {@code set} after it when it has one input ({@link InsertReshardingAfter}, nvFuser's whereToReshard) and
 * in front otherwise, so every resharding expression is a set or a single-axis reduction that maps to one
 * collective (seed 001's AG_matmul: the matmul on [S, DIDx D, M, K] becomes an allgathering set into
 * [Stream S, D, M, K] and a local matmul).
 */
public final class DecomposeReshardingsPass implements FusionPass {
    public String name() { return "DecomposeReshardings"; }

    public Fusion run(Fusion fusion, LoweringContext context) {
        IrBuilder b = new IrBuilder(fusion.counters(), fusion.symbols());
        List<FusionOp> ops = new ArrayList<>();
        // the output of a row-parallel linear with bias, rewritten to end in the bias's add, or of a reduction moved
        // by a set after it, read as rewritten
        Map<Integer, TensorView> replaced = new HashMap<>();
        boolean rFactorIds = context != null && context.generation() == NvFuserGeneration.V2026_04;
        for (FusionOp fileOp : fusion.ops()) {
            FusionOp op = TensorSubstitution.apply(fileOp, replaced);
            if (!RowParallelBias.applies(op)) {
                decompose(b, op, ops, rFactorIds);
                // a reduction resharded after it: the set's output, without reduction axes, stands for the op's
                TensorView last = ops.getLast().output();
                if (last.id() == op.output().id() && !last.equals(op.output())) replaced.put(last.id(), last);
                continue;
            }
            List<FusionOp> parts = RowParallelBias.decompose(b, (FusionOp.Linear) op);
            parts.forEach(part -> decompose(b, part, ops, rFactorIds));
            TensorView newOut = parts.getLast().output();
            replaced.put(newOut.id(), newOut);
        }
        List<TensorView> outputs = fusion.outputs().stream().map(t -> TensorSubstitution.apply(t, replaced)).toList();
        return new Fusion(fusion.name(), fusion.inputs(), ops, outputs, b.symbols(), b.counters());
    }

    /**
     * nvFuser's rFactorLoopSplits, then insertReshardingSetsBefore for one op: a reduction or product over a
     * split-sharded axis becomes the local op into partial results and their reduction over the devices; any
     * other op that reshards gets a set in front of each input it reshards. {@code rFactorIds}: the partial's
     * device axis marked an rFactor product (nvFuser 2026-04; the 2025-06 goldens print it unmarked).
     */
    private static void decompose(IrBuilder b, FusionOp op, List<FusionOp> ops, boolean rFactorIds) {
        if (op instanceof FusionOp.Reduction r && SplitReduction.splitSharded(r) != null) {
            ops.addAll(SplitReduction.rFactor(b, r));
            return;
        }
        if (SplitReduction.splitShardedProduct(op) != null) {
            // the local product may still reshard its inputs (a contracted axis they do not shard)
            SplitReduction.rFactorProduct(b, op, rFactorIds).forEach(part -> decompose(b, part, ops, rFactorIds));
            return;
        }
        if (op instanceof FusionOp.Set || Resharding.isCommunicatingReduction(op) || !Resharding.isResharding(op)) {
            ops.add(op);
            return;
        }
        if (InsertReshardingAfter.applies(op)) { // whereToReshard: one input, one output
            ops.addAll(InsertReshardingAfter.decompose(b, op));
            return;
        }
        Map<Integer, TensorView> gathered = new HashMap<>();
        // a symmetric output moves to the communication's output, the op's own becoming global, csrc/preseg_passes/decompose_reshardings.cpp:143-146 at 81c4b22fd)
        // (insertReshardingSetsBefore, csrc/preseg_passes/decompose_reshardings.cpp:143-146 at 81c4b22fd): the
        // first resharded input's set takes it; the output, global from then on, gives the others global memory
        boolean symmetric = op.output().memoryType() == MemoryType.SYMMETRIC;
        boolean symmetricLeft = symmetric;
        for (int i = 0; i < op.inputs().size(); i++) {
            TensorView in = op.inputs().get(i);
            if (!Resharding.changes(op, i) || gathered.containsKey(in.id())) continue;
            TensorView moved = resharded(b, op, i);
            if (symmetricLeft) moved = moved.withMemoryType(MemoryType.SYMMETRIC);
            symmetricLeft = false;
            ops.add(new FusionOp.Set(moved, in));
            gathered.put(in.id(), moved);
        }
        if (symmetric && !gathered.isEmpty()) {
            gathered.put(op.output().id(), op.output().withMemoryType(MemoryType.GLOBAL));
        }
        FusionOp local = TensorSubstitution.apply(op, gathered);
        if (Resharding.isResharding(local)) {
            throw new LoweringException(op, "sharding.output-change",
                    "shards its output differently from its inputs; compute first, then set the result");
        }
        ops.add(local);
    }

    /**
     * The input as the op's output wants it placed: its axes, with the consumer's parallel types and mesh. Where
     * the output's sharding is a loop split and the input's axes are the output's one for one, the output's loop
     * domain is replayed onto the new tensor, as nvFuser's insertReshardingSetsBefore shards the set's output with
     * {@code shardLoopLike(output, new_input, ...)} (csrc/preseg_passes/decompose_reshardings.cpp:140-151 at
     * 81c4b22fd): it prints {@code ideviceIdx.x{2}, iS{ceilDiv(i0, 2)}} like the output, not a device axis of the
     * full extent i0, which a file could not even write ({@code mesh.did-extent}).
     */
    private static TensorView resharded(IrBuilder b, FusionOp op, int i) {
        TensorView in = op.inputs().get(i);
        TensorView out = op.output();
        int[] map = AxisMap.of(op, i);
        boolean likeOutput = out.loop() != null && in.rank() == out.rank();
        List<IterDomain> axes = new ArrayList<>();
        for (int p = 0; p < in.rank(); p++) {
            IterDomain a = in.axis(p);
            // && not &=: out.axis(p) exists only while the ranks agree
            likeOutput = likeOutput && map[p] == p && !a.isReduction() && !a.isBroadcast()
                    && !out.axis(p).isReduction();
            if (a.isReduction()) continue;
            ParallelType pt = a.isDeviceDim() ? ParallelType.SERIAL : a.parallelType();
            // a broadcast axis of a binary op's operand, or under a loop-split output, takes no sharding from the
            // output (its one element cannot be split over D): nvFuser maps producer to consumer with
            // mapBroadcast(false), a broadcast being replicated on every device (csrc/multidevice/resharding.cpp:
            // 230-238, shardLoopLike likewise, propagation.cpp:87-91 at 81c4b22fd). A matmul's still takes a
            // logical DIDx (Resharding counts that mapping, which the seeds' matmul_RS_through_bcast lowers through)
            boolean replicated = a.isBroadcast() && (out.loop() != null || op instanceof FusionOp.Binary);
            if (map[p] != AxisMap.NONE && !out.axis(map[p]).isReduction() && !replicated) {
                pt = out.axis(map[p]).parallelType();
            }
            axes.add(b.copy(a).withParallelType(pt));
        }
        if (!likeOutput) return SplitStream.streamedLike(b, in.dtype(), out.mesh(), axes, out);
        // the loop gives the logical axes their parallel types again (TensorView's projection)
        List<IterDomain> plain = axes.stream().map(a -> a.isDeviceDim() || a.isStream()
                ? a.withParallelType(ParallelType.SERIAL) : a).toList();
        return b.tensor(in.dtype(), MemoryType.GLOBAL, out.mesh(), plain, out.loop().replay(plain,
                b::nextIterDomainId));
    }
}
