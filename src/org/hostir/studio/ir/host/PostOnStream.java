package org.hostir.studio.ir.host;

import java.util.List;
import java.util.Objects;

import org.hostir.studio.ir.TensorView;

/**
 * Runs a HostUnit on the current stream with these inputs and outputs. {@code launch} says which nvFuser node the
 * lowering that made it creates for a kernel segment, and so how it prints: MultiDeviceExecutor's HostIrLower wraps
 * the segment in {@code PostOnStream(HostUnit)} (csrc/host_ir/lower.cpp:154 at 81c4b22fd), host_ir_lowering's
 * lowerSegment launches it as {@code LaunchKernel} (csrc/host_ir/lowering.cpp:399). The Studio runs both alike.
 */
public record PostOnStream(int id, HostUnit unit, List<TensorView> inputs, List<TensorView> outputs, Launch launch)
        implements HostNode {
    /** The nvFuser node a kernel segment becomes. */
    public enum Launch { POST_ON_STREAM, LAUNCH_KERNEL }

    public PostOnStream {
        Objects.requireNonNull(unit);
        Objects.requireNonNull(launch);
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
    }

    public PostOnStream(int id, HostUnit unit, List<TensorView> inputs, List<TensorView> outputs) {
        this(id, unit, inputs, outputs, Launch.POST_ON_STREAM);
    }

    public PostOnStream(int id, HostUnit unit) { this(id, unit, unit.inputs(), unit.outputs()); }

    /** The same kernel as host_ir_lowering launches it. */
    public PostOnStream launched() { return new PostOnStream(id, unit, inputs, outputs, Launch.LAUNCH_KERNEL); }
}
