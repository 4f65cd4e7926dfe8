package org.hostir.studio.io;

import java.util.List;
import java.util.Objects;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.MemoryType;

/**
 * A tensor of a fusion file. {@code memory} is null when the file leaves it out (global); {@code mesh} is
 * {@link MeshSpec#ABSENT} for a single-device tensor.
 */
public record TensorSpec(String name, DataType dtype, MemoryType memory, List<AxisSpec> axes, MeshSpec mesh) {
    public TensorSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(dtype, "dtype");
        axes = List.copyOf(axes);
        mesh = mesh == null ? MeshSpec.ABSENT : mesh;
    }

    public MemoryType memoryOrDefault() { return memory == null ? MemoryType.GLOBAL : memory; }
}
