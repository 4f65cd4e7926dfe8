package org.hostir.studio.ir;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A tensor: {@code T<id>}, its dtype, memory type, axes (IterDomains) and device mesh. The mesh is null for a
 * single-device fusion (nvFuser then prints no {@code (DeviceMesh{..})}). {@code label} is the user's name
 * from the fusion file; it is never printed in dumps.
 */
public record TensorView(int id, String label, DataType dtype, MemoryType memoryType, List<IterDomain> axes,
                         DeviceMesh mesh) {
    public TensorView {
        if (id < 0) throw new IllegalArgumentException("tensor id must be >= 0");
        Objects.requireNonNull(dtype, "dtype");
        Objects.requireNonNull(memoryType, "memoryType");
        axes = List.copyOf(axes);
        label = label == null ? "T" + id : label;
    }

    public String name() { return "T" + id; }

    public int rank() { return axes.size(); }

    public IterDomain axis(int i) { return axes.get(i); }

    /** Axes that exist in the runtime tensor (reduction axes do not). */
    public List<IterDomain> allocationAxes() {
        return axes.stream().filter(a -> !a.isReduction()).toList();
    }

    public Optional<IterDomain> streamAxis() {
        return axes.stream().filter(IterDomain::isStream).findFirst();
    }

    public Optional<IterDomain> deviceAxis() {
        return axes.stream().filter(IterDomain::isDeviceDim).findFirst();
    }

    public boolean isSharded() { return deviceAxis().isPresent(); }

    public TensorView withMemoryType(MemoryType m) { return new TensorView(id, label, dtype, m, axes, mesh); }

    public TensorView withAxes(List<IterDomain> newAxes) {
        return new TensorView(id, label, dtype, memoryType, newAxes, mesh);
    }

    /** Element count of the whole (logical) buffer, reduction and broadcast axes excluded, as nvFuser sizes it. */
    public Scalar allocationSize() {
        Scalar size = null;
        for (IterDomain a : axes) {
            if (a.isReduction() || a.isBroadcast()) continue;
            size = size == null ? a.extent() : Scalar.mul(size, a.extent());
        }
        return size == null ? Scalar.constant(1) : size;
    }
}
