package org.hostir.studio.exec;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Allocate;
import org.hostir.studio.ir.host.CollectivePermute;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.Deallocate;
import org.hostir.studio.ir.host.EndCoalescing;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.GetCurrentStream;
import org.hostir.studio.ir.host.HirAliasSelect;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.LaunchKernel;
import org.hostir.studio.ir.host.MoeCombine;
import org.hostir.studio.ir.host.MoeDispatch;
import org.hostir.studio.ir.host.NotExecutable;
import org.hostir.studio.ir.host.OpaqueNode;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.PostOnStream;
import org.hostir.studio.ir.host.SetCurrentStream;
import org.hostir.studio.ir.host.ShardByStream;
import org.hostir.studio.ir.host.ShareMemHandles;
import org.hostir.studio.ir.host.StartCoalescing;
import org.hostir.studio.ir.host.Stream;
import org.hostir.studio.ir.host.SymmetricContiguousView;
import org.hostir.studio.ir.host.Synchronize;
import org.hostir.studio.ir.host.Wait;
import org.hostir.studio.ir.op.OpFamily;
import org.hostir.studio.ir.print.IrText;
import org.hostir.studio.trace.EventKind;

/**
 * Runs one rank's Host IR program on a {@link Device} (nvFuser's HostIrEvaluator). The host walks the program
 * and enqueues work on the current stream; {@code Synchronize} and {@code Wait} become stream dependencies, never
 * host waits. Tensors already bound when the run starts (inputs, pre-allocated outputs) are not allocated again,
 * and ops write into bound outputs in place.
 */
public final class Evaluator {
    /** Stream keys: {@code Stream 0} (a fixed name) and {@code Stream ( i % n )} = 0 are different streams. */
    /** A stream's key: a fixed number, an index computed at run time, or an address the dump names it by. */
    private enum KeyKind { FIXED, INDEXED, POINTER }

    private record StreamKey(KeyKind kind, long value) {}

    private final HostIrContainer program;
    private final Device device;
    private final ScalarEnv env;
    private final Map<Integer, Buffer> values = new HashMap<>();
    /** The tensor each value of {@link #values} is, for a debugger's view of the live tensors. */
    private final Map<Integer, TensorView> views = new HashMap<>();
    private final NodeHook hook;
    /** The loops enclosing the node being issued, innermost last, and how deep that node is nested. */
    private final ArrayDeque<LoopFrame> loops = new ArrayDeque<>();
    private int depth = -1;
    private final Map<StreamKey, BackendStream> streams = new HashMap<>();
    /** How many {@code hir::ForLoop}s ({@code FOR i from a to b}) enclose the node being run. */
    private int rangeLoops;
    /** The work of a communication this rank takes no part in, or did locally: its Wait has nothing to wait for. */
    private static final Work NOTHING_POSTED = new Work() {};

    private final Map<Integer, Work> works = new HashMap<>();
    private final java.util.Set<Buffer> owned = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    private BackendStream current;
    private List<P2PCall> group;
    private SharedTransfer shared;
    private int iteration = -1;
    private int workerStreams;

    public Evaluator(HostIrContainer program, Device device, ScalarEnv env, Map<Integer, Buffer> bound) {
        this(program, device, env, bound, NodeHook.NONE);
    }

    /** An evaluator that asks {@code hook} before issuing each node (a debugger's stepping controller). */
    public Evaluator(HostIrContainer program, Device device, ScalarEnv env, Map<Integer, Buffer> bound,
                     NodeHook hook) {
        this.program = program;
        this.device = device;
        this.env = env;
        this.hook = hook;
        this.values.putAll(bound);
        for (TensorView tv : program.inputs()) if (bound.containsKey(tv.id())) views.put(tv.id(), tv);
        for (TensorView tv : program.outputs()) if (bound.containsKey(tv.id())) views.put(tv.id(), tv);
        this.current = device.userStream();
    }

    /**
     * The tensors that have a value on this rank now, by id: what a debugger shows while the rank's host is held
     * in {@link NodeHook#before} (read them only then, or after {@link #run}).
     */
    public java.util.SortedMap<TensorView, Buffer> live() {
        java.util.SortedMap<TensorView, Buffer> out = new java.util.TreeMap<>(
                java.util.Comparator.comparingInt(TensorView::id));
        values.forEach((id, b) -> {
            TensorView tv = views.get(id);
            if (tv != null) out.put(tv, b);
        });
        return out;
    }

