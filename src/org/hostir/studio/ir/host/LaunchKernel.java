package org.hostir.studio.ir.host;

import java.util.List;

import org.hostir.studio.ir.TensorView;

/**
 * nvFuser's {@code hir::LaunchKernel} (csrc/host_ir/ir.h:111, printed by csrc/host_ir/ir.cpp:150): launches the
 * compiled kernel of segment {@code groupId} on its inputs and outputs. The kernel itself is not in the dump (it is
 * nvFuser's generated CUDA), so the Studio reads and prints the node but cannot run it: backends refuse it
 * ({@link NotExecutable}).
 */
public record LaunchKernel(int id, int groupId, List<TensorView> inputs, List<TensorView> outputs)
        implements HostNode {
    public LaunchKernel {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
    }
}
