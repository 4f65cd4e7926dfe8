package org.hostir.studio.lower;

import org.hostir.studio.ir.host.CudaBackendSettings;
import org.hostir.studio.ir.host.MulticastProtocol;
import org.hostir.studio.ir.host.P2pProtocol;
import org.hostir.studio.ir.host.P2pTransport;

/**
 * The choices of nvFuser's CUDA communication backend ({@code backend=cuda}) that its {@code NVFUSER_ENABLE}
 * options make (csrc/options.cpp:182-184 at 81c4b22fd: {@code p2p_protocol}, {@code p2p_transport},
 * {@code multicast_protocol}), declared once here as lowering options and handed to the backends as one value.
 * The protocol orders the lowering's send and recv; the transport and the multicast protocol say how the backend
 * moves bytes (the simulator times each; docs/simulation.md).
 */
public final class CudaBackendOptions {
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

    private CudaBackendOptions() {}

    /** The backend's settings these options choose. */
    public static CudaBackendSettings of(LoweringOptions o) {
        return new CudaBackendSettings(o.backend(), o.get(P2P_PROTOCOL), o.get(P2P_TRANSPORT),
                o.get(MULTICAST_PROTOCOL));
    }
}