    private void bind(TensorView tv, Buffer b) {
        values.put(tv.id(), b);
        views.put(tv.id(), tv);
    }

    /** Runs the program and returns the outputs this rank holds, by tensor id, once its streams are done. */
    public Map<Integer, Buffer> run() {
        dispatch();
        device.synchronize();
        return outputs();
    }

    /** The outputs this rank holds after {@link #run}, by tensor id (valid until {@link #release}). */
    public Map<Integer, Buffer> outputs() {
        Map<Integer, Buffer> outputs = new HashMap<>();
        for (TensorView out : program.outputs()) {
            Buffer b = values.get(out.id());
            if (b != null) outputs.put(out.id(), b);
        }
        return outputs;
    }

    /**
     * Issues the program's work to the device's streams and returns without waiting for it (benchmarks time
     * the device work with events before synchronising); {@link #run} is this plus the wait.
     */
    public void dispatch() {
        evaluate(program.topLevel());
    }

    private void evaluate(List<HostNode> nodes) {
        depth++;
        try {
            for (HostNode node : nodes) evaluateTimed(node);
        } finally {
            depth--;
        }
    }

    /** One node: the hook first (a debugger may hold the rank here), then the node, timed as a host bar. */
    private void evaluateTimed(HostNode node) {
        if (hook != NodeHook.NONE) hook.before(new ProgramPosition(device.rank(), node, depth, List.copyOf(loops)));
        long t0 = System.nanoTime();
        // an Allocate's or Deallocate's dispatch carries the bytes it took or gave back: the trace's memory counter
        boolean memory = node instanceof Allocate || node instanceof Deallocate;
        long held = memory ? ownedBytes() : 0;
        evaluate(node);
        long t1 = System.nanoTime();
        if (!(node instanceof ForLoop || node instanceof IfThenElse)) {
            OpInfo info = OpInfo.of(node.id(), iteration, hostName(node), EventKind.HOST);
            device.recordHost(memory ? info.withBytes(Math.abs(ownedBytes() - held)) : info, t0, t1);
        }
    }

    private void evaluate(HostNode node) {
        switch (node) {
            case Allocate a -> {
                if (!values.containsKey(a.buffer().id())) {
                    bind(a.buffer(), a.form() == Allocate.Form.HOST_IR ? allocate(a.buffer(),
                            allocationShape(a.buffer())) : allocate(a.buffer()));
                }
            }
            case Deallocate d -> {
                Buffer b = values.remove(d.buffer().id());
                if (b != null && owned.remove(b)) device.free(b, current);
            }
            case ForLoop f -> loop(f);
            case IfThenElse i -> evaluate(env.eval(i.predicate()) != 0 ? i.thenBody() : i.elseBody());
            case GetCurrentStream g -> streams.put(key(g.stream()), current);
            case SetCurrentStream s -> current = stream(s.stream());
            case Synchronize s -> device.waitEvent(current, device.record(stream(s.stream())));
            case HirAliasSelect s -> {
                // a tensor on a mesh without this rank has no value here, nor has its slice: the communication
                // it feeds runs without that side (nvFuser's evaluator passes an undefined tensor)
                if (values.containsKey(s.in().id()) || onThisRank(s.in())) bind(s.out(), select(s));
            }
            case ShardByStream b -> shard(b);
            case SymmetricContiguousView v -> contiguousView(v);
            case LaunchKernel _ -> throw new NotExecutableNodeException(node, NotExecutable.reason(node).orElseThrow());
            case MoeDispatch d -> moeDispatch(d);
            case MoeCombine c -> moeCombine(c);
            case Communication c -> works.put(c.id(), post(c));
            case CollectivePermute c -> works.put(c.id(), permute(c));
            case P2PCommunication p -> {
                P2PCall call = new P2PCall(p.type(), bound(p.buffer()), (int) env.eval(p.peer()), p.id());
                if (group != null) {
                    group.add(call);
                } else if (shared != null && shared.names(p)) {
                    shared.add(p, call);
                    if (shared.complete()) postShared();
                } else {
                    works.put(p.id(), device.pointToPoint(List.of(call), current,
                            info(p.id(), p.type().dumpName(), EventKind.P2P).withPeer(call.peer())));
                }
            }
            case StartCoalescing s -> group = new ArrayList<>();
            case ShareMemHandles s -> shared = new SharedTransfer(s);
            case EndCoalescing e -> endCoalescing(e);
            case Wait w -> {
                Work work = works.get(w.communicationId());
                if (work == null) throw new ExecutionException("Wait for communication " + w.communicationId()
                        + ", which was not posted");
                if (work != NOTHING_POSTED) device.waitWork(current, work);
            }
            case PostOnStream p -> kernel(p);
            case HostOp o -> run(o.op(), o.id(), kind(o.op()));
            case OpaqueNode o -> throw new ExecutionException("cannot run the dump statement '" + o.headline()
                    + "': " + o.reason() + " (a statement the dump reader kept as text)");
        }
    }

