package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.hostir.studio.diag.Subject;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.PostOnStream;
import org.hostir.studio.ir.host.Stream;
import org.hostir.studio.ir.print.IrText;
import org.hostir.studio.rules.StreamReduction;

/**
 * nvFuser's StreamParallelType pass (seeds 000, 001, 003). Consecutive top-level ops whose output has a Stream
 * axis go into one {@code FOR StreamIdx} loop; a following op joins when its stream axis has the loop's extent,
 * is mapped to the loop's axis through the op, and it reads what the loop produces (or is resharding); any other
 * node closes the loop. Outputs are allocated whole before the loop and sliced with HirAliasSelect inside; the
 * stream management of the seeds surrounds the loop. A DIDx-to-Stream set is the pipelined allgather: P2P (seed 000) or Broadcast, or left to the
 * communication pass as one whole Allgather; when the output's Stream axis comes from a swizzle1d, a
 * CollectivePermute per iteration (nvFuser's newest getCommunicationInfoForParallelType), whatever the option.
 */
public final class StreamParallelTypePass implements HostPass {
    private static final String NAME = "StreamParallelType";

    public static final LoweringOption<Integer> NUMBER_OF_STREAMS = LoweringOption.integer("numberOfStreams", 1, 1024,
            4, "Streams", "worker streams a stream loop cycles through (StreamIdx % numberOfStreams)", NAME);
    public static final LoweringOption<AllgatherLowering> ALLGATHER = LoweringOption.choice("allgather",
            AllgatherLowering.P2P, "Allgather", "how a DIDx-to-Stream set is lowered: per-iteration send/recv pairs"
                    + " (p2p), a Broadcast per iteration, or one Allgather before the loop (collective)", NAME);
    public static final LoweringOption<Boolean> OFFSET_STREAM_INDEXING_BY_RANK = LoweringOption.flag(
            "offsetStreamIndexingByRank", false, "Offset by rank", "each rank iterates the slices from its own,"
                    + " (rank + i) % D, so its local slice is computed while the first transfer is in flight", NAME);

    public static final LoweringOption<Boolean> P2P_OWN_SLICE_LAST = LoweringOption.flag("p2pOwnSliceLast", false,
            "Own slice last", "project extension, not nvFuser: the P2P ReduceScatter visits (rank + 1 + i) % D"
                    + " instead of (rank + i) % D, so the rank's own partial (a local copy) comes last and every"
                    + " remote partial's transfer overlaps a later GEMM; that pipeline only", NAME);

    /** The AG+GEMM schedule as one choice; each value sets the options above as {@link AgGemmSchedule} declares. */
    public static final LoweringOption<AgGemmSchedule> AG_GEMM_SCHEDULE = LoweringOption.choice("agGemmSchedule",
            AgGemmSchedule.OPTIONS, "AG+GEMM schedule", "the allgather+GEMM schedule as one choice: P2P order (allPairs:"
                    + " iteration i with rank i; ring: with (rank + i) % D), the own shard copied or forwarded, or"
                    + " collective; it sets allgather, offsetStreamIndexingByRank and forwardLocalShard (options:"
                    + " they decide); backend picks NCCL or the copy engines", NAME);

    /**
     * nvFuser 2026-04's {@code HostIrLowerParams::inter_stream_synchronization} (csrc/host_ir/lower.h:21-26,
     * #5838): after a pipelined allgather's communication, while {@code i + 1 < numberOfStreams}, stream i+1 waits
     * for stream i, so iteration i+1 starts after i's transfer (csrc/host_ir/pass/stream_parallel_type.cpp:646-672).
     */
    public static final LoweringOption<Boolean> INTER_STREAM_SYNCHRONIZATION = LoweringOption.flag(
            "interStreamSynchronization", false, "Inter-stream sync", "2026-04 only (MultiDeviceExecutor path):"
                    + " after a pipelined allgather's transfer, stream i+1 waits for stream i while i+1 <"
                    + " numberOfStreams", NAME);

    public String name() { return NAME; }

    @Override
    public List<LoweringOption<?>> options() {
        return List.of(NUMBER_OF_STREAMS, ALLGATHER, OFFSET_STREAM_INDEXING_BY_RANK, P2P_OWN_SLICE_LAST,
                INTER_STREAM_SYNCHRONIZATION, CudaBackendOptions.P2P_PROTOCOL, AG_GEMM_SCHEDULE);
    }

