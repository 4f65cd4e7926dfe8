package org.hostir.studio.file;

import java.util.List;
import java.util.Objects;

/**
 * An op of a fusion file: {@code output = op(inputs)} by tensor name, with the attributes of its kind:
 * {@code axes} (sum, max: input axis positions), {@code flags} (broadcast: one per output axis, true where the
 * axis is new), {@code permute} (set: output axis i is input axis permute[i], making it Set.Permute). An
 * attribute the op does not have is an empty list.
 */
public record OpSpec(OpKind op, List<String> inputs, String output, List<Integer> axes, List<Boolean> flags,
                     List<Integer> permute) {
    public OpSpec {
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(output, "output");
        inputs = List.copyOf(inputs);
        axes = axes == null ? List.of() : List.copyOf(axes);
        flags = flags == null ? List.of() : List.copyOf(flags);
        permute = permute == null ? List.of() : List.copyOf(permute);
    }

    public static OpSpec of(OpKind op, String output, String... inputs) {
        return new OpSpec(op, List.of(inputs), output, List.of(), List.of(), List.of());
    }

    public OpSpec withAxes(List<Integer> newAxes) { return new OpSpec(op, inputs, output, newAxes, flags, permute); }

    public OpSpec withFlags(List<Boolean> newFlags) { return new OpSpec(op, inputs, output, axes, newFlags, permute); }

    public OpSpec withPermute(List<Integer> perm) { return new OpSpec(op, inputs, output, axes, flags, perm); }
}