    /**
     * nvFuser's SymmetricContiguousView (HostIrEvaluator::handle, csrc/host_ir/evaluator.cpp:991-1018 at 81c4b22fd):
     * the input, in symmetric memory and sharded on its outermost axis, seen on every rank as the devices'
     * buffers side by side. Here each rank receives a copy of the others' shards, an Allgather over the input's
     * mesh that the current stream waits for: the view's values when the shards are written before it and not
     * after (nvFuser maps the peers' memory, so a later write would show through; docs/conformance.md).
     */
    private void contiguousView(SymmetricContiguousView v) {
        TensorView in = v.in();
        if (in.memoryType() != MemoryType.SYMMETRIC || in.rank() == 0 || !in.axis(0).isDeviceDim()) {
            throw new ExecutionException("SymmetricContiguousView " + v.id() + ": " + in.name() + " must be in"
                    + " symmetric memory and sharded on its outermost axis (csrc/host_ir/ir.cpp:458-461,"
                    + " evaluator.cpp:1003-1006)");
        }
        if (!onThisRank(in)) return;
        Buffer out = allocate(v.out());
        bind(v.out(), out);
        List<Integer> team = mesh(in);
        Work work = device.collective(new CollectiveCall(CommunicationType.ALLGATHER, team, -1, team, team,
                bound(in), out, null), current, info(v.id(), "SymmetricContiguousView", EventKind.COMMUNICATION));
        device.waitWork(current, work);
    }

    /**
     * nvFuser's HostIrEvaluator::handle(MoeDispatch*) (csrc/host_ir/evaluator.cpp:434-459; doMoeDispatch,
     * csrc/multidevice/dispatch_combine.cpp:131), binding the six outputs it allocates:
     * over the world communicator there, over the input's mesh here (a rank outside it takes no part).
     */
    private void moeDispatch(MoeDispatch d) {
        NotExecutable.reason(d).ifPresent(why -> { throw new NotExecutableNodeException(d, why); });
        if (!onThisRank(d.in())) return;
        var out = moe().dispatch(d, moeTeam(d.id(), d.in()), bound(d.in()), bound(d.topkIdx()),
                bound(d.topkWeights()));
        List<TensorView> tensors = d.outputs();
        for (int i = 0; i < tensors.size(); i++) bind(tensors.get(i), out.all().get(i));
    }

    /** nvFuser's HostIrEvaluator::handle(MoeCombine*) (evaluator.cpp:461-489; doMoeCombine, dispatch_combine.cpp:289). */
    private void moeCombine(MoeCombine c) {
        NotExecutable.reason(c).ifPresent(why -> { throw new NotExecutableNodeException(c, why); });
        if (!onThisRank(c.in())) return;
        MoeCombine.Counts k = c.counts().orElseThrow();
        bind(c.out(), moe().combine(c, moeTeam(c.id(), c.in()), bound(c.in()), bound(c.srcIdx()),
                bound(k.tokensToRank()), bound(k.tokensFromRank())));
    }

    private MoeExchange moe() { return new MoeExchange(device, current, this::allocate, iteration); }

    private static List<Integer> moeTeam(int id, TensorView in) {
        if (in.mesh() == null) throw new ExecutionException("MoE exchange " + id + ": " + in.name() + " has no"
                + " device mesh, the ranks that exchange tokens", List.of(in.subject()));
        return in.mesh().deviceIds();
    }

    /** As a slice: a tensor on a mesh without this rank has no value here, nor has its chunk. */
    private void shard(ShardByStream b) {
        if (values.containsKey(b.in().id()) || onThisRank(b.in())) {
            bind(b.out(), chunk("ShardByStream " + b.id(), b.out(), b.in(), bound(b.in()),
                    b.streamIndex()));
        }
    }