    public HostIrContainer run(HostIrContainer input, LoweringContext context) {
        HostIrContainer program = SymmetricMemory.streamedOutputs(input, context.options(),
                n -> streamAxisOf(n, context.options()).isPresent());
        HostIrBuilder h = new HostIrBuilder(new IrBuilder(program.counters(), program.symbols()))
                .withProvenance(program.provenance());
        // the check is gone by 2026-04: "Inputs can now be stream parallelized" (the skipped
        // InputsAreNotStreamParallelized of tests/cpp/test_host_ir_stream_lowering.cpp:38-39 at 81c4b22fd)
        if (context.generation() == NvFuserGeneration.V2025_06) checkNoStreamInputs(program);
        checkReduceBasedReduceScatter(program, context);
        if (context.generation() == NvFuserGeneration.V2025_06 && context.options().get(INTER_STREAM_SYNCHRONIZATION)) {
            throw new LoweringException("option " + INTER_STREAM_SYNCHRONIZATION.key(), "option", "nvFuser 2025-06 has"
                    + " no inter_stream_synchronization (it came in 2026-01, #5838): use --nvfuser 2026-04");
        }
        List<HostNode> out = new ArrayList<>();
        StreamLoopBuilder loop = null;
        StreamAxisMapping axes = context.fusion() != null ? StreamAxisMapping.of(context.fusion().ops())
                : StreamAxisMapping.of(program.topLevel().stream().filter(n -> n instanceof HostOp)
                        .map(n -> ((HostOp) n).op()).toList());
        int loops = 0;
        for (HostNode node : program.topLevel()) {
            if (node instanceof HostOp op) checkPipelinedAllgather(op.op(), program.topLevel(), context.options());
            if (node instanceof PostOnStream p && p.outputs().stream().anyMatch(t -> t.streamAxis().isPresent())) {
                TensorView streamed = p.outputs().stream().filter(t -> t.streamAxis().isPresent()).findFirst()
                        .orElseThrow();
                throw new LoweringException(List.of(new LoweringError(p.unit().name(), "stream.post-on-stream",
                        "PostOnStream cannot be stream-parallelized: only standalone host ops run in a stream loop",
                        streamed.subject())));
            }
            Optional<IterDomain> axis = streamAxisOf(node, context.options());
            if (axis.isPresent()) {
                HostOp op = (HostOp) node;
                if (loop == null || !loop.accepts(op.op(), axis.get())) {
                    loops += close(loop, out, loops);
                    loop = new StreamLoopBuilder(h, axes, context, op, axis.get());
                }
                loop.add(op);
            } else {
                loops += close(loop, out, loops);
                loop = null;
                out.add(node);
            }
        }
        close(loop, out, loops);
        return new HostIrContainer(program.inputs(), program.outputs(), out, program.hostUnits(), program.symbols(),
                h.ir().counters(), h.provenance());
    }

    /**
     * StreamParallelType::passImplementation: "Expected no stream axis in the TensorView inputs". A loop slices
     * what the program produces; an input comes whole from the caller.
     */
    private static void checkNoStreamInputs(HostIrContainer program) {
        List<LoweringError> errors = program.inputs().stream().filter(t -> t.streamAxis().isPresent())
                .map(t -> new LoweringError(t.label(), "stream.input", "a fusion input cannot have a Stream axis:"
                        + " a stream loop slices the tensors the program computes, while an input arrives whole;"
                        + " make the axis Serial here and Stream-parallel on a tensor computed from it",
                        t.subject()))
                .toList();
        if (!errors.isEmpty()) throw new LoweringException(errors);
    }

