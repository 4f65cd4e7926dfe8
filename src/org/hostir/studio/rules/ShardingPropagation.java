package org.hostir.studio.rules;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.diag.Rule;
import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IdCounters;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorSubstitution;
import org.hostir.studio.ir.TensorView;

/**
 * nvFuser's sharding propagation ({@code PropagateShardingsPass::runPass}, csrc/preseg_passes/propagate_shardings.cpp
 * at 81c4b22fd, with {@code shardLoopLike} of csrc/multidevice/propagation.cpp): meshes and device parallel types go
 * from the tensors the user sharded to the others.
 *
 * <ul>
 * <li>Written shardings are never overwritten: a tensor with a mesh is the user's and is left as it is
 * (propagate_shardings.cpp:118-125, 143-145, 176-178); a tensor without a mesh keeps the parallel types written on
 * its axes, since only the types it does not have yet are propagated to it and an axis already parallel is skipped
 * (getParallelTypesToPropagate, :71-99; propagation.cpp:329-331).</li>
 * <li>Forward first, over the ops in topological order, each output from its op's reference inputs in order: a
 * linear's weight, then its bias, then its input; a matmul's B, then A; any other op's inputs by their number of
 * device and Stream loop axes, most first, ties by the mesh's rank, then input order (getOrderedReferenceInputs,
 * sortTvsByParallelDims, :21-67). The first reference that gives a type wins it; the target's mesh is the first
 * reference's (propagation.cpp:102-104).</li>
 * <li>Then backward, over the ops in reverse, each input from the op's most parallel output (:163-187).</li>
 * <li>Axes correspond as nvFuser's PairwiseLogicalDomainMap with {@code mapBroadcast(false)} (propagation.cpp:81-93):
 * {@link AxisMap}, a broadcast axis never taking a sharding from or giving one to a non-broadcast one; a producer's
 * reduction axis maps to nothing, a consumer's reduction axis to the producer axis it reduces. So a sum over a
 * DIDx axis gives its output an {@code rDIDx} axis (an Allreduce follows), a linear's contracted {@code rK} takes
 * the weight's DIDx (row parallel: a partial product, then an Allreduce), and broadcast axes carry none.</li>
 * <li>A reference's DID axis that is the outer part of an outer split of a logical axis (a device split) is
 * replayed on the target: its corresponding logical axis is outer-split by the same factor and the outer part
 * parallelized (transformLoopDomain, propagation.cpp:199-241); a logical DID axis is parallelized as it is. A DID
 * type is given to a target with a mesh only where that mesh has the type and as many devices along it
 * (:291-305).</li>
 * <li>Stream axes are carried as DID axes are, a Stream split ({@code outer_split} then Stream on its outer part)
 * replayed as a device split is (transformLoopDomain takes "device_or_stream_ids", propagation.cpp:95-101,
 * 246-256). A fusion with no mesh at all is propagated too (PropagateShardingsPass::runPass has no mesh condition,
 * propagate_shardings.cpp:117-188, and PreSegmenter runs it on every fusion, pre_segmenter.cpp:88): its Stream
 * splits reach the tensors that do not state one, as in nvFuser's tests/python/direct/test_stream.py
 * {@code test_two_matmuls_inlinable}, where only {@code inp} is split. A reference without a mesh gives no mesh
 * (transformLoopDomain sets the reference's, empty, mesh, propagation.cpp:102-104) and, here, only its Stream axes:
 * a DID axis needs a mesh ({@code mesh.missing}).</li>
 * <li>Which tensors are references is a {@link Reach}: every tensor in nvFuser 81c4b22fd's pre-segmenter (the path
 * its Python tests and {@code host_ir_lowering} take), only tensors with a mesh in the seeds' MultiDeviceExecutor;
 * so a fusion without meshes has its Stream splits carried only on the first.</li>
 * </ul>
 *
 * <p>Differences (docs/conformance.md, "Propagation"): nvFuser also marks a user-sharded fusion input's axis Stream
 * from a consumer (:104-107, "no effect on actual computation"); here written tensors stay as written, since the
 * seeds' pipeline refuses a Stream input ({@code stream.input}), and fusion inputs receive only a mesh. A loop axis
 * made by several splits or a merge is not replayed, a swizzled axis is given as a plain one (nvFuser replays the
 * Swizzle1D, propagation.cpp:184-197), and no sharding crosses a reshape that splits or
 * merges the sharded axis (nvFuser replays a device split onto the outermost reshaped axis,
 * propagation.cpp:63-79).
 */
