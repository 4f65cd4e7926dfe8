package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.hostir.studio.diag.Subject;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterTransform;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorSubstitution;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Allocate;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.CollectivePermute;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.PostOnStream;
import org.hostir.studio.ir.host.Wait;

/**
 * nvFuser 2026-04's lowerSegmentedFusionToHostIr (csrc/host_ir/lowering.cpp:433-491 at 81c4b22fd), the
 * {@code NVFUSER_ENABLE=host_ir_lowering} path, on the segments of this rank's program: a host op, or a
 * communication with its Allocate and Wait. Segments whose reference loop domain starts with the same Stream axis
 * share one {@code FOR i from 0 to s:} loop (computeInlinePosition, lines 411-430; openLoop only for leading Stream
 * ids, lines 467-475). Inside a loop (lowerSegment, lines 155-409): an input whose allocation is not sharded on
 * Stream while the segment's loop is gets a {@code ShardByStream} chunk; an output whose allocation is not sharded
 * on Stream is allocated whole before the loop ({@code hir::Allocate}) and written through a {@code ShardByStream}
 * chunk; a communication's output otherwise is allocated where it runs; each communication is followed by its Wait.
 */
public final class HostIrLoweringPass implements HostPass {
    static final String NAME = "HostIrLowering";

    public String name() { return NAME; }

    public HostIrContainer run(HostIrContainer program, LoweringContext context) {
        HostIrBuilder h = new HostIrBuilder(new IrBuilder(program.counters(), program.symbols()))
                .withProvenance(program.provenance());
        checkNoLowerParams(context);
        StreamAllocation allocation = StreamAllocation.of(program, context);
        SwizzledStreamSegments.checkInputs(program.inputs());
        List<HostNode> top = new ArrayList<>();
        OpenLoop loop = null;
        List<HostNode> nodes = program.topLevel();
        for (int i = 0; i < nodes.size(); i++) {
            List<HostNode> segment = launched(segmentAt(nodes, i));
            i += segment.size() - 1;
            TensorView ref = reference(segment);
            Optional<LoopDomain.Axis> stream = ref == null ? Optional.empty() : leadingStream(ref);
            if (loop != null && (stream.isEmpty() || !allocation.sameLoop(loop.ref, ref))) {
                top.add(loop.close(h));
                loop = null;
            }
            if (stream.isPresent() && loop == null) loop = new OpenLoop(ref, stream.get(), index(h), context.rank());
            refuseChunkFromAnotherLoop(segment, loop, allocation);
            SwizzledStreamSegments.check(segment, allocation, loop != null);
            if (loop == null) {
                for (HostNode n : segment) if (n instanceof PostOnStream post) refuseChunkedKernelOutput(post, allocation);
                top.addAll(outsideLoop(segment, h));
            } else if (segment.getFirst() instanceof PostOnStream post) {
                kernelInLoop(post, loop, allocation, h, swizzled(context));
            } else {
                lowerInLoop(segment, loop, allocation, h, top);
            }
        }
        if (loop != null) top.add(loop.close(h));
        return new HostIrContainer(program.inputs(), program.outputs(), top, program.hostUnits(), program.symbols(),
                h.ir().counters(), h.provenance());
    }

    /** Kernel segments as lowerSegment makes them: LaunchKernel, not PostOnStream (lowering.cpp:393-406). */
    private static List<HostNode> launched(List<HostNode> segment) {
        return segment.stream().map(n -> n instanceof PostOnStream p ? p.launched() : n).toList();
    }

    /** A loop being filled: its Stream axis, index, body, and where it goes in the enclosing scope. */
    private static final class OpenLoop {
        final TensorView ref;
        final LoopDomain.Axis axis;
        final NamedScalar index;
        /** This rank: a swizzled Stream axis's chunk of iteration i is (i + k) % n, k its index in the mesh. */
        final int rank;
        final List<HostNode> body = new ArrayList<>();
        /** The tensors the loop's segments write: those allocated per chunk are readable only in this loop. */
        final Set<Integer> written = new HashSet<>();