    /**
     * The Reduce-based matmul + ReduceScatter's sum ({@link StreamReduction}): the seeds refuse its Stream reduction
     * axis (validateStreamAxis, csrc/host_ir/pass/stream_parallel_type.cpp:57-63 at 43b9a1aa5); 2026-04 lowers it
     * only with offset_stream_indexing_by_rank off (its p2p branch asserts "expected a set operation" otherwise,
     * lines 367-373 at 81c4b22fd; "Will fail if true", test_multidevice_stream_parallel_type.cpp:755).
     */
    private static void checkReduceBasedReduceScatter(HostIrContainer program, LoweringContext context) {
        for (HostNode n : program.topLevel()) {
            if (!(n instanceof HostOp op) || !StreamReduction.isReduceBasedReduceScatter(op.op())) continue;
            TensorView out = op.op().output();
            if (context.generation() == NvFuserGeneration.V2025_06) {
                throw new LoweringException(List.of(new LoweringError(out.label() + ".axes[0]", "stream.reduction",
                        "axis 0 of " + Texts.quote(out.label())
                                + " is a reduction axis and cannot be Stream-parallel at nvFuser"
                                + " 2025-06 ('should be an iteration or broadcast axis'); nvFuser 2026-04 lowers this"
                                + " sum as a Reduce per iteration (#5923): use --nvfuser 2026-04",
                        new Subject.Axis(out.subject(), 0))));
            }
            if (context.options().get(OFFSET_STREAM_INDEXING_BY_RANK)) {
                throw new LoweringException(op.op(), "stream.reduce-scatter-reduce-offset", "the Reduce-based"
                        + " ReduceScatter into " + Texts.quote(out.label())
                        + " roots each iteration's Reduce at the loop index,"
                        + " the same on every rank; nvFuser lowers it only with offset_stream_indexing_by_rank off:"
                        + " drop --option " + OFFSET_STREAM_INDEXING_BY_RANK.key() + "=true");
            }
        }
    }

    /**
     * processForLoopBodies' P2P allgather: "expected a sharded first axis on the input" and "a stream
     * parallelized first axis on the output". A DIDx-to-Stream set moves whole outermost slices, whichever
     * allgather form it is lowered to.
     */
    private static void checkPipelinedAllgather(FusionOp op, List<HostNode> program, LoweringOptions options) {
        if (Resharding.didToStreamAxis(op).isEmpty()) return;
        TensorView in = op.inputs().get(0);
        TensorView out = op.output();
        // a swizzled Stream axis selects CollectivePermute whatever the allgather option: its own checks first
        if (SwizzledStream.of(out).isPresent()) SwizzledStream.check((FusionOp.Set) op);
        if (!in.mesh().equals(out.mesh())) {
            // the loop pairs each send with a receive from the same peer, within one mesh; this also catches the
            // set DecomposeReshardings puts in front of a matmul that the file's check (io) cannot see
            throw new LoweringException(List.of(new LoweringError(CommunicationPlanner.subject(op),
                    "mesh.stream-allgather", Texts.quote(in.label()) + " on " + IrText.mesh(in.mesh())
                            + " is gathered along a"
                    + " Stream axis into " + Texts.quote(out.label()) + " on " + IrText.mesh(out.mesh())
                    + "; the pipelined"
                    + " allgather stays in one mesh: give both the same mesh, or gather into a tensor without a"
                    + " Stream axis first", inFile(out, program).subject())));
        }
        if (ReduceScatterP2p.matches(op)) { // the P2P ReduceScatter: its checks when its loop is lowered
            ReduceScatterP2p.check((FusionOp.Set) op);
            return;
        }
        checkPeersOnOneAxis(op, in, options);
        checkSplitAllgather(op, in, out);
        if (!in.axis(0).isDeviceDim() || !out.axis(0).isStream()) {
            throw new LoweringException(op, "stream.allgather-axis", "a set from a DIDx axis to a Stream axis (the"
                    + " pipelined allgather) needs the DIDx axis first in its input and the Stream axis first in"
                    + " its output; here they are axes " + in.axes().indexOf(in.axes().stream()
                    .filter(IterDomain::isDeviceDim).findFirst().orElseThrow()) + " and "
                    + out.axes().indexOf(out.streamAxis().orElseThrow()) + ": move them outermost");
        }
        Optional<IterDomain> sharded = out.axes().stream().filter(a -> a.isDeviceDim() && !a.isReduction())
                .findFirst();
        if (sharded.isPresent() && out.mesh().size() > 1) { // on one device a DIDx axis holds it all
            // processForLoopBodies handles only the "Linear Allgather" [DIDx(i0), ...] -> [Stream(i0), ...]: each
            // rank's whole shard goes into one slice of the output, so the other axes keep the input's sharding
            throw new LoweringException(op, "stream.allgather-resharded", "a set from a DIDx axis to a Stream axis"
                    + " (the pipelined allgather) copies each rank's whole shard into one slice of its output, so"
                    + " the output's other axes keep the input's sharding; here axis " + out.axes()
                    .indexOf(sharded.get()) + " of " + Texts.quote(out.label())
                            + " is DIDx as well (two sharding changes in one"
                    + " set): keep the Stream tensor's other axes sharded as the input's, and shard in a set after");
        }
    }