public final class ShardingPropagation {
    /**
     * Which tensors shardings are propagated from. nvFuser 81c4b22fd runs PropagateShardingsPass in the pre-segmenter
     * (pre_segmenter.cpp:88), which FusionKernelRuntime runs for every fusion its FusionExecutorCache (the Python
     * frontend's {@code execute}, host_ir_lowering or not) is given (fusion_kernel_runtime.cpp:74); that pass
     * propagates from every reference, with a mesh or not (propagate_shardings.cpp:129-187). Its MultiDeviceExecutor
     * runs no propagation (HostIrLower::lower, csrc/host_ir/lower.cpp:96-101, "incompatible with
     * MultiDeviceExecutor"); the seeds' MultiDeviceExecutor ran one that propagated from tensors with a mesh only
     * (lower.cpp:114-117 and propagate_shardings.cpp:192-249, 336-342 at 43b9a1aa5).
     */
    public enum Reach {
        /** From tensors with a mesh only: a fusion without meshes is left as written (43b9a1aa5's pass). */
        WITH_MESH,
        /** From every tensor: a fusion without meshes has its Stream splits carried (81c4b22fd's pre-segmenter). */
        EVERY_TENSOR
    }

    /** Which phase inferred a sharding: from an op's input to its output, or from its output to an input. */
    public enum Direction { FORWARD, BACKWARD }

    /** A sharding propagation cannot give: about a tensor, with its rule and message. */
    public record Conflict(TensorView tensor, Rule rule, String message) {
        /** The conflict as a diagnostic at its tensor's place in the file (or its IR name). */
        public Diagnostic diagnostic(FusionLocator locator) {
            return Diagnostic.at(locator.file(), locator.locate(tensor.subject()), rule.id(), message);
        }
    }

    /** The fusion with every sharding propagated, what was inferred (in the order it was), and the conflicts. */
    public record Result(Fusion fusion, List<InferredSharding> inferred, List<Conflict> conflicts) {
        public Result {
            inferred = List.copyOf(inferred);
            conflicts = List.copyOf(conflicts);
        }

        /** Whether the fusion had anything to infer. */
        public boolean changed() { return !inferred.isEmpty(); }
    }

    private final Map<Integer, TensorView> current = new LinkedHashMap<>();
    private final Set<Integer> written = new HashSet<>();
    private final Set<Integer> inputs = new HashSet<>();
    private final List<InferredSharding> inferred = new ArrayList<>();
    private final boolean fromMeshless;
    private int nextIterDomain;

    private ShardingPropagation(Fusion fusion, boolean fromMeshless) {
        this.fromMeshless = fromMeshless;
        fusion.tensors().forEach(t -> current.put(t.id(), t));
        fusion.tensors().stream().filter(t -> t.mesh() != null).forEach(t -> written.add(t.id()));
        fusion.inputs().forEach(t -> inputs.add(t.id()));
        nextIterDomain = fusion.counters().nextIterDomain();
    }

    /**
     * Propagates the shardings of {@code fusion} from its meshed tensors ({@link Reach#WITH_MESH}): what the loader,
     * {@code check} and the editor show, so that a file without meshes loads, runs and exports as written (the seeds'
     * fusions are MultiDeviceExecutor tests); the lowering under host_ir_lowering propagates from every tensor.
     */
    public static Result propagate(Fusion fusion) { return propagate(fusion, Reach.WITH_MESH); }

    /**
     * Propagates the shardings of {@code fusion} from the tensors {@code reach} says. A fusion where every tensor has a
     * mesh (every fusion written before propagation existed) comes back as it is, and so does one where no tensor has
     * a mesh, unless the reach is every tensor and the fusion has a Stream axis to carry.
     */
    public static Result propagate(Fusion fusion, Reach reach) {
        List<TensorView> all = fusion.tensors();
        boolean meshless = all.stream().allMatch(t -> t.mesh() == null);
        boolean fromMeshless = reach == Reach.EVERY_TENSOR;
        if (all.stream().allMatch(t -> t.mesh() != null)
                || meshless && (!fromMeshless || all.stream().noneMatch(ShardingPropagation::hasStream))) {
            return new Result(fusion, List.of(), List.of());
        }
        ShardingPropagation p = new ShardingPropagation(fusion, fromMeshless);
        for (FusionOp op : fusion.ops()) p.forward(op);
        for (FusionOp op : fusion.ops().reversed()) p.backward(op);
        return new Result(p.rebuilt(fusion), p.inferred, meshless ? List.of() : p.unreached());
    }

    private static boolean hasStream(TensorView t) {
        return t.loopDomain().loop().stream().anyMatch(a -> a.parallelType() == ParallelType.STREAM);
    }

    /** propagate_shardings.cpp:129-155: the output from each reference input in order. */
    private void forward(FusionOp op) {
        TensorView out = op.output();
        if (written.contains(out.id())) return;
        for (int i : referenceOrder(op)) {
            TensorView ref = current.get(op.inputs().get(i).id());
            int[] map = AxisMap.of(op, i);
            int[] refToTarget = new int[ref.rank()];
            for (int a = 0; a < ref.rank(); a++) {
                // PairwiseLogicalDomainMap leaves a producer's reduction axes out
                refToTarget[a] = ref.axis(a).isReduction() ? AxisMap.NONE : map[a];
            }
            shardLike(ref, current.get(out.id()), refToTarget, op, Direction.FORWARD);
        }
    }