    /**
     * nvFuser's postSingleCommunication: a rank outside the team posts nothing (its Wait then waits for nothing),
     * so every rank involved in a resharding runs the same program; and postSendRecv: a SendRecv whose receiver
     * is its sender ({@code team=(1 1)}) is a copy on the current stream.
     */
    private Work post(Communication c) {
        int rank = device.rank();
        if (!c.team().contains(rank)) return NOTHING_POSTED;
        int root = c.root() == null ? -1 : (int) env.eval(c.root());
        Buffer in = values.get(c.input().id());
        Buffer out = values.get(c.output().id());
        if (c.type() == CommunicationType.SEND_RECV && c.team().stream().allMatch(d -> d == root)) {
            device.copy(bound(c.output()), bound(c.input()), current,
                    info(c.id(), c.type().dumpName(), EventKind.COPY).withBytes(in.bytes()));
            return NOTHING_POSTED;
        }
        if (c.type() == CommunicationType.ALL_TO_ALL) AllToAllLayout.check(c, env);
        // a collective within a slice of a 2-D mesh: its team is who sends and receives (on a 1-D mesh, the mesh)
        boolean sliced = c.input().mesh() != null && c.input().mesh().rank() > 1;
        return device.collective(new CollectiveCall(c.type(), c.team(), root, sliced ? c.team() : mesh(c.input()),
                sliced ? c.team() : mesh(c.output()),
                in, out, c.reduction()), current, info(c.id(), c.type().dumpName(), EventKind.COMMUNICATION));
    }

    /**
     * postCollectivePermute: the peers are team indices; a device that is both its own send and receive peer
     * copies locally (nvFuser's doLocalCopy), otherwise one coalesced send/recv pair, which the device matches
     * with its peers' pairs as c10d does (in order per pair of ranks). A rank outside the team posts nothing.
     */
    private Work permute(CollectivePermute c) {
        int rank = device.rank();
        if (!c.team().contains(rank)) return NOTHING_POSTED;
        int send = c.team().get(teamIndex(c, c.sendPeer()));
        int recv = c.team().get(teamIndex(c, c.recvPeer()));
        Buffer in = bound(c.input());
        Buffer out = bound(c.output());
        if (send == rank && recv == rank) {
            device.copy(out, in, current, info(c.id(), "CollectivePermute", EventKind.COPY).withBytes(in.bytes()));
            return NOTHING_POSTED;
        }
        List<P2PCall> calls = List.of(new P2PCall(P2PCommunication.Type.SEND, in, send),
                new P2PCall(P2PCommunication.Type.RECV, out, recv));
        return device.pointToPoint(calls, current, info(c.id(), "CollectivePermute", EventKind.P2P).withPeer(send));
    }

    private int teamIndex(CollectivePermute c, Scalar peer) {
        long i = env.eval(peer);
        if (i < 0 || i >= c.team().size()) {
            throw new ExecutionException("CollectivePermute " + c.id() + ": peer index " + i + " outside the team ("
                    + IrText.ids(c.team()) + ")");
        }
        return (int) i;
    }

    private void loop(ForLoop f) {
        if (f.isRange()) rangeLoops++;
        try {
            iterate(f);
        } finally {
            if (f.isRange()) rangeLoops--;
        }
    }

    private void iterate(ForLoop f) {
        int outer = iteration;
        long start = env.eval(f.start());
        long stop = env.eval(f.stop());
        for (long i = start; i < stop; i++) {
            env.bind(f.index(), i);
            iteration = (int) i;
            loops.addLast(new LoopFrame(f, i, start, stop));
            try {
                evaluate(f.body());
            } finally {
                loops.removeLast();
            }
        }
        env.unbind(f.index());
        iteration = outer;
    }

    /**
     * The send and receive a ShareMemHandles named, posted together once both are reached: nvFuser's CUDA
     * backend lets each side go ahead after the handles are exchanged and waits on each separately; one
     * transfer here (whose work both Waits wait for) keeps the backends' matching, in which a lone send would
     * hold its stream until its receiver takes it.
     */
    private void postShared() {
        SharedTransfer t = shared;
        shared = null;
        List<P2PCall> calls = t.calls();
        Work work = device.pointToPoint(calls, current, info(t.node().id(), "ShareMemHandles", EventKind.P2P)
                .withPeer(calls.get(0).peer()));
        for (P2PCommunication p : t.node().communications()) works.put(p.id(), work);
    }