    /**
     * The P2P and Broadcast forms of the pipelined allgather address each iteration's peer or root by the loop
     * index, a device id (processForLoopBodies: {@code recv_peer = tensor_index}, {@code send_peer =
     * for_loop->index()}, csrc/host_ir/pass/stream_parallel_type.cpp:548-552 at 81c4b22fd; lowerToBroadcast roots
     * at it): one position per device of a 1-D mesh. On a 2-D mesh the ranks of a later row would wait for peers
     * of the first row that never send to them; nvFuser has no slice of the mesh there, so neither form is
     * lowered. The collective form, one Allgather within each mesh slice before the loop, is.
     */
    private static void checkPeersOnOneAxis(FusionOp op, TensorView in, LoweringOptions options) {
        if (in.mesh().rank() < 2 || options.allgather() == AllgatherLowering.COLLECTIVE) return;
        throw new LoweringException(op, "sharding.mesh-2d", "the pipelined allgather's " + options.allgather()
                .name().toLowerCase(Locale.ROOT) + " form addresses each iteration's peer by the loop"
                + " index, a device of a 1-D mesh (nvFuser's stream lowering), but " + Texts.quote(in.label())
                + " is on the"
                + " 2-D mesh " + IrText.mesh(in.mesh()) + ": use allgather=collective, or a 1-D mesh");
    }

    /**
     * A pipelined allgather into a split Stream axis moves one rank's whole shard per iteration into one chunk, so
     * the loop has one iteration per device (nvFuser's test_column_parallel_linear_forward splits by d).
     */
    private static void checkSplitAllgather(FusionOp op, TensorView in, TensorView out) {
        var split = SplitStream.of(out);
        if (split.isEmpty()) {
            checkWholeShardPerIteration(op, in, out);
            return;
        }
        int devices = in.devicesAlong(in.deviceAxis().orElseThrow().parallelType());
        if (split.get().extent() instanceof Extent.Constant(long factor) && factor == devices) return;
        throw new LoweringException(op, "stream.allgather-axis", "a set from a DIDx axis to a Stream axis split"
                + " from a logical axis (the pipelined allgather) receives one rank's whole shard per iteration, so"
                + " the split's factor is the number of devices, " + devices + "; here the Stream axis of "
                + Texts.quote(out.label()) + " has extent " + IrText.scalar(split.get().extent()));
    }

    /**
     * A pipelined allgather into a logical Stream axis runs one iteration per element of that axis and moves a
     * whole shard each time: nvFuser takes a set for it only when the input's first logical axis is itself
     * device-parallel, one element per device (processForLoopBodies' did_to_stream,
     * csrc/host_ir/pass/stream_parallel_type.cpp:336-349 at 81c4b22fd), slices the input at 0 and the output at
     * the loop index, whose device is the peer (lines 548-559), and the Broadcast form roots each iteration at the
     * loop index (lowerToBroadcast, csrc/host_ir/lower_to_communication.cpp:159-166). An input sharded by a split
     * of its loop domain holds extent / D rows per device, so the loop would address ranks that do not exist
     * (issue 30 item 4): chunk the Stream axis by an outer split by D instead, as test_column_parallel_linear_forward
     * does.
     */
    private static void checkWholeShardPerIteration(FusionOp op, TensorView in, TensorView out) {
        int p = Resharding.didToStreamAxis(op).orElseThrow();
        if (CommunicationLayout.isLocalSizeOne(in, p)) return;
        throw new LoweringException(op, "stream.allgather-split-input", "a set from a DIDx axis to a Stream axis (the"
                + " pipelined allgather) moves one whole shard per iteration of the Stream axis, but axis " + p
                + " of " + Texts.quote(in.label())
                + " is sharded by a split of its loop domain (extent / D elements per device),"
                + " so the loop over the Stream axis of " + Texts.quote(out.label())
                + " would address devices that do not"
                + " exist (nvFuser's stream lowering takes only a"
                + " logical DIDx axis): split the Stream axis by the number of devices (outer_split, then Stream"
                + " on the outer part)");
    }

