package org.hostir.studio.ir.op;

import java.util.List;

import org.hostir.studio.ir.TensorView;

/**
 * What the dump reader gives an op definition to read its spelling back, after the op's name and its opening
 * parenthesis: the operands and the punctuation the definition's {@link OpDefinition#dump} wrote.
 */
public interface DumpReader {
    /** The next tensor, as the dump prints it. */
    TensorView tensor();

    void expect(String s);

    boolean accept(String s);

    /** Whether {@code s} comes next, without reading it. */
    boolean peek(String s);

    /** The next word ({@code add}, {@code true}). */
    String word();

    /** {@code , flags = {true, false}} after the operand of broadcast and squeeze. */
    List<Boolean> flags();

    /** The permutation a Set.Permute's axes tell, or null where they do not. */
    List<Integer> permutation(TensorView input, TensorView output);

    /** A format error at the current position. */
    RuntimeException error(String message);
}
