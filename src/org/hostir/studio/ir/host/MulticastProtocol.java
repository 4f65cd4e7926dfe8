package org.hostir.studio.ir.host;

/**
 * nvFuser's {@code MulticastProtocol} (csrc/multidevice/ipc_utils.h:32 at 81c4b22fd) for the {@code backend=cuda}
 * Broadcast, Allgather, Allreduce and Reduce: {@code NVFUSER_ENABLE=multicast_protocol(multimem)} or
 * {@code (memcpy)}, anything else batch_memcpy (getMulticastProtocol, csrc/multidevice/ipc_utils.cpp:182-192).
 * <ul>
 * <li>{@code batch_memcpy}: cudaMemcpyBatchAsync to every peer's buffer, a linear broadcast on the copy engines;
 * no NVLink multicast needed (#5620: "the fall-back protocol")</li>
 * <li>{@code memcpy}: one cudaMemcpyAsync onto the NVLS multicast pointer (copy engines, no SMs)</li>
 * <li>{@code multimem}: a kernel of {@code multimem.st} stores onto the multicast pointer (SMs); the only protocol
 * of the NVLS Allreduce and Reduce of float sums ({@code multimem.ld_reduce}, #6038, cuda_p2p.cpp:834-845,
 * 961-973)</li>
 * </ul>
 */
public enum MulticastProtocol {
    BATCH_MEMCPY,
    MEMCPY,
    MULTIMEM;

    /** Whether the protocol needs NVLink multicast (NVLS), which the shared GPU machines keep off. */
    public boolean needsMulticast() {
        return switch (this) {
            case BATCH_MEMCPY -> false;
            case MEMCPY, MULTIMEM -> true;
        };
    }
}