    /** Posts the coalesced group of point-to-point calls as one work. */
    private void endCoalescing(EndCoalescing e) {
        if (group == null) throw new ExecutionException("EndCoalescing " + e.id() + " without StartCoalescing");
        List<P2PCall> calls = group;
        group = null;
        // a plain loop: a stream pipeline per group was a tenth of an all-pairs simulation's CPU time
        StringBuilder text = new StringBuilder();
        for (P2PCall c : calls) {
            if (!text.isEmpty()) text.append(", ");
            text.append(c.type().dumpName()).append(' ').append(c.peer());
        }
        String name = calls.isEmpty() ? "empty group" : text.toString();
        works.put(e.id(), device.pointToPoint(calls, current, info(e.id(), name, EventKind.P2P)
                .withPeer(calls.isEmpty() ? -1 : calls.get(0).peer())));
    }

    /** A host op: into its bound output, else a fresh buffer; an unbound Set aliases its input (nvFuser). */
    private void run(FusionOp op, int nodeId, EventKind kind) {
        Buffer out = values.get(op.output().id());
        if (out == null && op instanceof FusionOp.Set s) {
            Buffer in = bound(s.input());
            bind(s.output(), s.isPermute()
                    ? device.permute(in, s.permutation().stream().mapToInt(Integer::intValue).toArray()) : in);
            return;
        }
        List<TensorView> ins = op.inputs();
        List<Buffer> buffers = new ArrayList<>(ins.size());
        for (TensorView tv : ins) buffers.add(bound(tv));
        compute(op, List.copyOf(buffers), nodeId, kind);
    }

    private void kernel(PostOnStream p) {
        if (rangeLoops > 0) {
            kernelInLoop(p);
        } else {
            for (FusionOp op : p.unit().ops()) run(op, p.id(), EventKind.KERNEL);
        }
    }

    /**
     * A kernel inside a {@code hir::ForLoop} (nvFuser main's host_ir_lowering launches it there with its whole
     * inputs, csrc/host_ir/lowering.cpp:369-407 at 81c4b22fd): the compiled kernel computes only the chunk of its
     * Stream loop at {@code streamIdx} (kernel_ir.cpp:64-77; the stream index is a kernel parameter,
     * kernel.cpp:489-496), here the loop's iteration, reading of each input what that chunk needs: along the axis
     * that maps to the output's Stream axis, the chunk of an input allocated whole; an input allocated per chunk,
     * or made earlier in this kernel, is that chunk already, and a broadcast axis is the same for every chunk.
     */
    private void kernelInLoop(PostOnStream p) {
        Set<Integer> made = new HashSet<>();
        for (FusionOp op : p.unit().ops()) {
            List<Buffer> inputs = new ArrayList<>();
            for (int k = 0; k < op.inputs().size(); k++) {
                TensorView in = op.inputs().get(k);
                boolean chunk = made.contains(in.id()) || in.loop() != null && in.loop().allocationIsLoop();
                inputs.add(chunk ? bound(in) : inputChunk(op, k, bound(in)));
            }
            compute(op, inputs, p.id(), EventKind.KERNEL);
            made.add(op.output().id());
        }
    }

    /** This iteration's chunk of input {@code k} of {@code op} along the axis mapped to its output's Stream axis. */
    private Buffer inputChunk(FusionOp op, int k, Buffer whole) {
        TensorView out = op.output();
        TensorView in = op.inputs().get(k);
        if (out.loop() == null) return whole;
        var p = out.loop().loopPositionOf(ParallelType.STREAM);
        if (p.isEmpty()) return whole;
        int axis = AxisMap.producerAxis(op, k, out.loop().source(p.get()).logicalPosition());
        if (axis == AxisMap.NONE || in.axis(axis).isBroadcast()) return whole;
        int position = 0;
        for (int i = 0; i < axis; i++) if (!in.axis(i).isReduction()) position++;
        long chunks = env.eval(out.loop().loop().get(p.get()).extent());
        long size = whole.shape()[position];
        long length = (size + chunks - 1) / chunks;
        long start = Math.min(size, iteration * length);
        return device.narrow(whole, position, start, Math.min(length, size - start));
    }