    /** propagate_shardings.cpp:163-187: each input from the output (one per op here). */
    private void backward(FusionOp op) {
        TensorView ref = current.get(op.output().id());
        Set<Integer> done = new HashSet<>();
        for (int i = 0; i < op.inputs().size(); i++) {
            TensorView target = current.get(op.inputs().get(i).id());
            if (written.contains(target.id()) || !done.add(target.id())) continue;
            int[] map = AxisMap.of(op, i);
            int[] refToTarget = new int[ref.rank()];
            Arrays.fill(refToTarget, AxisMap.NONE);
            for (int a = 0; a < map.length; a++) if (map[a] != AxisMap.NONE) refToTarget[map[a]] = a;
            shardLike(ref, target, refToTarget, op, Direction.BACKWARD);
        }
    }

    /**
     * getOrderedReferenceInputs (propagate_shardings.cpp:49-67): linear's weight, bias, input; matmul's B, A; else
     * by parallel loop axes then mesh rank, both descending, stably.
     */
    private List<Integer> referenceOrder(FusionOp op) {
        return switch (op) {
            case FusionOp.Linear l -> l.bias() != null ? List.of(1, 2, 0) : List.of(1, 0);
            case FusionOp.Matmul _ -> List.of(1, 0);
            case FusionOp.Set _, FusionOp.Binary _, FusionOp.Unary _, FusionOp.Where _, FusionOp.Squeeze _,
                 FusionOp.Expand _, FusionOp.Reshape _, FusionOp.Reduction _, FusionOp.Broadcast _, FusionOp.IndexSelect _,
                 FusionOp.TakeAlongAxis _, FusionOp.TopK _, FusionOp.Scatter _, FusionOp.GroupedMm _ ->
                    byParallelDims(op);
        };
    }

