package org.hostir.studio.ir.host;

/** Who moves the bytes: NCCL, or the CUDA copy engine (peer copies within one process). */
public enum CommunicatorBackend {
    NCCL("NCCL"), CUDA("CUDA");

    private final String dumpName;

    CommunicatorBackend(String dumpName) { this.dumpName = dumpName; }

    public String dumpName() { return dumpName; }
}