        OpenLoop(TensorView ref, LoopDomain.Axis axis, NamedScalar index, int rank) {
            this.ref = ref;
            this.axis = axis;
            this.index = index;
            this.rank = rank;
        }

        /**
         * The chunk iteration {@code index} of {@code tv} is: the index, or on a swizzled Stream axis
         * {@code ( ( i + k ) % n )}, which nvFuser's ShardByStream computes when it runs (written out here, as the
         * MultiDeviceExecutor path's slices write it).
         */
        Scalar chunkIndex(TensorView tv) { return SwizzledStream.sliceIndex(tv, index, rank); }

        /** The loop, after the allocations inserted before it (parent_insertion_point). */
        HostNode close(HostIrBuilder h) {
            return h.forRange(index, Scalar.constant(0), axis.extent(), body);
        }
    }

    /**
     * The segment that starts at {@code i}: a communication with the Allocate of its output before it (when this
     * rank holds the output) and its Wait after it, or one node.
     */
    private static List<HostNode> segmentAt(List<HostNode> nodes, int i) {
        int end = i;
        if (nodes.get(end) instanceof Allocate a && end + 1 < nodes.size()
                && nodes.get(end + 1) instanceof Communication c && c.output().id() == a.buffer().id()) {
            end++;
        }
        if (nodes.get(end) instanceof Communication c && end + 1 < nodes.size()
                && nodes.get(end + 1) instanceof Wait w && w.communicationId() == c.id()) {
            end++;
        }
        return List.copyOf(nodes.subList(i, end + 1));
    }

    /**
     * findMostParallelLoopDomain's tensor (lowering.cpp:105-123): the segment's output; for a kernel, the output of
     * its exprs with the most parallel loop ids, the first of them on a tie.
     */
    private static TensorView reference(List<HostNode> segment) {
        for (HostNode n : segment) {
            if (n instanceof HostOp op) return op.op().output();
            if (n instanceof Communication c) return c.output();
            if (n instanceof PostOnStream post) return mostParallel(post);
        }
        return null;
    }

    private static TensorView mostParallel(PostOnStream post) {
        TensorView best = null;
        long most = -1;
        for (FusionOp op : post.unit().ops()) {
            long count = op.output().loopDomain().loop().stream()
                    .filter(a -> a.parallelType() != ParallelType.SERIAL).count();
            if (count > most) {
                most = count;
                best = op.output();
            }
        }
        return best;
    }

    /**
     * lowerSegment's kernel case (lowering.cpp:369-407) inside a loop: each output allocated in the loop body
     * ({@code hir::Allocate} pushed to the innermost scope, lines 388-390), then the kernel launched there with its
     * whole inputs and outputs, no ShardByStream; the compiled kernel computes only the chunk of its Stream loop at
     * {@code streamIdx}, a kernel parameter (kernel_ir.cpp:64-77, kernel.cpp:489-496), which the evaluator reads
     * as the loop's index. An output allocated whole would be allocated afresh each iteration and keep only the
     * last chunk: refused.
     */
    private static void kernelInLoop(PostOnStream post, OpenLoop loop, StreamAllocation allocation, HostIrBuilder h,
                                     boolean swizzled) {
        for (TensorView out : post.outputs()) {
            if (allocation.streamSharded(out) && !swizzled) continue;
            // not modelled: which chunk each rank's iteration takes where a Stream axis is swizzled (Swizzle1D) for a
            // kernel; admitting it gave wrong answers (LoweredImpliesCorrectTest under 2026-04, host_ir_lowering)
            throw new LoweringException(List.of(new LoweringError(out.label(), "stream.kernel-in-loop-2026",
                    "a kernel inside the Stream loop writes it and it is not allocated per Stream chunk"
                            + (swizzled ? " (or the fusion swizzles a Stream axis, not modelled for a kernel)" : "")
                            + ": nvFuser 2026-04 allocates a kernel's outputs inside the loop (lowering.cpp:388-390),"
                            + " so each iteration's chunk would be written into a fresh whole tensor and only the"
                            + " last kept; lower it with --nvfuser 2025-06 or --option hostIrLowering=false",
                    out.subject())));
        }
        for (TensorView out : post.outputs()) loop.body.add(h.inherit(post.id(), h.allocateHostIr(out)));
        loop.body.add(post);
    }