    /** sortTvsByParallelDims (propagate_shardings.cpp:21-42): a stable sort, so ties keep input order. */
    private List<Integer> byParallelDims(FusionOp op) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < op.inputs().size(); i++) order.add(i);
        Comparator<Integer> byDims = Comparator.comparingInt(i -> parallelDims(current.get(op.inputs().get(i).id())));
        Comparator<Integer> byMesh = Comparator.comparingInt(i -> meshRank(current.get(op.inputs().get(i).id())));
        order.sort(byDims.thenComparing(byMesh).reversed());
        return order;
    }

    /** sortTvsByParallelDims's count: loop axes that are Stream, or device axes that are not reductions. */
    private static int parallelDims(TensorView t) {
        int n = 0;
        for (LoopDomain.Axis a : t.loopDomain().loop()) {
            if (a.iterType() != IterType.REDUCTION && (a.parallelType() == ParallelType.STREAM || a.isDeviceDim())) n++;
        }
        return n;
    }

    private static int meshRank(TensorView t) { return t.mesh() == null ? 0 : t.mesh().rank(); }

    /** getParallelTypesToPropagate (propagate_shardings.cpp:71-99) for a tensor that is not a fusion input. */
    private static Set<ParallelType> typesToPropagate(TensorView t) {
        Set<ParallelType> types = EnumSet.of(ParallelType.DIDX, ParallelType.DIDY, ParallelType.STREAM);
        for (LoopDomain.Axis a : t.loopDomain().loop()) {
            if (a.parallelType() == ParallelType.STREAM || a.isDeviceDim() && a.iterType() != IterType.REDUCTION) {
                types.remove(a.parallelType());
            }
        }
        return types;
    }

    /**
     * shardLoopLike (propagation.cpp:269-340) and transformLoopDomain (:97-260): {@code target} takes {@code ref}'s
     * mesh if it has none, then each selected parallel type of {@code ref}'s loop axes on the corresponding axis.
     * {@code refToTarget} gives, per logical axis of {@code ref}, the target's, or NONE.
     */
    private void shardLike(TensorView ref, TensorView target, int[] refToTarget, FusionOp op, Direction d) {
        // a reference without a mesh (not reached yet, or in a fusion without meshes) gives only its Stream axes
        if (ref.mesh() == null && !fromMeshless) return;
        TensorView t = target;
        if (t.mesh() == null && ref.mesh() != null) {
            t = withMesh(t, ref.mesh());
            inferred.add(new InferredSharding(InferredSharding.Ref.of(t), InferredSharding.MESH, null, 0, ref.mesh(),
                    InferredSharding.Ref.of(ref), op.opName(), d));
        }
        if (!inputs.contains(t.id())) {
            Set<ParallelType> selected = typesToPropagate(t);
            LoopDomain refLoop = ref.loopDomain();
            for (int p = 0; p < refLoop.loop().size(); p++) {
                LoopDomain.Axis a = refLoop.loop().get(p);
                LoopDomain.Source src = refLoop.source(p);
                if (!selected.contains(a.parallelType()) || src.derivation() == LoopDomain.Derivation.OTHER
                        || a.isDeviceDim() && (ref.mesh() == null || t.mesh() == null
                        || !sameDevicesAlong(ref.mesh(), t.mesh(), a.parallelType()))) {
                    continue;
                }
                int at = refToTarget[src.logicalPosition()];
                if (at == AxisMap.NONE || ref.axis(src.logicalPosition()).isBroadcast() != t.axis(at).isBroadcast()
                        || !serialInLoop(t, at)) {
                    continue;
                }
                boolean split = src.derivation() == LoopDomain.Derivation.OUTER_OF_OUTER_SPLIT;
                t = parallelized(t, at, a.parallelType(), split ? a.extent() : null);
                selected.remove(a.parallelType());
                long factor = split && a.extent() instanceof Extent.Constant(long f) ? f : 0;
                inferred.add(new InferredSharding(InferredSharding.Ref.of(t), at, a.parallelType(), factor, t.mesh(),
                        InferredSharding.Ref.of(ref), op.opName(), d));
            }
        }
        current.put(t.id(), t);
    }

    /** propagation.cpp:296-305: the target's mesh has the type, over as many devices as the reference's. */
    private static boolean sameDevicesAlong(DeviceMesh ref, DeviceMesh target, ParallelType type) {
        return target.axisOf(type) >= 0 && ref.axisOf(type) >= 0 && ref.extent(type) == target.extent(type);
    }

    /**
     * propagation.cpp:327-335: the target's logical axis is in its loop domain (not further transformed) and not
     * parallel yet.
     */
    private static boolean serialInLoop(TensorView t, int logical) {
        int id = t.axis(logical).id();
        for (LoopDomain.Axis a : t.loopDomain().loop()) {
            if (a.id() == id) return a.parallelType() == ParallelType.SERIAL;
        }
        return false;
    }

    /**
     * {@code t} with logical axis {@code logical} parallelized as {@code type}: the axis itself, or, for a device
     * split ({@code factor} not null), the outer part of an outer split of it by {@code factor}
     * (IterDomain::split(target_id, factor, inner_split = false), propagation.cpp:230-235).
     */
    private TensorView parallelized(TensorView t, int logical, ParallelType type, Scalar factor) {
        LoopDomain loop = t.loop() != null ? t.loop() : LoopDomain.of(t.axes());
        int id = t.axis(logical).id();
        int pos = 0;
        while (loop.loop().get(pos).id() != id) pos++;
        if (factor == null && t.loop() == null) {
            List<IterDomain> axes = new ArrayList<>(t.axes());
            axes.set(logical, t.axis(logical).withParallelType(type));
            return t.withAxes(axes);
        }
        if (factor != null) loop = loop.split(pos, factor, false, () -> nextIterDomain++);
        return t.withLoop(loop.parallelize(pos, type));
    }

    private static TensorView withMesh(TensorView t, DeviceMesh mesh) {
        return new TensorView(t.id(), t.label(), t.dtype(), t.memoryType(), t.axes(), mesh, t.loop());
    }

    /** The fusion over the propagated tensors, its counters past the iter domains the splits made. */
    private Fusion rebuilt(Fusion fusion) {
        Map<Integer, TensorView> now = new LinkedHashMap<>(current);
        IdCounters c = fusion.counters();
        return new Fusion(fusion.name(), fusion.inputs().stream().map(t -> now.get(t.id())).toList(),
                fusion.ops().stream().map(op -> TensorSubstitution.apply(op, now)).toList(),
                fusion.outputs().stream().map(t -> now.get(t.id())).toList(), fusion.symbols(),
                new IdCounters(c.nextTensor(), Math.max(c.nextIterDomain(), nextIterDomain), c.nextSymbol(),
                        c.nextNode(), c.nextHostUnit()));
    }

    /** Tensors no mesh reached (no path to a tensor with one): a conflict at each, {@code propagation.no-mesh}. */
    private List<Conflict> unreached() {
        List<Conflict> out = new ArrayList<>();
        for (TensorView t : current.values()) {
            if (t.mesh() != null) continue;
            out.add(new Conflict(t, Rule.PROPAGATION_NO_MESH, InferredSharding.Ref.of(t).text()
                    + " has no device mesh and no op connects it to a tensor with one, so propagation gives it none"
                    + " (propagate_shardings.cpp:157-162 back-propagates meshes along ops only)"));
        }
        return out;
    }
}