    /**
     * The P2P allgather pairs rank r's iteration i with rank i's iteration r (processForLoopBodies: peer =
     * StreamIdx). A collective in the same loop needs every rank at the same iteration first; unless every
     * iteration has a stream of its own, ranks then wait on each other in a cycle (the CPU backend, which matches
     * as NCCL does, stops making progress for 2 to 7 devices). nvFuser lowers it all the same; here it is refused
     * before it runs.
     */
    static void checkP2pBesideCollective(List<HostOp> ops, LoweringContext context) {
        if (context.options().get(ALLGATHER) != AllgatherLowering.P2P) return;
        // a CollectivePermute pairs rank k's iteration i with its peers' iteration i: no cycle to refuse
        FusionOp p2p = ops.stream().map(HostOp::op).filter(o -> Resharding.didToStreamAxis(o).isPresent()
                && SwizzledStream.of(o.output()).isEmpty()).findFirst().orElse(null);
        if (p2p == null) return;
        FusionOp collective = ops.stream().map(HostOp::op).filter(o -> Resharding.didToStreamAxis(o).isEmpty()
                && Resharding.isResharding(o)).findFirst().orElse(null);
        int iterations = p2p.inputs().get(0).mesh().size();
        int streams = context.options().get(NUMBER_OF_STREAMS);
        if (collective == null || streams >= iterations) return;
        throw new LoweringException(p2p, "stream.p2p-beside-collective", "the pipelined P2P allgather into "
                + Texts.quote(p2p.output().label()) + " shares its stream loop with a collective ("
                + CommunicationPlanner
                .subject(collective) + "); in iteration i each rank exchanges with rank i, which does so in its"
                + " own iteration, while the collective waits for all ranks at one iteration: with " + streams
                + (streams == 1 ? " stream" : " streams") + " for " + iterations + " iterations they wait on each"
                + " other in a cycle; use --option"
                + " numberOfStreams=" + iterations + " or more, or --option allgather=broadcast or collective");
    }

    /**
     * The tensor to name in a diagnostic about {@code tv}: itself when the file has it, else (a set the lowering
     * inserted in front of an op) the output of the op that reads it, which the file has.
     */
    private static TensorView inFile(TensorView tv, List<HostNode> program) {
        if (!tv.label().equals(tv.name())) return tv;
        for (HostNode n : program) {
            if (n instanceof HostOp o && o.op().inputs().stream().anyMatch(t -> t.id() == tv.id())) {
                return o.op().output();
            }
        }
        return tv;
    }

    /** The Stream axis a top-level node pipelines over, if it is a host op whose output has one. */
    private static Optional<IterDomain> streamAxisOf(HostNode node, LoweringOptions options) {
        if (!(node instanceof HostOp op)) return Optional.empty();
        if (options.get(ALLGATHER) == AllgatherLowering.COLLECTIVE && Resharding.didToStreamAxis(op.op()).isPresent()
                && SwizzledStream.of(op.op().output()).isEmpty() && !ReduceScatterP2p.matches(op.op())) {
            return Optional.empty();
        }
        return op.op().output().streamAxis();
    }

    /**
     * Emits the finished loop, the {@code loops}-th of the program; returns how many loops it emitted (0 or 1). Each
     * loop captures the current stream anew, as nvFuser's addStreamManagement does per loop; the stream it captures
     * into is numbered as nvFuser numbers its Stream values: each loop creates two (the captured one, then the
     * indexed worker stream), so loop k captures into {@code Stream 2k}.
     */
    private static int close(StreamLoopBuilder loop, List<HostNode> out, int loops) {
        if (loop == null) return 0;
        loop.emit(out, new Stream.Fixed(2 * loops));
        return 1;
    }

    /** The ops of one loop, sliced as they are added. */
    static final class StreamLoopBuilder {
        private final HostIrBuilder h;
        private final LoweringContext context;
        private final IterDomain axis;
        /** What the loop iterates: the Stream axis, or for one split from a logical axis, its outer part. */
        private final IterDomain loopAxis;
        private final boolean split;
        private final StreamAxisMapping axes;
        private final List<HostOp> ops = new ArrayList<>();
        /** The tensors the loop produces, with the position of the loop's axis in each (its Stream axis, or the
         *  P2P ReduceScatter output's DIDx axis). */
        private final Map<Integer, Integer> produced = new HashMap<>();
        private final Set<Integer> receivedSlots = new HashSet<>();

        StreamLoopBuilder(HostIrBuilder h, StreamAxisMapping axes, LoweringContext context, HostOp first,
                          IterDomain axis) {
            this.h = h;
            this.axes = axes;
            this.context = context;
            this.axis = axis;
            this.loopAxis = SplitStream.loopAxis(first.op().output()).orElseThrow();
            this.split = SplitStream.of(first.op().output()).isPresent();
        }

