package org.hostir.studio.lower;

import org.hostir.studio.ir.host.CommunicatorBackend;

/**
 * The choices of nvFuser's CUDA communication backend ({@code backend=cuda}) that its {@code NVFUSER_ENABLE}
 * options make (csrc/options.cpp:182-184 at 81c4b22fd: {@code p2p_protocol}, {@code p2p_transport},
 * {@code multicast_protocol}), declared once here as lowering options and handed to the backends as one value.
 * The protocol orders the lowering's send and recv; the transport and the multicast protocol say how the backend
 * moves bytes (the simulator times each; docs/simulation.md).
 */
public record CudaBackendOptions(CommunicatorBackend backend, P2pProtocol protocol, P2pTransport transport,
                                 MulticastProtocol multicast) {
    public static final LoweringOption<P2pProtocol> P2P_PROTOCOL = LoweringOption.choice("p2pProtocol",
            P2pProtocol.GET, "P2P protocol", "nvFuser's NVFUSER_ENABLE=p2p_protocol(put|get) for backend=cuda: get,"
                    + " the receiver pulls; put, the sender pushes (the lowering posts the recv first)",
            "StreamParallelType");
    public static final LoweringOption<P2pTransport> P2P_TRANSPORT = LoweringOption.choice("p2pTransport",
            P2pTransport.COPY_ENGINE, "P2P transport", "nvFuser's NVFUSER_ENABLE=p2p_transport(Tma) for backend=cuda:"
                    + " a send/recv copy on the copy engine (no SMs) or a TMA bulk-copy kernel",
            "ConvertToCommunication");
    public static final LoweringOption<MulticastProtocol> MULTICAST_PROTOCOL = LoweringOption.choice(
            "multicastProtocol", MulticastProtocol.BATCH_MEMCPY, "Multicast protocol", "nvFuser's"
                    + " NVFUSER_ENABLE=multicast_protocol(...) for a backend=cuda Broadcast or Allgather: batch_memcpy"
                    + " (copy engines, no NVLink multicast), memcpy or multimem (NVLS multicast; multimem also the"
                    + " NVLS Allreduce and Reduce of float sums)", "ConvertToCommunication");

    /** NCCL with nvFuser's defaults. */
    public static final CudaBackendOptions NCCL = new CudaBackendOptions(CommunicatorBackend.NCCL, P2pProtocol.GET,
            P2pTransport.COPY_ENGINE, MulticastProtocol.BATCH_MEMCPY);

    public static CudaBackendOptions of(LoweringOptions o) {
        return new CudaBackendOptions(o.backend(), o.get(P2P_PROTOCOL), o.get(P2P_TRANSPORT),
                o.get(MULTICAST_PROTOCOL));
    }

    /** Whether communications go over the CUDA backend (copy engines, symmetric memory), not NCCL. */
    public boolean cuda() { return backend == CommunicatorBackend.CUDA; }
}