    /** Whether a tensor of the fusion has a Stream axis defined by a Swizzle1D. */
    private static boolean swizzled(LoweringContext context) {
        return context.fusion() != null
                && context.fusion().tensors().stream().anyMatch(t -> SwizzledStream.of(t).isPresent());
    }

    /**
     * The Stream loop axis that opens a loop: nvFuser reorders parallelized loop ids to the front
     * (FinalizeMultideviceDomains' reorderParallelizedToFront) and opens a loop per leading Stream id, so a loop
     * is opened when the first parallelized loop axis is Stream.
     */
    static Optional<LoopDomain.Axis> leadingStream(TensorView tv) {
        for (LoopDomain.Axis a : tv.loopDomain().loop()) {
            if (a.parallelType() == ParallelType.STREAM) return Optional.of(a);
            if (a.parallelType() != ParallelType.SERIAL) return Optional.empty();
        }
        return Optional.empty();
    }

    /**
     * hir::ForLoop::createFromIterDomain: a fresh index scalar, printed {@code i} and its number. nvFuser numbers it
     * from the counter its symbols ({@code i0}, {@code i2}, ..) come from too, so the name is never a symbol's; here
     * node ids are counted apart, so a number a symbol prints with is skipped.
     */
    private static NamedScalar index(HostIrBuilder h) {
        Set<Integer> symbols = new HashSet<>();
        h.ir().symbols().forEach(s -> symbols.add(s.id()));
        int n = h.ir().nextNodeId();
        while (symbols.contains(n)) n = h.ir().nextNodeId();
        return new NamedScalar("i" + n);
    }

    /** Outside a loop a segment is pushed as it is, its Allocate in nvFuser's hir form. */
    private static List<HostNode> outsideLoop(List<HostNode> segment, HostIrBuilder h) {
        List<HostNode> out = new ArrayList<>();
        for (HostNode n : segment) out.add(n instanceof Allocate a ? h.inherit(a.id(), h.allocateHostIr(a.buffer())) : n);
        return out;
    }

    /** lowerSegment inside the innermost loop: ShardByStream of inputs and outputs as their allocations require. */
    private static void lowerInLoop(List<HostNode> segment, OpenLoop loop, StreamAllocation allocation,
                                    HostIrBuilder h, List<HostNode> top) {
        Map<Integer, TensorView> replacement = new HashMap<>();
        TensorView ref = reference(segment);
        for (HostNode n : segment) {
            switch (n) {
                case Allocate a -> { } // re-made below, before the loop or here
                case HostOp op -> {
                    for (TensorView in : op.op().inputs()) shardInput(in, ref, op.id(), loop, allocation, h, replacement);
                    // no chunk of the input maps to a reshape's Stream axis (it merges or splits): as at 2025-06
                    if (op.op() instanceof FusionOp.Reshape r && !replacement.containsKey(r.input().id())
                            && !allocation.streamSharded(r.input())) {
                        throw StreamLoopBody.reshapeOfStreamAxis(op.op());
                    }
                    shardOutput(op.op().output(), op.id(), loop, allocation, h, replacement, top, false);
                    loop.body.add(h.inherit(op.id(), h.op(TensorSubstitution.apply(op.op(), replacement))));
                }
                case Communication c when allocation.deviceShardedAlong(c.input(), ref) -> {
                    // shardByStream returns nullptr for its input (lowering.cpp:198-208): it is sent whole
                    shardOutput(c.output(), c.id(), loop, allocation, h, replacement, top, true);
                    refuseShardPerIterationMismatch(c, allocation.deviceAxisAlong(c.input(), ref).orElseThrow(), loop);
                    loop.body.add(didToStream(c, replacement.getOrDefault(c.output().id(), c.output()), loop));
                }
                case Communication c -> {
                    shardInput(c.input(), ref, c.id(), loop, allocation, h, replacement);
                    shardOutput(c.output(), c.id(), loop, allocation, h, replacement, top, true);
                    loop.body.add(StreamAllocation.withTensors(c, replacement));
                }
                default -> loop.body.add(n);
            }
        }
    }

