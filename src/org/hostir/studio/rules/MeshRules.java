package org.hostir.studio.rules;

import static org.hostir.studio.rules.ValidationContext.tensor;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.hostir.studio.diag.FusionLocator;
import org.hostir.studio.diag.Rule;
import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterTransform;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;

/** Per-tensor rules on meshes and parallel types (DESIGN 2.2, step 1). */
final class MeshRules {
    private final ValidationContext cx;
    /** The outputs of the Reduce-based ReduceScatter's sum, whose reduced axis may be Stream (StreamReduction). */
    private final Set<Integer> reduceBased;

    MeshRules(ValidationContext cx, List<FusionOp> ops) {
        this.cx = cx;
        this.reduceBased = ops.stream().filter(StreamReduction::isReduceBasedReduceScatter)
                .map(op -> op.output().id()).collect(Collectors.toSet());
    }

    /**
     * {@code inferable}: the ids of tensors whose mesh sharding propagation infers when some tensor has one (the
     * fusion's tensors as written, before the lowering's PropagateShardings pass); empty once it has run.
     */
    void check(List<TensorView> tensors, Set<Integer> inferable) {
        TensorView withMesh = tensors.stream().filter(t -> t.mesh() != null).findFirst().orElse(null);
        for (TensorView t : tensors) {
            if (t.mesh() == null && withMesh != null && inferable.contains(t.id())) {
                streamSplit(t);
                continue; // its mesh and parallel types are checked once inferred (Validate, after propagation)
            }
            if (t.mesh() == null) {
                if (t.deviceAxis().isPresent()) {
                    cx.report(cx.locator.locate(t.subject()), Rule.MESH_MISSING, tensor(t) + " has a "
                            + t.deviceAxis().get().parallelType().fileName() + " axis but no device mesh");
                } else if (withMesh != null) {
                    cx.report(cx.locator.locate(t.subject()), Rule.MESH_MIXED, tensor(t) + " has no device mesh but "
                            + tensor(withMesh) + " has one; give every tensor a mesh (\"all\") or none");
                }
            } else {
                mesh(t);
            }
            swizzles(t);
            streamSplit(t);
            axes(t);
        }
    }

    /**
     * A Stream axis split from a logical axis is sliced into chunks of {@code ceilDiv(extent, factor)}
     * (ShardByStream's {@code at::Tensor::chunk}); unless the factor divides the extent, the last iterations find
     * fewer chunks than the loop has (torch's chunk gives fewer), so the extent must split evenly.
     */
    private void streamSplit(TensorView t) {
        if (t.loop() == null) return;
        for (int p = 0; p < t.loop().loop().size(); p++) {
            LoopDomain.Axis a = t.loop().loop().get(p);
            LoopDomain.Source src = t.loop().source(p);
            if (a.parallelType() != ParallelType.STREAM || a.iterType() == IterType.REDUCTION
                    || src.derivation() != LoopDomain.Derivation.OUTER_OF_OUTER_SPLIT
                    || !(a.extent() instanceof Extent.Constant(long factor))) {
                continue;
            }
            int i = src.logicalPosition();
            OptionalLong extent = value(t.axis(i).extent());
            if (extent.isPresent() && factor > 0 && extent.getAsLong() % factor != 0) {
                cx.report(cx.locator.axis(t.subject(), i), Rule.LOOP_INDIVISIBLE, "axis " + i + " of " + tensor(t)
                        + " has extent " + ValidationContext.extent(t.axis(i).extent()) + " = " + extent.getAsLong()
                        + ", which the Stream loop axis split from it does not cut into " + factor + " equal chunks");
            }
        }
    }