        /**
         * Whether {@code op} joins this loop: its stream axis has the loop's extent ({@link #mapped}), it reads
         * what the loop produces (or is resharding), and every input the loop produces carries the loop's axis into
         * the op's stream axis (nvFuser's canMergeWithPreviousForLoop: the two axes are mapped through the op). A set
         * from
         * {@code [rS, Stream, i]} to {@code [i, Stream]} pipelines over another axis and starts a loop of its own.
         */
        boolean accepts(FusionOp op, IterDomain streamAxis) {
            // a split Stream axis is chunked, a logical one selected: one loop does one or the other
            Optional<IterDomain> opLoop = SplitStream.loopAxis(op.output());
            if (opLoop.isEmpty() || !mapped(opLoop.get(), loopAxis)) return false;
            if (SplitStream.of(op.output()).isPresent() != split) return false;
            boolean reads = op.inputs().stream().anyMatch(t -> produced.containsKey(t.id()));
            // a resharding op that reads nothing of the loop joins it only over an axis mapped to the loop's
            // through the program's ops, as nvFuser's IdModel maps them; extents alone would merge another
            // dimension, and differently on a rank that lacks the op connecting them
            if (!reads) return Resharding.isResharding(op) && axes.mapped(streamAxis, axis);
            // the P2P ReduceScatter runs over the loop's axis on its output's DIDx axis (nvFuser's stream_to_did)
            int outAxis = reduceScatters(op) ? ReduceScatterP2p.loopAxisInOutput()
                    : op.output().axes().indexOf(streamAxis);
            for (int i = 0; i < op.inputs().size(); i++) {
                TensorView in = op.inputs().get(i);
                Integer loopAxis = produced.get(in.id());
                if (loopAxis == null) continue;
                // the P2P ReduceScatter's output holds one received slot per iteration, (D + rank - i) % D, not
                // the iteration's slice: what reads it starts a loop of its own, once every slot is in
                if (receivedSlots.contains(in.id())) return false;
                if (StreamAxisMapping.consumerAxis(op, i, loopAxis) != outAxis) return false;
            }
            return true;
        }

        /**
         * Whether the op's Stream axis is the loop's, standing in for nvFuser's {@code canMergeWithPreviousForLoop}
         * (the two mapped in the IdModel's broadcast graph): one extent, or symbols of one user name, since each
         * input axis has its own symbol ({@code add(x[S], t1[Stream S])} takes x's).
         */
        private static boolean mapped(IterDomain a, IterDomain b) {
            return a.extent().equals(b.extent()) || (a.extent() instanceof Extent.Symbolic x
                    && b.extent() instanceof Extent.Symbolic y && x.name().equals(y.name()));
        }

        /**
         * The two ReduceScatters of a stream loop, whose output's DIDx axis the loop runs over (nvFuser's
         * stream_to_did) and which is whole only after the loop: the P2P one and the Reduce-based one (#5923).
         */
        private static boolean reduceScatters(FusionOp op) {
            return ReduceScatterP2p.matches(op) || StreamReduction.isReduceBasedReduceScatter(op);
        }

        void add(HostOp op) {
            ops.add(op);
            TensorView out = op.op().output();
            boolean scatter = reduceScatters(op.op());
            if (scatter) receivedSlots.add(out.id());
            produced.put(out.id(), scatter ? ReduceScatterP2p.loopAxisInOutput()
                    : out.axes().indexOf(out.streamAxis().orElseThrow()));
        }

        void emit(List<HostNode> out, Stream user) {
            checkP2pBesideCollective(ops, context);
            StreamLoopBody body = new StreamLoopBody(h, context, loopAxis, ops);
            for (HostOp op : ops) out.add(h.inherit(op.id(), h.allocate(op.op().output())));
            out.add(h.getCurrentStream(user));
            out.add(h.forStreams(loopAxis, List.of(h.setCurrentStream(HostIrBuilder.WORKER_STREAM),
                    h.synchronize(user))));
            List<HostNode> main = new ArrayList<>();
            main.add(h.setCurrentStream(HostIrBuilder.WORKER_STREAM));
            main.addAll(body.build());
            main.add(h.setCurrentStream(user));
            main.add(h.synchronize(HostIrBuilder.WORKER_STREAM));
            ForLoop loop = h.forStreams(loopAxis, main);
            out.add(loop);
        }
    }
}
