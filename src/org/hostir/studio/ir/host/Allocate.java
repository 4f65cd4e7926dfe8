package org.hostir.studio.ir.host;

import java.util.Objects;

import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;

/** Allocates a tensor's buffer; skipped at run time when the tensor is already bound (pre-allocated output). */
public record Allocate(int id, TensorView buffer, MemoryType memoryType, Scalar size, boolean zeroInit)
        implements HostNode {
    public Allocate {
        Objects.requireNonNull(buffer);
        Objects.requireNonNull(memoryType);
        Objects.requireNonNull(size);
    }

    public Allocate(int id, TensorView buffer) {
        this(id, buffer, buffer.memoryType(), buffer.allocationSize(), false);
    }
}
