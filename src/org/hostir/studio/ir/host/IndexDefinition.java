package org.hostir.studio.ir.host;

import java.util.Objects;

import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.Scalar;

/**
 * One line of the "Index definitions:" block nvFuser prints after a container with
 * {@code NVFUSER_DUMP=host_ir(indices)} (#5327, csrc/ir/printer.cpp:90-102 at 81c4b22fd): an Index scalar the
 * program names ({@code i84}) and the expression that defines it ({@code i82 % 8}).
 */
public record IndexDefinition(NamedScalar index, Scalar definition) {
    public IndexDefinition {
        Objects.requireNonNull(index);
        Objects.requireNonNull(definition);
    }
}