    /**
     * A tensor allocated per Stream chunk (FinalizeMultideviceDomainsPass) read by an op or kernel outside the loop
     * that writes it. nvFuser 2026-04 keeps producer and readers in one loop only while each segment's reference
     * loop maps to the previous one's (computeInlinePosition, lowering.cpp:411-430); a segment between them closes
     * it. The reader in a later loop then gets no ShardByStream (its allocation is sharded on Stream like the
     * reader's loop, lines 323-337) and reads what the last iteration left: one chunk as the whole tensor, a wrong
     * answer in nvFuser itself (found here under 2026-04 by NumpyOracleTest: div_broadcast+cast_to_bfloat16,
     * seed 210000518). Refused.
     */
    private static void refuseChunkFromAnotherLoop(List<HostNode> segment, OpenLoop loop, StreamAllocation allocation) {
        for (HostNode n : segment) {
            // a communication reading it is left alone: the six such fusions of the 2026-04 spaces (stride 3, 1000
            // random) validate
            List<TensorView> inputs = switch (n) {
                case HostOp op -> op.op().inputs();
                case PostOnStream post -> post.inputs();
                default -> List.of();
            };
            for (TensorView in : inputs) {
                if (!allocation.streamSharded(in) || loop != null && loop.written.contains(in.id())) continue;
                throw new LoweringException(List.of(new LoweringError(in.label(), "stream.chunk-across-loops-2026",
                        "it is allocated per Stream chunk but read outside the Stream loop that writes it (a segment"
                                + " between them does not share the loop): nvFuser 2026-04 would read the last"
                                + " iteration's chunk as the whole tensor (lowering.cpp:323-337, 411-430); lower it"
                                + " with --nvfuser 2025-06 or --option hostIrLowering=false",
                        in.subject())));
            }
            switch (n) {
                case HostOp op when loop != null -> loop.written.add(op.op().output().id());
                case Communication c when loop != null -> loop.written.add(c.output().id());
                case PostOnStream post when loop != null ->
                        post.unit().ops().forEach(o -> loop.written.add(o.output().id()));
                default -> { }
            }
        }
    }

    /**
     * A kernel outside any Stream loop (its reference loop does not start with Stream) whose output is allocated
     * per Stream chunk: nvFuser 2026-04 would allocate one chunk (allocations.cpp:884-890) and launch a kernel whose
     * Stream loop needs the stream index, which no host loop gives (kernel.cpp:489-496; found as a whole-tensor
     * collective per chunk by NumpyOracleTest's broadcast_first, seed 210000196, before kernels joined loops).
     */
    private static void refuseChunkedKernelOutput(PostOnStream post, StreamAllocation allocation) {
        for (TensorView out : post.outputs()) {
            if (!allocation.streamSharded(out)) continue;
            throw new LoweringException(List.of(new LoweringError(out.label(), "stream.kernel-outside-loop-2026",
                    "a kernel outside any Stream loop writes it and it is allocated per Stream chunk: nvFuser 2026-04"
                            + " opens a loop only for a segment whose most parallel output starts with a Stream id"
                            + " (lowering.cpp:457-475), so the kernel would run once for one chunk; lower it with"
                            + " --nvfuser 2025-06 or --option hostIrLowering=false",
                    out.subject())));
        }
    }