    /** {@code op} on these input buffers, into its bound output, else a fresh buffer. */
    private void compute(FusionOp op, List<Buffer> inputs, int nodeId, EventKind kind) {
        Buffer out = values.get(op.output().id());
        if (out == null) {
            out = allocate(op.output());
            bind(op.output(), out);
        }
        if (op instanceof FusionOp.Set s && !s.isPermute()) {
            device.copy(out, inputs.get(0), current, info(nodeId, "copy", EventKind.COPY).withBytes(out.bytes()));
        } else {
            device.compute(op, inputs, out, current, info(nodeId, op.opName(), kind));
        }
    }

    /**
     * Frees what this run allocated and did not deallocate (outputs included: call after downloading them), as
     * dropping nvFuser's evaluator releases its tensors. Stream-ordered on the user stream.
     */
    public void release() {
        for (Buffer b : owned) device.free(b, device.userStream());
        owned.clear();
    }

    private long ownedBytes() {
        long sum = 0;
        for (Buffer b : owned) sum += b.bytes();
        return sum;
    }

    private Buffer allocate(TensorView tv) { return allocate(tv, shapeHere(tv)); }

    private Buffer allocate(TensorView tv, long[] shape) {
        Buffer b;
        try {
            b = device.allocate(shape, tv.dtype());
        } catch (DeviceOutOfMemory e) {
            throw e.naming(describe(tv), tv);
        }
        owned.add(b);
        return b;
    }

    /**
     * A tensor's local shape where it is allocated. Inside a {@code hir::ForLoop} (nvFuser main's host_ir_lowering,
     * #5463: a stream-parallel tensor allocated in the loop is its shard), a tensor with a Stream loop axis holds
     * this iteration's chunk along the logical axis that axis was split from, as ShardByStream takes it; elsewhere,
     * and in the seeds' loops over an iter domain, the whole local tensor.
     */
    private long[] shapeHere(TensorView tv) {
        long[] shape = env.localShape(tv);
        if (rangeLoops == 0 || tv.loop() == null) return shape;
        LoopDomain loop = tv.loop();
        var p = loop.loopPositionOf(ParallelType.STREAM);
        if (p.isEmpty()) return shape;
        int logical = loop.source(p.get()).logicalPosition();
        int position = 0;
        for (int i = 0; i < logical; i++) if (!tv.axis(i).isReduction()) position++;
        long chunks = env.eval(loop.loop().get(p.get()).extent());
        long length = (shape[position] + chunks - 1) / chunks;
        shape[position] = Math.max(0, Math.min(length, shape[position] - iteration * length));
        return shape;
    }

    /**
     * What a {@code hir::Allocate} allocates: a rank's shape of {@code tv}, with its allocation sharded on Stream
     * (nvFuser's shardAllocationAsLoop, set by lower.FinalizeMultideviceDomainsPass) one iteration's chunk of the
     * axis the Stream loop axis splits.
     */
    private long[] allocationShape(TensorView tv) {
        long[] shape = env.localShape(tv);
        LoopDomain loop = tv.loop();
        if (loop == null || !loop.allocationIsLoop()) return shape;
        var p = loop.loopPositionOf(ParallelType.STREAM);
        if (p.isEmpty()) return shape;
        int logical = loop.source(p.get()).logicalPosition();
        int k = 0;
        for (int i = 0; i < logical; i++) if (!tv.axis(i).isReduction()) k++;
        shape[k] = Math.ceilDiv(shape[k], env.eval(loop.loop().get(p.get()).extent()));
        return shape;
    }

    private Buffer select(HirAliasSelect s) {
        Buffer in = bound(s.in());
        // nothing is allocated for a reduction axis: the select is the input whole (HostIrEvaluator::handle(
        // HirAliasSelect*), csrc/host_ir/evaluator.cpp since #5923, the Reduce-based ReduceScatter's output)
        if (s.axis().isReduction()) return in;
        int position = 0;
        IterDomain axis = null;
        for (IterDomain a : s.in().axes()) { // the allocation axes (a loop, not a stream: one select per exchange)
            if (a.isReduction()) continue;
            if (a.id() == s.axis().id()) {
                axis = a;
                break;
            }
            position++;
        }
        if (axis == null && s.out().loop() != null) {
            return chunk("HirAliasSelect " + s.id(), s.out(), s.in(), in, s.index());
        }
        if (axis == null) {
            throw new ExecutionException("HirAliasSelect " + s.id() + ": " + IrText.iterDomain(s.axis())
                    + " is not an axis of " + s.in().name() + " at run time", List.of(s.in().subject()));
        }
        long index = env.eval(s.index());
        long size = in.shape()[position];
        if (size == 1) index = 0; // a broadcast axis, or the local slot of a sharded one
        if (index < 0 || index >= size) {
            throw new ExecutionException("HirAliasSelect " + s.id() + ": index " + index + " outside "
                    + s.in().name() + "'s axis of size " + size, List.of(s.in().subject()));
        }
        return device.select(in, position, index);
    }

