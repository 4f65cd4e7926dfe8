package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorSubstitution;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.ir.host.EndCoalescing;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.Stream;
import org.hostir.studio.rules.StreamReduction;

/**
 * The inside of one stream loop: each op's inputs and outputs sliced at the loop index (one slice per tensor),
 * the op rewired to the slices under its own id, and DIDx-to-Stream sets expanded into their allgather form.
 * Slices that a communication will read or write are global memory, the others local (as the seeds print).
 */
final class StreamLoopBody {
    private final HostIrBuilder h;
    private final LoweringContext context;
    private final IterDomain axis;
    private final List<HostOp> ops;
    private final Map<Integer, TensorView> slices = new HashMap<>();
    /** The index each cached slice was taken at: StreamIdx, or (i + k) % n for a swizzled Stream axis. */
    private final Map<Integer, Scalar> sliceIndices = new HashMap<>();
    private final Set<Integer> communicated = new HashSet<>();
    /** The loop index: the position in the gathered tensor's mesh of the slice an iteration handles. */
    private final Scalar index;
    private final boolean offset;
    /** Whether the loop holds a P2P ReduceScatter set, and its peers (used only then). */
    private final boolean reduceScatter;
    private final ReduceScatterP2p.Peers peers;
    /** The loop's Stream axis when it is the outer part of an outer split: slices are chunks, not selects. */
    private final LoopDomain.Axis split;

    StreamLoopBody(HostIrBuilder h, LoweringContext context, IterDomain axis, List<HostOp> ops) {
        this.h = h;
        this.context = context;
        this.axis = axis;
        this.ops = ops;
        this.split = SplitStream.of(ops.getFirst().op().output()).orElse(null);
        for (HostOp op : ops) {
            // the Reduce-based ReduceScatter's slices are local, as nvFuser's TensorSlicingCache makes them (#5923)
            if (Resharding.isResharding(op.op()) && Resharding.didToStreamAxis(op.op()).isEmpty()
                    && !StreamReduction.isReduceBasedReduceScatter(op.op())) {
                op.op().inputs().forEach(t -> communicated.add(t.id()));
                communicated.add(op.op().output().id());
            }
        }
        boolean allgathers = ops.stream().anyMatch(op -> Resharding.didToStreamAxis(op.op()).isPresent()
                && SwizzledStream.of(op.op().output()).isEmpty() && !ReduceScatterP2p.matches(op.op()));
        this.reduceScatter = ops.stream().anyMatch(op -> ReduceScatterP2p.matches(op.op()));
        // the P2P ReduceScatter is point-to-point whatever the allgather option (nvFuser has no such option)
        boolean p2p = (allgathers || reduceScatter) && (!allgathers
                || context.options().get(StreamParallelTypePass.ALLGATHER) == AllgatherLowering.P2P);
        // Collectives match by order, so every rank must visit the slices in the same order; only the P2P
        // allgather, whose transfers pair up per iteration, may start each rank at its own slice.
        // the rank's own slice comes first only where the loop gathers within one mesh: it is a position there
        List<DeviceMesh> gathered = ops.stream().filter(op -> Resharding.didToStreamAxis(op.op()).isPresent())
                .map(op -> op.op().inputs().get(0).mesh()).distinct().toList();
        // the P2P ReduceScatter has no other order in which its sends and recvs pair up: each rank starts at its
        // own slice whatever offsetStreamIndexingByRank says (nvFuser asserts instead when the option is off)
        this.offset = p2p && communicated.isEmpty() && gathered.size() == 1 && (reduceScatter
                || context.options().get(StreamParallelTypePass.OFFSET_STREAM_INDEXING_BY_RANK));
        this.peers = ReduceScatterP2p.Peers.of(axis.extent(),
                context.options().get(StreamParallelTypePass.P2P_OWN_SLICE_LAST),
                gathered.size() == 1 ? gathered.getFirst() : null);
        // the P2P ReduceScatter indexes by nvFuser's newest `rank` (on a mesh {0 .. n-1}); the allgather by the
        // position in the mesh, deviceIdx.x, as the seeds print it
        if (!offset) this.index = NamedScalar.STREAM_IDX;
        else if (reduceScatter) this.index = peers.tensorIndex();
        else this.index = Scalar.mod(Scalar.add(Scalar.positionIn(gathered.getFirst()), NamedScalar.STREAM_IDX),
                axis.extent());
    }

