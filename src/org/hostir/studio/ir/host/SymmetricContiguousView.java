package org.hostir.studio.ir.host;

import java.util.Objects;

import org.hostir.studio.ir.TensorView;

/**
 * nvFuser's {@code hir::SymmetricContiguousView} (#5520; csrc/host_ir/ir.h:527, printed by csrc/host_ir/ir.cpp:466):
 * {@code out} views the symmetric-memory buffers of {@code in} on every device of its team as one contiguous
 * tensor (the devices' buffers mapped side by side). Printed {@code T1 = SymmetricContiguousView(T0)}.
 */
public record SymmetricContiguousView(int id, TensorView out, TensorView in) implements HostNode {
    public SymmetricContiguousView {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(in, "in");
    }
}
