package org.hostir.studio.tests.exec;

import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.cuda.CudaKernels;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.junit.jupiter.api.Assumptions;

/**
 * The message a CUDA test is skipped with: no GPU at all (CI), or fewer than it needs (a one-GPU machine); and the
 * skip of a fusion with an op the CUDA backend has no kernel for ({@link CudaKernels}), which the engine refuses
 * before a CUDA run (a run that failed on it would abort the shared backend's communicators for every later test).
 */
final class CudaSkip {
    private CudaSkip() {}

    static String message(int needed) {
        int found = CudaBackend.localDeviceCount();
        String gpus = needed + (needed == 1 ? " GPU" : " GPUs");
        return found == 0 ? "skipped: no CUDA device (needs " + gpus + ")"
                : "skipped: needs " + gpus + ", this machine has " + found;
    }

    /** Skips the calling test, saying which op, when {@code fusion} has an op the CUDA backend cannot run. */
    static void assumeKernels(Fusion fusion) {
        for (FusionOp op : fusion.ops()) {
            CudaKernels.missing(op).ifPresent(why -> Assumptions.assumeTrue(false, "skipped: " + op.opName() + " of "
                    + op.output().name() + ": " + why));
        }
    }
}