    List<HostNode> build() {
        List<HostNode> body = new ArrayList<>();
        List<HostNode> epilogue = new ArrayList<>();
        for (HostOp node : ops) {
            FusionOp op = node.op();
            if (ReduceScatterP2p.matches(op)) {
                reduceScatter(node, (FusionOp.Set) op, body, epilogue);
                continue;
            }
            if (StreamReduction.isReduceBasedReduceScatter(op)) {
                reduce(node, (FusionOp.Reduction) op, body);
                continue;
            }
            var didAxis = Resharding.didToStreamAxis(op);
            if (didAxis.isPresent()) {
                allgather(node, (FusionOp.Set) op, didAxis.get(), body, epilogue);
                continue;
            }
            Map<Integer, TensorView> rewired = new HashMap<>();
            // the op's output says which slice an iteration handles (a swizzled Stream axis: (i + k) % n)
            Scalar at = SwizzledStream.sliceIndex(op.output(), index, context.rank());
            checkNoCollectiveOnSwizzledSlices(op);
            for (int i = 0; i < op.inputs().size(); i++) {
                TensorView in = op.inputs().get(i);
                TensorView slice = slices.get(in.id());
                if (slice != null) checkSameSwizzle(op, in, at);
                if (slice == null) {
                    int p = AxisMap.producerAxis(op, i, streamPosition(op.output()));
                    if (p == AxisMap.NONE && op instanceof FusionOp.Reshape) throw reshapeOfStreamAxis(op);
                    // in a loop over chunks a broadcast axis holds one element for every chunk: the operand is
                    // read whole (a chunk keeps the axis, so the op's shapes agree). nvFuser maps it to the loop's
                    // axis (findStreamAxisIndex through the BROADCAST graph,
                    // csrc/host_ir/pass/stream_parallel_type.cpp:60-66, 91-115 at 81c4b22fd), and a chunk of it
                    // was "chunk 1 of 2 outside an axis of size 1"; a loop over a logical axis selects it as before
                    boolean whole = split != null && p != AxisMap.NONE && in.axis(p).isBroadcast();
                    if (p != AxisMap.NONE && !whole) slice = select(node, in, p, body, at);
                }
                if (slice != null) rewired.put(in.id(), slice);
            }
            TensorView out = op.output();
            rewired.put(out.id(), select(node, out, streamPosition(out), body, at));
            // a chunk keeps the axis: nothing to renumber
            body.add(new HostOp(node.id(), split != null ? TensorSubstitution.apply(op, rewired)
                    : SlicedOps.slice(op, rewired, streamPosition(out))));
        }
        body.addAll(epilogue); // nvFuser's new_loop_body_epilogue: the deferred waits on sends
        return body;
    }

    /**
     * processForLoopBodies' MM + RS p2p branch: the input's slice at the loop index (a slice the matmul already
     * took is pushed again, as nvFuser pushes its cached HirAliasSelect), the output's at the receive peer, then
     * the exchange ({@link ReduceScatterP2p}).
     */
    private void reduceScatter(HostOp node, FusionOp.Set set, List<HostNode> body, List<HostNode> epilogue) {
        ReduceScatterP2p.check(set);
        if (!offset) {
            throw new LoweringException(set, "stream.reduce-scatter-p2p", "the P2P ReduceScatter into "
                    + Texts.quote(set.output().label())
                    + " starts each rank at its own slice, but its stream loop also holds a"
                    + " collective or a Broadcast allgather, which needs every rank at the same slice: reshard"
                    + " those outside the loop, or use --option allgather=p2p");
        }
        TensorView inSlice = inputSlice(node, set.input(), body);
        TensorView outSlice = select(node, set.output(), 0, body, false, peers.recvIndex());
        var backend = context.options().get(ConvertToCommunicationPass.BACKEND);
        body.add(ReduceScatterP2p.exchange(h, node, new ReduceScatterP2p.Builder() {
            public <N extends HostNode> N node(N n) { return from(node, n); }
        }, inSlice, outSlice, peers, backend, context.options().get(CudaBackendOptions.P2P_PROTOCOL), epilogue));
    }

