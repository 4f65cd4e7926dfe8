package org.hostir.studio.exec.cuda;

import java.util.Optional;

import org.hostir.studio.ir.FusionOp;

/**
 * Which fusion ops the CUDA backend has a kernel for, declared once: the engine refuses a fusion with another op
 * before a CUDA run opens a device, and the GPU tests skip it, saying why, instead of each finding out from a failed
 * run that aborts the backend's communicators. Since issue 39's kernels every op has one; a new op without a kernel
 * is declared here (the switch has no default, so a new op cannot be left out).
 */
public final class CudaKernels {
    private CudaKernels() {}

    /** Why the CUDA backend cannot run {@code op}, or empty when it can. */
    public static Optional<String> missing(FusionOp op) {
        return switch (op) {
            // issue 39: the gathers by index, topk and scatter (IndexOps), grouped_mm (GroupedGemm)
            case FusionOp.IndexSelect _, FusionOp.TakeAlongAxis _, FusionOp.TopK _, FusionOp.Scatter _,
                 FusionOp.GroupedMm _ -> Optional.empty();
            case FusionOp.Set _, FusionOp.Unary _, FusionOp.Binary _, FusionOp.Broadcast _, FusionOp.Squeeze _,
                 FusionOp.Reshape _, FusionOp.Expand _, FusionOp.Where _, FusionOp.Reduction _, FusionOp.Matmul _,
                 FusionOp.Linear _ -> Optional.empty();
        };
    }
}