    /**
     * A DID-to-Stream set inside the loop (getCommunicationInfoForParallelType, lower_to_communication.cpp:441-457
     * at 81c4b22fd): a Broadcast from the rank at the loop index into this iteration's chunk (lowerToBroadcast's
     * same-mesh case, lines 150-185: the root is the host loop index; here its device, as roots are printed), or, where
     * the output's Stream axis is defined by a Swizzle1D, a CollectivePermute whose peers are dispatchSwizzle1D's
     * (lowerToCollectivePermute, lines 348-381; its peers inline, not as the add/mod statements lowering.cpp:244-252
     * pushes). Either keeps the Allgather's id, which the Wait after it names.
     */
    private static HostNode didToStream(Communication c, TensorView out, OpenLoop loop) {
        TensorView in = c.input();
        DeviceMesh mesh = in.mesh();
        refuseDeviceAxisOnOutput(c);
        if (!mesh.equals(c.output().mesh())) {
            throw new LoweringException(List.of(new LoweringError(in.label(), "stream.did-to-stream-mesh",
                    "Broadcast based allgather in stream parallel requires same mesh (nvFuser's check): "
                            + Texts.quote(in.label()) + " and " + Texts.quote(c.output().label())
                            + " are on different meshes",
                    in.subject())));
        }
        Optional<IterTransform.Swizzle1D> swizzle = SwizzledStream.of(c.output());
        if (swizzle.isEmpty()) {
            return new Communication(c.id(), CommunicationType.BROADCAST, mesh.deviceIds(),
                    Scalar.deviceAt(mesh, loop.index), in, out, null, c.backend());
        }
        ParallelType type = swizzle.get().parallelType();
        return new CollectivePermute(c.id(), out, in, mesh.deviceIds(),
                SwizzledStream.sendPeer(mesh, type, loop.index, loop.rank),
                SwizzledStream.recvPeer(mesh, type, loop.index, loop.rank), c.backend());
    }

    /**
     * A DID-to-Stream set whose output is sharded on devices along another axis too: nvFuser's
     * getCommunicationInfoForParallelType then finds a consumer DID id, so it is no DID-to-Stream allgather but an
     * AllToAll (lower_to_communication.cpp:441-483), whose input cannot be sharded by stream (its axis is already
     * sharded: shardByStream returns nullptr, ops.cpp:72-78) and goes whole into one chunk of the output: not
     * computed right by nvFuser; here it gave 13 of the 36 run failures of LoweredImpliesCorrectTest under 2026-04
     * with host_ir_lowering (issue 33).
     */
    private static void refuseDeviceAxisOnOutput(Communication c) {
        TensorView out = c.output();
        if (out.loopDomain().loop().stream().noneMatch(LoopDomain.Axis::isDeviceDim)) return;
        throw new LoweringException(List.of(new LoweringError(out.label(), "stream.did-to-stream-alltoall-2026",
                Texts.quote(out.label()) + "'s Stream axis comes from " + Texts.quote(c.input().label())
                        + "'s device-sharded axis while "
                        + Texts.quote(out.label())
                        + " is sharded on devices along another: nvFuser 2026-04 lowers it as an"
                        + " AllToAll whose whole input lands in one Stream chunk (lower_to_communication.cpp:441-483,"
                        + " ops.cpp:72-78); make the Stream axis and the device axis two sets, or lower it with"
                        + " --nvfuser 2025-06 or --option hostIrLowering=false",
                out.subject())));
    }

