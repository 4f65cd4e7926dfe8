package org.hostir.studio.ir.host;

/**
 * The choices of nvFuser's CUDA communication backend for one run, as one value the lowering reads and the
 * backends and the simulator take (exec sits below lower, so this lives with {@link CommunicatorBackend}; the
 * lowering options that set it are {@code lower.CudaBackendOptions}).
 */
public record CudaBackendSettings(CommunicatorBackend backend, P2pProtocol protocol, P2pTransport transport,
                                  MulticastProtocol multicast) {
    /** NCCL with nvFuser's defaults. */
    public static final CudaBackendSettings NCCL = new CudaBackendSettings(CommunicatorBackend.NCCL, P2pProtocol.GET,
            P2pTransport.COPY_ENGINE, MulticastProtocol.BATCH_MEMCPY);

    /** Whether communications go over the CUDA backend (copy engines, symmetric memory), not NCCL. */
    public boolean cuda() { return backend == CommunicatorBackend.CUDA; }
}