    /**
     * A set from a DIDx axis to a Stream axis is the allgather the stream loop pipelines: each iteration moves one
     * shard between the devices of one mesh, each rank both sending its shard and receiving the others' (nvFuser's
     * StreamParallelType pass pairs send and recv with the same peer). Across two meshes a rank would receive
     * without a shard to send, so the set must keep its mesh; a set to an unsharded axis gathers across meshes.
     */
    void checkPipelinedAllgathers(List<FusionOp> ops) {
        for (int i = 0; i < ops.size(); i++) {
            if (!(ops.get(i) instanceof FusionOp.Set s) || s.isPermute()) continue;
            TensorView in = s.input();
            TensorView out = s.output();
            if (in.mesh() == null || out.mesh() == null || in.mesh().equals(out.mesh())) continue;
            int[] map = AxisMap.of(s, 0);
            for (int p = 0; p < map.length; p++) {
                if (in.axis(p).parallelType() == ParallelType.DIDX && map[p] != AxisMap.NONE
                        && out.axis(map[p]).isStream()) {
                    cx.report(cx.locator.op(i), Rule.MESH_STREAM_ALLGATHER, ValidationContext.op(s) + ": "
                            + tensor(in) + " on " + meshText(in.mesh()) + " is gathered along a Stream axis into "
                            + tensor(out) + " on " + meshText(out.mesh()) + "; the pipelined allgather stays in one"
                            + " mesh: give both the same mesh, or gather into a tensor without a Stream axis first");
                }
            }
        }
    }

    private static String meshText(DeviceMesh mesh) {
        return mesh.deviceIds().stream().map(String::valueOf).collect(Collectors.joining(", ", "[", "]"));
    }

    private void mesh(TensorView t) {
        DeviceMesh mesh = t.mesh();
        FusionLocator.Location at = cx.locator.mesh(t.subject());
        if (mesh.size() == 0) {
            cx.report(at, Rule.MESH_EMPTY, "the mesh of " + tensor(t) + " has no devices");
            return;
        }
        Set<Integer> seen = new HashSet<>();
        Set<Integer> twice = new TreeSet<>();
        Set<Integer> outside = new TreeSet<>();
        int devices = cx.bindings.devices();
        for (int id : mesh.deviceIds()) {
            if (!seen.add(id)) twice.add(id);
            if (id < 0 || id >= devices) outside.add(id);
        }
        if (!twice.isEmpty()) {
            cx.report(at, Rule.MESH_DUPLICATE, "the mesh of " + tensor(t) + " lists device" + plural(twice)
                    + " more than once");
        }
        if (!outside.isEmpty()) {
            cx.report(at, Rule.MESH_DEVICE_RANGE, "the mesh of " + tensor(t) + " has device" + plural(outside)
                    + " but the run has " + devices + " device" + (devices == 1 ? " (0)" : "s (0.." + (devices - 1)
                    + ")") + "; it needs --devices " + (Collections.max(mesh.deviceIds()) + 1));
        }
        for (int i = 0; i < t.rank(); i++) {
            IterDomain a = t.axis(i);
            if (!a.isDeviceDim()) continue;
            if (splitFactor(t, i).isPresent()) {
                deviceSplit(t, i, splitFactor(t, i).getAsLong());
                continue;
            }
            OptionalLong extent = value(a.extent());
            int along = t.devicesAlong(a.parallelType());
            if (extent.isPresent() && extent.getAsLong() != along) {
                String bound = a.extent() instanceof Extent.Symbolic s
                        ? " (" + Texts.quote(s.name()) + " = " + extent.getAsLong() + ")" : "";
                cx.report(cx.locator.axis(t.subject(), i), Rule.MESH_DID_EXTENT, a.parallelType().fileName() + " axis " + i
                        + " of " + tensor(t) + " has extent " + ValidationContext.extent(a.extent()) + bound
                        + " but its mesh has " + along + " device" + (along == 1 ? "" : "s")
                        + (mesh.rank() > 1 ? " along " + a.parallelType().fileName() : ""));
            }
        }
    }

    /**
     * A swizzle1d cycles an axis over the team along its parallel type ((i + k) % n, dispatchSwizzle1D and
     * ShardByStream with n the team size), so it needs a mesh with an axis for that type and an extent of n.
     */
    private void swizzles(TensorView t) {
        if (t.loop() == null) return;
        for (IterTransform tr : t.loop().transforms()) {
            if (!(tr instanceof IterTransform.Swizzle1D z)) continue;
            FusionLocator.Location at = cx.locator.locate(t.subject());
            String type = z.parallelType().fileName();
            if (t.mesh() == null || t.mesh().axisOf(z.parallelType()) < 0) {
                cx.report(at, Rule.LOOP_SWIZZLE_EXTENT, tensor(t) + " swizzles a loop axis by "
                        + type + " but " + (t.mesh() == null ? "has no mesh" : "its mesh has no " + type + " axis"));
                continue;
            }
            int n = t.mesh().extent(z.parallelType());
            OptionalLong extent = z.in().extent() instanceof Extent e ? value(e) : OptionalLong.empty();
            if (extent.isPresent() && extent.getAsLong() != n) {
                cx.report(at, Rule.LOOP_SWIZZLE_EXTENT, "the swizzle1d axis of " + tensor(t)
                        + " has extent " + extent.getAsLong() + " but its mesh has " + n + " device" + (n == 1 ? ""
                        : "s") + " along " + type + ": the swizzle cycles over them, (i + k) % " + n);
            }
        }
    }