    /**
     * A DID-to-Stream set sends one device's whole shard per iteration: lowerToBroadcast roots iteration i at the
     * loop index (lower_to_communication.cpp:150-185) and lowerToCollectivePermute receives from its i-th peer
     * (lines 348-381), each into the iteration's chunk, so the loop needs one iteration per device along the
     * input's sharded axis. With another Stream extent (an outer split by a factor other than d, e.g. 1) the chunk
     * and the shard differ in size: a wrong or failed transfer in nvFuser (no check there); refused here, as the
     * MultiDeviceExecutor path refuses it (stream.allgather-axis). It gave 5 of the 27 wrong answers and 6 of the
     * 36 run failures of LoweredImpliesCorrectTest under 2026-04 with host_ir_lowering (issue 33).
     */
    private static void refuseShardPerIterationMismatch(Communication c, IterDomain sharded, OpenLoop loop) {
        int devices = c.input().devicesAlong(sharded.parallelType());
        if (!(loop.axis.extent() instanceof Extent.Constant(long extent)) || extent == devices) return;
        throw new LoweringException(List.of(new LoweringError(c.output().label(), "stream.did-to-stream-extent-2026",
                "a set from " + Texts.quote(c.input().label()) + "'s device-sharded axis to "
                        + Texts.quote(c.output().label()) + "'s Stream"
                        + " axis sends one device's whole shard per iteration, so the Stream axis needs extent "
                        + devices + " (the devices along it), not " + extent + " (lowerToBroadcast and"
                        + " lowerToCollectivePermute, lower_to_communication.cpp:150-185, 348-381): split it by "
                        + devices, c.output().subject())));
    }

    private static void shardInput(TensorView in, TensorView ref, int origin, OpenLoop loop,
                                   StreamAllocation allocation, HostIrBuilder h, Map<Integer, TensorView> replacement) {
        if (replacement.containsKey(in.id()) || allocation.streamSharded(in) || leadingStream(ref).isEmpty()) return;
        // the chunk's Stream axis is the segment output's, its Swizzle1D included (shardLoopLike, ops.cpp:37-69)
        StreamAllocation.Chunk chunk = allocation.shardByStream(h, in, ref, loop.chunkIndex(ref), origin);
        if (chunk == null) return; // nvFuser: shardByStream returns nullptr (broadcast, collective-permute inputs)
        replacement.put(in.id(), chunk.out());
        loop.body.add(chunk.node());
    }

    private static void shardOutput(TensorView out, int origin, OpenLoop loop, StreamAllocation allocation,
                                    HostIrBuilder h, Map<Integer, TensorView> replacement, List<HostNode> top,
                                    boolean communication) {
        if (!allocation.streamSharded(out) && leadingStream(out).isPresent()) {
            top.add(h.inherit(origin, h.allocateHostIr(out))); // before the loop
            StreamAllocation.Chunk chunk = allocation.shardByStream(h, out, loop.ref, loop.chunkIndex(out), origin);
            if (chunk == null) {
                throw new LoweringException(List.of(new LoweringError(out.label(), "stream.shard-by-stream", "output "
                        + Texts.quote(out.label())
                        + " could not be sharded by stream: no axis of it maps to the loop's Stream axis"
                        + " (nvFuser: 'Output could not be sharded by stream')", out.subject())));
            }
            replacement.put(out.id(), chunk.out());
            loop.body.add(chunk.node());
        } else if (communication) {
            loop.body.add(h.inherit(origin, h.allocateHostIr(out)));
        }
    }

    /**
     * inter_stream_synchronization is a field of {@code HostIrLowerParams} (csrc/host_ir/lower.h:18-26 at 81c4b22fd),
     * which only the MultiDeviceExecutor's HostIrLower and its StreamParallelType pass read
     * (stream_parallel_type.cpp:646); lowerSegmentedFusionToHostIr takes none (lowering.cpp:433-491), so on this
     * path nvFuser would not do what the option asks: refused rather than ignored.
     */
    private static void checkNoLowerParams(LoweringContext context) {
        if (!context.options().get(StreamParallelTypePass.INTER_STREAM_SYNCHRONIZATION)) return;
        throw new LoweringException("option " + StreamParallelTypePass.INTER_STREAM_SYNCHRONIZATION.key(), "option",
                "nvFuser's host_ir_lowering path has no inter_stream_synchronization (a parameter of the"
                        + " MultiDeviceExecutor's HostIrLower): use hostIrLowering=false");
    }
}
