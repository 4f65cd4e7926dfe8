package org.hostir.studio.ir.host;

import java.util.Objects;

import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;

/** {@code out} is a view of {@code in} at {@code index} along {@code axis}; never a copy. */
public record HirAliasSelect(int id, TensorView out, TensorView in, IterDomain axis, Scalar index)
        implements HostNode {
    public HirAliasSelect {
        Objects.requireNonNull(out);
        Objects.requireNonNull(in);
        Objects.requireNonNull(axis);
        Objects.requireNonNull(index);
    }
}