    /**
     * A select along a Stream loop axis split from a logical axis: the slice keeps the logical axis and holds
     * chunk {@code index} of its {@code d} chunks (nvFuser's HostIrEvaluator::handle(ShardByStream*):
     * {@code in.chunk(d, getShardedLogicalAxis(out, Stream)).at(index)}).
     */
    private Buffer chunk(String what, TensorView out, TensorView source, Buffer in, Scalar streamIndex) {
        LoopDomain loop = out.loop();
        if (loop == null) throw new ExecutionException(what + ": " + out.name() + " has no Stream loop axis",
                List.of(source.subject()));
        int p = loop.loopPositionOf(ParallelType.STREAM).orElseThrow(() -> new ExecutionException(what + ": "
                + out.name() + " has no Stream loop axis to take a chunk of " + source.name() + " along",
                List.of(source.subject())));
        int logical = loop.source(p).logicalPosition();
        int position = 0;
        for (int i = 0; i < logical; i++) if (!out.axis(i).isReduction()) position++;
        long chunks = env.eval(loop.loop().get(p).extent());
        long index = env.eval(streamIndex);
        long size = in.shape()[position];
        long length = (size + chunks - 1) / chunks;
        if (index < 0 || index >= chunks || index * length >= size) {
            throw new ExecutionException(what + ": chunk " + index + " of " + chunks
                    + " outside " + source.name() + "'s axis of size " + size, List.of(source.subject()));
        }
        return device.narrow(in, position, index * length, Math.min(length, size - index * length));
    }

    /** {@code T3 'out'} for diagnostics. */
    static String describe(TensorView tv) {
        return "TensorView " + tv.name() + (tv.label().equals(tv.name()) ? "" : " " + Texts.quote(tv.label()));
    }

    private Buffer bound(TensorView tv) {
        Buffer b = values.get(tv.id());
        if (b == null) throw new ExecutionException(tv.name() + " is used before it has a value on rank "
                + device.rank(), List.of(tv.subject()));
        return b;
    }

    private BackendStream stream(Stream s) {
        return streams.computeIfAbsent(key(s), k -> device.stream(++workerStreams));
    }

    private StreamKey key(Stream s) {
        return switch (s) {
            case Stream.Fixed f -> new StreamKey(KeyKind.FIXED, f.number());
            case Stream.Indexed i -> new StreamKey(KeyKind.INDEXED, env.eval(i.index()));
            case Stream.Pointer p ->
                    new StreamKey(KeyKind.POINTER, Long.parseUnsignedLong(p.address().substring(2), 16));
        };
    }

    private OpInfo info(int nodeId, String name, EventKind kind) { return OpInfo.of(nodeId, iteration, name, kind); }

    private boolean onThisRank(TensorView tv) {
        return tv.mesh() == null || tv.mesh().contains(device.rank());
    }

    private static List<Integer> mesh(TensorView tv) {
        return tv.mesh() == null ? List.of() : tv.mesh().deviceIds();
    }

    private static EventKind kind(FusionOp op) {
        return switch (OpFamily.definition(op).work()) {
            case MATMUL -> EventKind.MATMUL;
            case LINEAR -> EventKind.LINEAR;
            case COPY -> EventKind.COPY;
            case ELEMENTWISE, MOVE -> EventKind.KERNEL;
        };
    }

    private static String hostName(HostNode node) { return HOST_NAMES.get(node.getClass()); }

    /** One name per node class, made once: every dispatched node asks (millions in a large simulation). */
    private static final ClassValue<String> HOST_NAMES = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) { return "dispatch " + type.getSimpleName(); }
    };
}
