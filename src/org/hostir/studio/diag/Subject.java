package org.hostir.studio.diag;

/**
 * What a diagnostic is about, as a typed reference instead of text: front ends map it to a graph node (the
 * editor), a file line (the command line, the Problems view) or an IR name, and {@link FusionLocator#locate}
 * resolves it to a place in the file in one spot. Tensors are by their index in the file's {@code tensors}
 * (which is their IR id, {@code T<index>}); a tensor a lowering pass created has an index past the file's.
 */
public sealed interface Subject {

    /** A tensor: {@code label} is the file's name for it, so a pass-created tensor is not mistaken for a file one. */
    record Tensor(int index, String label) implements Subject {}

    /** One axis of a tensor. */
    record Axis(Tensor tensor, int axis) implements Subject {}

    /** The device mesh of a tensor. */
    record Mesh(Tensor tensor) implements Subject {}

    /** An op, by its index in the file's {@code ops} (and in {@code Fusion.ops()}). */
    record Op(int index) implements Subject {}

    /** An entry of the file's {@code inputs} list. */
    record Input(int index) implements Subject {}

    /** An entry of the file's {@code outputs} list ({@code -1}: the list itself). */
    record Output(int index) implements Subject {}

    /** A place in the JSON text that is not an IR element (syntax, schema, symbols): a path such as {@code $.name}. */
    record Json(String path) implements Subject {}

    /** A setting from outside the file: a symbol override ({@code --set M}), a lowering option, a run flag. */
    record Setting(String name) implements Subject {}
}
