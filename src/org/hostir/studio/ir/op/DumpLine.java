package org.hostir.studio.ir.op;

import java.util.function.Function;

import org.hostir.studio.ir.TensorView;

/**
 * Where an op definition prints its dump spelling: after the output's line, {@code eq} ({@code indent + "   = "})
 * opens the op's line; {@code tensor} writes an operand as the dump's generation does.
 */
public record DumpLine(String indent, StringBuilder out, Function<TensorView, String> tensor) {
    public String eq() { return indent + "   = "; }

    public String tensor(TensorView t) { return tensor.apply(t); }
}
