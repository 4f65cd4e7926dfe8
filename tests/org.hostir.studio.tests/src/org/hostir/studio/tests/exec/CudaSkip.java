package org.hostir.studio.tests.exec;

import org.hostir.studio.exec.cuda.CudaBackend;

/** The message a CUDA test is skipped with: no GPU at all (CI), or fewer than it needs (a one-GPU machine). */
final class CudaSkip {
    private CudaSkip() {}

    static String message(int needed) {
        int found = CudaBackend.localDeviceCount();
        String gpus = needed + (needed == 1 ? " GPU" : " GPUs");
        return found == 0 ? "skipped: no CUDA device (needs " + gpus + ")"
                : "skipped: needs " + gpus + ", this machine has " + found;
    }
}