    /**
     * processForLoopBodies' "MM+RS reduce-collective-based algorithm" (csrc/host_ir/pass/stream_parallel_type.cpp:
     * 470-506 at 81c4b22fd, #5923): the input's slice at the loop index (pushed again where the matmul took it, as
     * nvFuser pushes its cached HirAliasSelect), the output's along its Stream reduction axis (#5923's dump:
     * {@code axis = rS13{4}}; nothing is allocated for that axis, so the select is the output whole,
     * HostIrEvaluator::handle(HirAliasSelect*)), then a Reduce over the mesh rooted at the loop index, and its Wait.
     * Rank t receives in iteration t the sum of every rank's partial for its chunk: the ReduceScatter.
     */
    private void reduce(HostOp node, FusionOp.Reduction sum, List<HostNode> body) {
        TensorView in = sum.input();
        TensorView inSlice = inputSlice(node, in, body);
        TensorView outSlice = select(node, sum.output(), streamPosition(sum.output()), body, false, index);
        DeviceMesh mesh = in.mesh();
        var comm = from(node, h.communication(CommunicationType.REDUCE, mesh.deviceIds(), Scalar.deviceAt(mesh, index),
                inSlice, outSlice, ReductionOpType.SUM, context.options().get(ConvertToCommunicationPass.BACKEND)));
        body.add(comm);
        body.add(from(node, h.waitFor(comm)));
    }

    /**
     * The MM + RS branches' input slice at the loop index: a slice the matmul already took is pushed again (as
     * nvFuser pushes its cached HirAliasSelect) and reused, else a local one is taken.
     */
    private TensorView inputSlice(HostOp node, TensorView in, List<HostNode> body) {
        int inAxis = streamPosition(in);
        TensorView cached = slices.get(in.id());
        if (cached == null) return select(node, in, inAxis, body, false, index);
        body.add(from(node, h.select(cached, in, in.axis(inAxis), index)));
        return cached;
    }

    /**
     * Seed 000: the slice of iteration i is the own shard when i is this rank's position in the mesh, else it
     * comes from the device at position i. Loop indices and slices count mesh positions while peers and roots
     * are device ids, as in nvFuser (shardTensor slices at {@code mesh.idxOf(device)}, SendRecv and Broadcast
     * name {@code mesh.at(i)}); on a mesh {0 .. n-1} the lookups fold away and the seeds print as nvFuser's.
     */
    private void allgather(HostOp node, FusionOp.Set set, int didAxis, List<HostNode> body,
                           List<HostNode> epilogue) {
        TensorView in = set.input();
        TensorView out = set.output();
        DeviceMesh mesh = in.mesh();
        if (SwizzledStream.of(out).isPresent()) {
            collectivePermute(node, set, body);
            return;
        }
        Scalar position = Scalar.positionIn(mesh); // deviceIdx.x on a mesh {0 .. n-1}
        boolean broadcast = context.options().get(StreamParallelTypePass.ALLGATHER) == AllgatherLowering.BROADCAST;
        // the input's slice is created before the output's, as nvFuser's processForLoopBodies does (T4 slices T0
        // and T5 the output in seed 000), though the output's select is printed first
        // a chunk of a split Stream axis has the shape of the rank's whole shard: no select of the shard then
        TensorView shard = split != null ? in
                : h.ir().sliceOf(in, broadcast ? MemoryType.GLOBAL : MemoryType.LOCAL, didAxis);
        TensorView outSlice = select(node, out, streamPosition(out), body, broadcast, index);
        List<HostNode> selectShard = split != null ? List.of()
                : List.of(from(node, h.select(shard, in, in.axis(didAxis), Scalar.constant(0))));
        var backend = context.options().get(ConvertToCommunicationPass.BACKEND);
        if (broadcast) {
            body.addAll(selectShard);
            var comm = from(node, h.communication(CommunicationType.BROADCAST, mesh.deviceIds(),
                    Scalar.deviceAt(mesh, index), shard, outSlice, null, backend));
            body.add(comm);
            body.add(from(node, h.waitFor(comm)));
            interStreamSynchronization(node, body);
            return;
        }
        List<HostNode> local = new ArrayList<>(selectShard);
        local.add(new HostOp(node.id(), new FusionOp.Set(outSlice, shard)));
        var start = backend == CommunicatorBackend.NCCL ? from(node, h.startCoalescing()) : null;
        var recv = from(node, h.p2p(P2PCommunication.Type.RECV, outSlice, Scalar.deviceAt(mesh, index), backend));
        // iteration i receives slice (position + i) from its owner and sends this shard to the position that
        // wants it in the same iteration, (position - i): a ring, so both ends of every transfer are in the same
        // iteration
        Scalar sendPosition = offset ? Scalar.mod(Scalar.add(Scalar.sub(position, NamedScalar.STREAM_IDX),
                axis.extent()), axis.extent()) : index;
        var send = from(node, h.p2p(P2PCommunication.Type.SEND, in, Scalar.deviceAt(mesh, sendPosition), backend));
        Scalar toSelf = Scalar.eq(index, position);
        // NCCL: a coalesced group and a Wait on it; CUDA: as the MM + RS branch (stream_parallel_type.cpp:425-461)
        List<HostNode> remote = switch (backend) {
            case NCCL -> {
                EndCoalescing end = from(node, h.endCoalescing());
                yield List.of(start, recv, send, end, from(node, h.waitFor(end)));
            }
            case CUDA -> ReduceScatterP2p.cudaExchange(h, new ReduceScatterP2p.Builder() {
                public <N extends HostNode> N node(N n) { return from(node, n); }
            }, recv, send, toSelf, context.options().get(CudaBackendOptions.P2P_PROTOCOL), epilogue);
        };
        body.add(from(node, h.ifThenElse(toSelf, local, remote)));
        interStreamSynchronization(node, body);
    }

