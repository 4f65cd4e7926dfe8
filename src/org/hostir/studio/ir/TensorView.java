package org.hostir.studio.ir;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.hostir.studio.diag.Subject;

/**
 * A tensor: {@code T<id>}, its dtype, memory type, axes (the logical domain's IterDomains) and device mesh. The
 * mesh is null for a single-device fusion (nvFuser then prints no {@code (DeviceMesh{..})}). {@code label} is
 * the user's name from the fusion file; it is never printed in dumps.
 *
 * <p>{@code loop} is null when the loop domain is the logical one. Otherwise it holds the transforms and the
 * loop domain, and the logical axes carry the parallel type of the loop axis that derives from them (a DIDx
 * outer split of axis 0 makes axis 0 DIDx here): what nvFuser's getCommunicationInfo compares once it maps loop
 * to logical, so resharding, the choice of communication and sharding of data read the logical axes only.
 */
public record TensorView(int id, String label, DataType dtype, MemoryType memoryType, List<IterDomain> axes,
                         DeviceMesh mesh, LoopDomain loop) {
    public TensorView {
        if (id < 0) throw new IllegalArgumentException("tensor id must be >= 0");
        Objects.requireNonNull(dtype, "dtype");
        Objects.requireNonNull(memoryType, "memoryType");
        axes = List.copyOf(axes);
        label = label == null ? "T" + id : label;
        if (loop != null && loop.isTrivial()) loop = null;
        if (loop != null) axes = LoopProjection.project(axes, loop);
    }

    public TensorView(int id, String label, DataType dtype, MemoryType memoryType, List<IterDomain> axes,
                      DeviceMesh mesh) {
        this(id, label, dtype, memoryType, axes, mesh, null);
    }

    /** The loop domain: the transformed one, or the logical axes when there is no transform. */
    public LoopDomain loopDomain() { return loop != null ? loop : LoopDomain.of(axes); }

    /** This tensor with its loop domain replaced (the logical axes' parallel types derived from it again). */
    public TensorView withLoop(LoopDomain newLoop) {
        // no transform: the logical axes carry the parallel types themselves (a 2-D mesh tensor without loop
        // steps, read as hostir-fusion/2, lost its logical DIDx here)
        if (newLoop.isTrivial()) return new TensorView(id, label, dtype, memoryType, newLoop.logical(), mesh, null);
        List<IterDomain> plain = axes.stream().map(a -> a.isDeviceDim() ? a.withParallelType(ParallelType.SERIAL)
                : a).toList();
        return new TensorView(id, label, dtype, memoryType, plain, mesh, newLoop);
    }

    /**
     * The extent axis {@code i} has on one rank: 1 for a broadcast axis; for a device-parallel one, its extent
     * over the mesh's extent along that parallel type, which is 1 for a logical DID axis (its extent is that
     * number of devices) and {@code ceilDiv(extent, D)} for an outer split by it.
     */
    public Scalar localExtent(int i) {
        IterDomain a = axes.get(i);
        if (a.isBroadcast()) return Scalar.constant(1);
        if (!a.isDeviceDim() || mesh == null) return a.extent();
        long devices = devicesAlong(a.parallelType());
        if (a.extent() instanceof Extent.Constant(long e) && e == devices) return Scalar.constant(1);
        return Scalar.ceilDiv(a.extent(), Scalar.constant(devices));
    }

    /** How many devices of the mesh a {@code type} axis is sharded over (the whole mesh on a 1-D one). */
    public int devicesAlong(ParallelType type) {
        return mesh.axisOf(type) < 0 ? mesh.size() : mesh.extent(type);
    }

    public String name() { return "T" + id; }

    /** This tensor as a diagnostic's subject: its id and the file's name for it. */
    public Subject.Tensor subject() { return new Subject.Tensor(id, label); }

    public int rank() { return axes.size(); }

    public IterDomain axis(int i) { return axes.get(i); }

    /** Axes that exist in the runtime tensor (reduction axes do not). */
    public List<IterDomain> allocationAxes() {
        return axes.stream().filter(a -> !a.isReduction()).toList();
    }

    /**
     * This tensor (same id and label) without its reduction axes: what stands for it once a set has moved it, as
     * nvFuser's set(output) makes its new output with ops::newValLike, which drops them (newOutputDomain,
     * csrc/ops/utils.cpp:464-476 at 81c4b22fd).
     */
    public TensorView withoutReductions() {
        return new TensorView(id, label, dtype, memoryType, allocationAxes(), mesh,
                loop == null ? null : loop.withoutReductions());
    }

    public Optional<IterDomain> streamAxis() {
        return axes.stream().filter(IterDomain::isStream).findFirst();
    }

    public Optional<IterDomain> deviceAxis() {
        return axes.stream().filter(IterDomain::isDeviceDim).findFirst();
    }

    public boolean isSharded() { return deviceAxis().isPresent(); }

    public TensorView withMemoryType(MemoryType m) { return new TensorView(id, label, dtype, m, axes, mesh, loop); }

    /**
     * This tensor with other logical axes. The loop domain is kept only when the axes are unchanged: a pass that
     * rewrites axes builds its tensors on the logical domain, whose parallel types still say the sharding.
     */
    public TensorView withAxes(List<IterDomain> newAxes) {
        return new TensorView(id, label, dtype, memoryType, newAxes, mesh, newAxes.equals(axes) ? loop : null);
    }

    /** Element count of the whole (logical) buffer, reduction and broadcast axes excluded, as nvFuser sizes it. */
    public Scalar allocationSize() {
        if (loop != null && loop.allocationIsLoop()) return loopAllocationSize();
        Scalar size = null;
        for (IterDomain a : axes) {
            if (a.isReduction() || a.isBroadcast()) continue;
            size = size == null ? a.extent() : Scalar.mul(size, a.extent());
        }
        return size == null ? Scalar.constant(1) : size;
    }

    /** kir::Allocate's size over an allocation domain set to the loop domain: its extents, reductions left out. */
    private Scalar loopAllocationSize() {
        Scalar size = null;
        for (LoopDomain.Axis a : loop.loop()) {
            if (a.iterType() == IterType.REDUCTION || a.iterType() == IterType.BROADCAST) continue;
            size = size == null ? a.extent() : Scalar.mul(size, a.extent());
        }
        return size == null ? Scalar.constant(1) : size;
    }
}
