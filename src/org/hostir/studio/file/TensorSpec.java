package org.hostir.studio.file;

import java.util.List;
import java.util.Objects;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.MemoryType;

/**
 * A tensor of a fusion file. {@code memory} is null when the file leaves it out (global); {@code mesh} is
 * {@link MeshSpec#ABSENT} for a single-device tensor. {@code axes} are the logical domain; {@code loop} the
 * scheduling steps that derive the loop domain ({@code hostir-fusion/2}; empty in a version 1 file) and
 * {@code allocationIsLoop} whether the allocation domain is set to the loop domain.
 */
public record TensorSpec(String name, DataType dtype, MemoryType memory, List<AxisSpec> axes, MeshSpec mesh,
                         List<LoopStep> loop, boolean allocationIsLoop) {
    public TensorSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(dtype, "dtype");
        axes = List.copyOf(axes);
        mesh = mesh == null ? MeshSpec.ABSENT : mesh;
        loop = loop == null ? List.of() : List.copyOf(loop);
    }

    /** A tensor whose loop domain is its logical domain (everything a version 1 file can say). */
    public TensorSpec(String name, DataType dtype, MemoryType memory, List<AxisSpec> axes, MeshSpec mesh) {
        this(name, dtype, memory, axes, mesh, List.of(), false);
    }

    /** Whether only {@code hostir-fusion/2} can write this tensor. */
    public boolean needsVersion2() {
        return !loop.isEmpty() || allocationIsLoop || mesh instanceof MeshSpec.Devices d && d.isGrid();
    }

    public MemoryType memoryOrDefault() { return memory == null ? MemoryType.GLOBAL : memory; }
}