    /**
     * inter_stream_synchronization (csrc/host_ir/pass/stream_parallel_type.cpp:646-672 at 81c4b22fd):
     * {@code IF ( i + 1 ) < numberOfStreams: SetCurrentStream(i + 1), Synchronize(i % numberOfStreams),
     * SetCurrentStream(i % numberOfStreams)}.
     */
    private void interStreamSynchronization(HostOp node, List<HostNode> body) {
        if (!context.options().get(StreamParallelTypePass.INTER_STREAM_SYNCHRONIZATION)) return;
        Scalar loopIndex = NamedScalar.STREAM_IDX;
        Stream current = new Stream.Indexed(Scalar.mod(loopIndex, NamedScalar.NUMBER_OF_STREAMS));
        Scalar next = Scalar.add(loopIndex, Scalar.constant(1));
        body.add(from(node, h.ifThenElse(Scalar.lt(next, NamedScalar.NUMBER_OF_STREAMS),
                List.of(from(node, h.setCurrentStream(new Stream.Indexed(next))), from(node, h.synchronize(current)),
                        from(node, h.setCurrentStream(current))), List.of())));
    }

    /**
     * getCommunicationInfoForParallelType's DID-to-Stream case when the consumer's Stream axis is defined by a
     * Swizzle1D: lowerToCollectivePermute. nvFuser's lowering (lowering.cpp) leaves the input whole (shardByStream
     * finds no Stream axis on it), slices the output, and puts the peers' math, then the CollectivePermute and
     * its Wait, in the loop body. The peers are this rank's dispatchSwizzle1D, with its team index a constant.
     */
    private void collectivePermute(HostOp node, FusionOp.Set set, List<HostNode> body) {
        SwizzledStream.check(set);
        TensorView in = set.input();
        TensorView out = set.output();
        DeviceMesh mesh = in.mesh();
        Scalar at = SwizzledStream.sliceIndex(out, index, context.rank());
        TensorView outSlice = select(node, out, streamPosition(out), body, true, at);
        // HostIrLower drops the segment on a rank outside its meshes: it takes no part (its slice stays unset)
        if (!mesh.contains(context.rank())) return;
        var type = SwizzledStream.of(out).orElseThrow().parallelType();
        var backend = context.options().get(ConvertToCommunicationPass.BACKEND);
        if (backend != CommunicatorBackend.NCCL) { // HostIrEvaluator::handle(CollectivePermute*)'s check
            throw new LoweringException(set, "sharding.collective-permute-backend", "CollectivePermute is only"
                    + " supported with the NCCL backend (nvFuser posts it as a coalesced send/recv group); drop"
                    + " --option backend=" + backend.dumpName().toLowerCase(java.util.Locale.ROOT));
        }
        var comm = from(node, h.collectivePermute(outSlice, in, mesh.deviceIds(),
                SwizzledStream.sendPeer(mesh, type, index, context.rank()),
                SwizzledStream.recvPeer(mesh, type, index, context.rank()), backend));
        body.add(comm);
        body.add(from(node, h.waitFor(comm)));
    }