    /** The factor of the outer split whose outer part shards logical axis {@code i}, if it is sharded so. */
    private static OptionalLong splitFactor(TensorView t, int i) {
        if (t.loop() == null) return OptionalLong.empty();
        for (int p = 0; p < t.loop().loop().size(); p++) {
            LoopDomain.Axis a = t.loop().loop().get(p);
            LoopDomain.Source src = t.loop().source(p);
            if (a.isDeviceDim() && src.logicalPosition() == i
                    && src.derivation() == LoopDomain.Derivation.OUTER_OF_OUTER_SPLIT
                    && a.extent() instanceof Extent.Constant(long factor)) {
                return OptionalLong.of(factor);
            }
        }
        return OptionalLong.empty();
    }

    /** A device split: its factor is the DID loop axis's extent, so it is the mesh size; the extent splits evenly. */
    private void deviceSplit(TensorView t, int i, long factor) {
        IterDomain a = t.axis(i);
        int size = t.devicesAlong(a.parallelType());
        if (factor != size) {
            cx.report(cx.locator.axis(t.subject(), i), Rule.MESH_DID_EXTENT, a.parallelType().fileName() + " loop axis of "
                    + tensor(t) + " (the outer split of axis " + i + ") has extent " + factor + " but its mesh has "
                    + size + " device" + (size == 1 ? "" : "s"));
            return;
        }
        OptionalLong extent = value(a.extent());
        if (extent.isPresent() && extent.getAsLong() % size != 0) {
            cx.report(cx.locator.axis(t.subject(), i), Rule.LOOP_INDIVISIBLE, "axis " + i + " of " + tensor(t) + " has extent "
                    + ValidationContext.extent(a.extent()) + " = " + extent.getAsLong() + ", which "
                    + a.parallelType().fileName() + " does not split evenly over " + size + " devices");
        }
    }

    private void axes(TensorView t) {
        Map<ParallelType, Integer> first = new EnumMap<>(ParallelType.class);
        for (int i = 0; i < t.rank(); i++) {
            IterDomain a = t.axis(i);
            ParallelType p = a.parallelType();
            // mapDeviceAndStreamParallelTypeToId skips reduction axes: rDIDx{d} beside iDIDx is how a ReduceScatter
            // output is written (LowerCollectiveTest.ReduceScatter)
            if (p != ParallelType.SERIAL && !a.isReduction()) {
                Integer j = first.putIfAbsent(p, i);
                if (j != null) {
                    cx.report(cx.locator.axis(t.subject(), i), Rule.PARALLEL_DUPLICATE, tensor(t) + " has two " + p.fileName()
                            + " axes (" + j + " and " + i + ")");
                }
            }
            if (p == ParallelType.DIDY && (t.mesh() == null || t.mesh().rank() < 2)) {
                cx.report(cx.locator.axis(t.subject(), i), Rule.MESH_DIDY, "axis " + i + " of " + tensor(t)
                        + " is DIDy, which needs a 2-D device mesh (hostir-fusion/2: \"mesh\": [[0, 1], [2, 3]]);"
                        + " this tensor's mesh is 1-D (use DIDx)");
            }
            if (a.isStream() && a.isReduction() && !(i == 0 && reduceBased.contains(t.id()))) {
                cx.report(cx.locator.axis(t.subject(), i), Rule.STREAM_REDUCTION, "axis " + i + " of " + tensor(t)
                        + " is a reduction axis and cannot be Stream-parallel");
            }
        }
    }

    /** {@code "s 2, 3"} or {@code " 2"}: the ids after "device". */
    private static String plural(Set<Integer> ids) {
        return (ids.size() == 1 ? " " : "s ") + ids.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    /** A constant, or a symbol bound by --devices, --set or a file default. */
    private OptionalLong value(Extent e) {
        return switch (e) {
            case Extent.Constant c -> OptionalLong.of(c.value());
            case Extent.Symbolic s -> cx.bindings.value(s.name());
        };
    }
}
