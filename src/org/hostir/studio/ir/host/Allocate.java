package org.hostir.studio.ir.host;

import java.util.Objects;

import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;

/**
 * Allocates a tensor's buffer; skipped at run time when the tensor is already bound (pre-allocated output).
 * nvFuser has two such nodes, told apart by {@code form}: {@code kir::Allocate}, printed with its buffer and size
 * ({@code ALLOCATE(buffer=.., mem_type=global, size=.., zero_init=false, resets_to_zero=false)},
 * csrc/kernel_ir.cpp:548), and {@code hir::Allocate} (#6000, used by the host_ir_lowering path), printed
 * {@code ALLOCATE(mem_type=global, zero_init=false)} (csrc/host_ir/ir.cpp:527); the size is the buffer's either way.
 * Only kir::Allocate has {@code resetsToZero} (a semaphore buffer a kernel resets after use) and an {@code alias}
 * (the allocation whose buffer this one reuses, printed on a {@code .alias=} line, csrc/kernel_ir.cpp:556-558);
 * the Studio's lowering makes neither, a read dump may hold both.
 */
public record Allocate(int id, TensorView buffer, MemoryType memoryType, Scalar size, boolean zeroInit, Form form,
                       boolean resetsToZero, TensorView alias) implements HostNode {

    /** Which of nvFuser's allocation nodes this is: what the dump prints. */
    public enum Form {
        /** {@code kir::Allocate}: buffer and size printed. */
        KERNEL_IR,
        /** {@code hir::Allocate}: only the memory type and zero_init printed. */
        HOST_IR
    }

    public Allocate {
        Objects.requireNonNull(buffer);
        Objects.requireNonNull(memoryType);
        Objects.requireNonNull(size);
        Objects.requireNonNull(form);
        if (form == Form.HOST_IR && (resetsToZero || alias != null)) {
            throw new IllegalArgumentException("hir::Allocate has no resets_to_zero and no alias");
        }
    }

    public Allocate(int id, TensorView buffer, MemoryType memoryType, Scalar size, boolean zeroInit, Form form) {
        this(id, buffer, memoryType, size, zeroInit, form, false, null);
    }

    public Allocate withId(int newId) {
        return new Allocate(newId, buffer, memoryType, size, zeroInit, form, resetsToZero, alias);
    }

    public Allocate(int id, TensorView buffer, MemoryType memoryType, Scalar size, boolean zeroInit) {
        this(id, buffer, memoryType, size, zeroInit, Form.KERNEL_IR);
    }

    public Allocate(int id, TensorView buffer) {
        this(id, buffer, buffer.memoryType(), buffer.allocationSize(), false);
    }
}
