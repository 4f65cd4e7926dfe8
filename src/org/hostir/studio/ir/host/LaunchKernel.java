package org.hostir.studio.ir.host;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;

/**
 * nvFuser's {@code hir::LaunchKernel} (csrc/host_ir/ir.h:111, printed by csrc/host_ir/ir.cpp:150): launches the
 * compiled kernel of segment {@code groupId} on its inputs and outputs. The kernel itself is not in the dump (it is
 * nvFuser's generated CUDA), so the Studio reads and prints the node but cannot run it: backends refuse it
 * ({@link NotExecutable}). A segment's inputs may be scalars as well as tensors (lowering.cpp:370 passes every
 * input Val); {@code scalarInputs} holds them with their place in the printed list, {@code inputs} the tensors.
 */
public record LaunchKernel(int id, int groupId, List<TensorView> inputs, List<TensorView> outputs,
                           List<ScalarInput> scalarInputs) implements HostNode {

    /** A scalar input and its 0-based place among all the inputs, as {@code toDelimitedString(inputs())} lists them. */
    public record ScalarInput(int position, Scalar value) {}

    public LaunchKernel {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
        scalarInputs = List.copyOf(scalarInputs);
        int last = -1;
        for (ScalarInput s : scalarInputs) {
            if (s.position() <= last || s.position() >= inputs.size() + scalarInputs.size()) {
                throw new IllegalArgumentException("LaunchKernel: scalar input at place " + s.position()
                        + " out of order or past the inputs");
            }
            last = s.position();
        }
    }

    public LaunchKernel(int id, int groupId, List<TensorView> inputs, List<TensorView> outputs) {
        this(id, groupId, inputs, outputs, List.of());
    }

    public LaunchKernel withId(int newId) { return new LaunchKernel(newId, groupId, inputs, outputs, scalarInputs); }

    /** Every input in the printed order, tensors and scalars each mapped by its function. */
    public <T> List<T> arguments(Function<TensorView, T> tensor, Function<Scalar, T> scalar) {
        List<T> out = new ArrayList<>();
        int t = 0;
        int s = 0;
        while (t < inputs.size() || s < scalarInputs.size()) {
            if (s < scalarInputs.size() && scalarInputs.get(s).position() == out.size()) {
                out.add(scalar.apply(scalarInputs.get(s++).value()));
            } else {
                out.add(tensor.apply(inputs.get(t++)));
            }
        }
        return out;
    }
}