    /**
     * ReshardingTest.Swizzle1D_ConsistentSwizzle: Stream axes that are both swizzled alike (or both not) are the
     * same sharding; otherwise iteration i would pair one tensor's slice i with another's (i + k) % n. A slice
     * already taken is reused only at the index this op's output asks for.
     */
    private void checkSameSwizzle(FusionOp op, TensorView in, Scalar at) {
        if (at.equals(sliceIndices.get(in.id()))) return;
        boolean inSwizzled = !sliceIndices.get(in.id()).equals(index);
        throw new LoweringException(op, "stream.swizzle", Texts.quote(in.label()) + " and "
                + Texts.quote(op.output().label()) + " share a"
                + " stream loop but only " + (inSwizzled ? Texts.quote(in.label()) : Texts.quote(op.output().label()))
                + "'s Stream slices"
                + " come from a swizzle1d, so an iteration would handle different slices of them"
                + " (haveDifferentShardings on Stream): swizzle both Stream axes the same way");
    }

    /**
     * On a swizzled Stream axis each rank handles its own slice in an iteration, (i + k) % n, which only the
     * CollectivePermute is built for: any other communication in the loop would pair different slices across
     * ranks. nvFuser swizzles the Stream axis for the DID-to-Stream allgather only.
     */
    private static void checkNoCollectiveOnSwizzledSlices(FusionOp op) {
        if (!Resharding.isResharding(op) || SwizzledStream.of(op.output()).isEmpty()) return;
        throw new LoweringException(op, "stream.swizzle-collective", Texts.quote(op.output().label())
                + "'s Stream axis comes from"
                + " a swizzle1d, so each rank handles another slice in an iteration ((i + k) % n); a communication"
                + " on such slices would pair different slices across ranks: only a set from a DIDx axis to the"
                + " swizzled Stream axis (a CollectivePermute) may reshard there; drop the swizzle or reshard"
                + " outside the loop");
    }

    /**
     * A reshape whose Stream axis splits or merges its input's axes: an iteration's slice of the output has no
     * slice of the input to come from. nvFuser runs a reshape (ViewOp) in a kernel, not as a standalone host op
     * (HostIrLower::isLowerableAsStandaloneHostOp, csrc/host_ir/lower.cpp:31-56 at 81c4b22fd), and its
     * groupStreamParallelRegions refuses a Stream axis there; a reshape keeping the Stream axis whole is lowered
     * here as a host op, sliced like its input (a project extension), this one is refused.
     */
    static LoweringException reshapeOfStreamAxis(FusionOp op) {
        return new LoweringException(op, "stream.post-on-stream", Texts.quote(op.output().label())
                + "'s Stream axis is made by"
                + " a reshape that splits or merges " + Texts.quote(op.inputs().getFirst().label())
                + "'s axes, so an iteration"
                + " has no slice of the input to reshape (nvFuser runs a reshape in a kernel, where a Stream axis is"
                + " not supported): put the Stream axis on an axis the reshape keeps whole, or on a tensor after it");
    }

    private TensorView select(HostOp node, TensorView tv, int position, List<HostNode> body, Scalar at) {
        return select(node, tv, position, body, communicated.contains(tv.id()), at);
    }

    private TensorView select(HostOp node, TensorView tv, int position, List<HostNode> body, boolean global,
                              Scalar at) {
        TensorView cached = slices.get(tv.id());
        if (cached != null) return cached;
        MemoryType memory = global ? MemoryType.GLOBAL : MemoryType.LOCAL;
        TensorView slice;
        if (split != null) {
            // one chunk of the logical axis, which the slice keeps (SplitStream)
            slice = SplitStream.chunkOf(h.ir(), tv, position, split, memory);
            IterDomain along = SplitStream.loopAxis(SplitStream.of(tv).isPresent() ? tv : slice).orElseThrow();
            body.add(from(node, h.select(slice, tv, along, at)));
        } else {
            slice = h.ir().sliceOf(tv, memory, position);
            body.add(from(node, h.select(slice, tv, tv.axis(position), at)));
        }
        slices.put(tv.id(), slice);
        sliceIndices.put(tv.id(), at);
        return slice;
    }

    private <N extends HostNode> N from(HostOp origin, N node) {
        return h.inherit(origin.id(), node);
    }

    private static int streamPosition(TensorView tv) {
        for (int i = 0; i < tv.rank(); i++) {
            if (tv.axis(i).isStream()) return i;
        }
        throw new IllegalStateException(tv.label() + " has no Stream axis");
    }

}
