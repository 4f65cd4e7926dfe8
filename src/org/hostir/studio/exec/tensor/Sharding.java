package org.hostir.studio.exec.tensor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;

/**
 * Moves between the unsharded world of the reference interpreter and the ranks' local tensors. A tensor with a
 * DID axis is split along it in mesh order: the device at position i of the mesh holds slice i (of size 1 when
 * the axis's extent is the mesh size, nvFuser's convention). A tensor without one is replicated on every device
 * of its mesh; a tensor without a mesh (a single-device fusion) on every rank.
 */
public final class Sharding {
    private Sharding() {}

    /**
     * The global tensor put back together. For a replicated tensor it is the first mesh device's copy (the lowest
     * rank without a mesh), and {@code disagreeingRanks} lists the devices whose copy is not within the dtype's
     * tolerance of it, {@code maxReplicaDifference} the largest difference seen.
     */
    public record Gathered(DenseTensor tensor, List<Integer> disagreeingRanks, double maxReplicaDifference) {
        public Gathered {
            disagreeingRanks = List.copyOf(disagreeingRanks);
        }

        public boolean replicasAgree() { return disagreeingRanks.isEmpty(); }
    }

    /**
     * The part of {@code global} that {@code rank} holds, as a new tensor: its slice along the DID axis, or all
     * of it when the tensor is replicated; empty when {@code rank} is not in the tensor's mesh.
     */
    public static Optional<DenseTensor> shard(TensorView tv, DenseTensor global, int rank) {
        checkRank(tv, global);
        DeviceMesh mesh = tv.mesh();
        if (mesh != null && !mesh.contains(rank)) return Optional.empty();
        if (deviceAxis(tv) < 0) return Optional.of(global.copy());
        if (mesh == null) throw new IllegalArgumentException(tv.name() + " has a DID axis but no device mesh");
        DenseTensor part = global;
        List<IterDomain> axes = tv.allocationAxes();
        for (int axis = 0; axis < axes.size(); axis++) {
            if (!axes.get(axis).isDeviceDim()) continue;
            ParallelType type = axes.get(axis).parallelType();
            int devices = tv.devicesAlong(type);
            long chunk = chunk(tv, part.size(axis), devices);
            int index = mesh.rank() == 1 ? mesh.indexOf(rank) : mesh.coordinate(rank, type);
            part = part.narrow(axis, index * chunk, chunk);
        }
        return Optional.of(part.copy());
    }

    /** The global tensor from every mesh device's local tensor ({@code locals} by rank; others are ignored). */
    public static Gathered gather(TensorView tv, Map<Integer, DenseTensor> locals) {
        List<Integer> ranks = tv.mesh() != null ? tv.mesh().deviceIds()
                : locals.keySet().stream().sorted().toList();
        if (ranks.isEmpty()) throw new IllegalArgumentException("no local tensors of " + tv.name() + " to gather");
        for (int r : ranks) {
            if (!locals.containsKey(r)) throw new IllegalArgumentException("rank " + r + " holds no part of " + tv.name());
            checkRank(tv, locals.get(r));
        }
        DenseTensor first = locals.get(ranks.getFirst());
        int axis = deviceAxis(tv);
        if (axis < 0) return replicated(first, ranks, locals);
        if (tv.mesh() == null) throw new IllegalArgumentException(tv.name() + " has a DID axis but no device mesh");
        if (tv.mesh().rank() > 1) return gatherGrid(tv, locals, first);
        long chunk = first.size(axis);
        long[] shape = first.shape();
        shape[axis] = chunk * ranks.size();
        DenseTensor global = DenseTensor.zeros(shape, first.dtype());
        for (int i = 0; i < ranks.size(); i++) {
            DenseTensor local = locals.get(ranks.get(i));
            if (!Arrays.equals(local.shape, first.shape)) {
                throw new IllegalArgumentException(tv.name() + ": rank " + ranks.get(i) + " holds shape "
                        + Arrays.toString(local.shape) + ", rank " + ranks.getFirst() + " holds "
                        + Arrays.toString(first.shape));
            }
            global.narrow(axis, i * chunk, chunk).copyFrom(local);
        }
        return new Gathered(global, List.of(), 0);
    }

    /**
     * A tensor on a 2-D mesh: each device's part goes back at its coordinates along the tensor's DID axes. Devices
     * that differ only along a mesh axis no DID axis uses hold replicas; the first one written is kept.
     */
    private static Gathered gatherGrid(TensorView tv, Map<Integer, DenseTensor> locals, DenseTensor first) {
        List<IterDomain> axes = tv.allocationAxes();
        long[] shape = first.shape();
        for (int axis = 0; axis < axes.size(); axis++) {
            if (axes.get(axis).isDeviceDim()) shape[axis] *= tv.devicesAlong(axes.get(axis).parallelType());
        }
        DenseTensor global = DenseTensor.zeros(shape, first.dtype());
        for (int rank : tv.mesh().deviceIds()) {
            DenseTensor local = locals.get(rank);
            if (!Arrays.equals(local.shape, first.shape)) {
                throw new IllegalArgumentException(tv.name() + ": rank " + rank + " holds shape "
                        + Arrays.toString(local.shape) + ", another rank " + Arrays.toString(first.shape));
            }
            DenseTensor place = global;
            for (int axis = 0; axis < axes.size(); axis++) {
                if (!axes.get(axis).isDeviceDim()) continue;
                long chunk = first.size(axis);
                place = place.narrow(axis, tv.mesh().coordinate(rank, axes.get(axis).parallelType()) * chunk, chunk);
            }
            place.copyFrom(local);
        }
        return new Gathered(global, List.of(), 0);
    }

    private static Gathered replicated(DenseTensor first, List<Integer> ranks, Map<Integer, DenseTensor> locals) {
        List<Integer> disagreeing = new ArrayList<>();
        double maxDiff = 0;
        for (int r : ranks.subList(1, ranks.size())) {
            Comparison.Result c = Comparison.compare(first, locals.get(r));
            maxDiff = Math.max(maxDiff, c.maxAbsError());
            if (!c.passed()) disagreeing.add(r);
        }
        return new Gathered(first.copy(), disagreeing, maxDiff);
    }

    /** Runtime position of the tensor's device-parallel axis, or -1 when it is replicated. */
    public static int deviceAxis(TensorView tv) {
        List<IterDomain> axes = tv.allocationAxes();
        for (int i = 0; i < axes.size(); i++) {
            if (axes.get(i).isDeviceDim()) return i;
        }
        return -1;
    }

    private static long chunk(TensorView tv, long size, int devices) {
        if (devices == 0 || size % devices != 0) {
            throw new IllegalArgumentException(tv.name() + ": a DID axis of size " + size + " does not split over "
                    + devices + " devices");
        }
        return size / devices;
    }

    private static void checkRank(TensorView tv, DenseTensor t) {
        if (t.rank() != tv.allocationAxes().size()) {
            throw new IllegalArgumentException(tv.name() + " has " + tv.allocationAxes().size()
                    + " runtime axes, but the tensor has shape " + Arrays.toString(t.shape));
        }
    }
}
