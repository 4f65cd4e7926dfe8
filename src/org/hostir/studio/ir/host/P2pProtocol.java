package org.hostir.studio.ir.host;

/**
 * nvFuser's {@code P2pProtocol} (csrc/multidevice/cuda_p2p.h:18 at 81c4b22fd), chosen by
 * {@code NVFUSER_ENABLE=p2p_protocol(put)}, else Get (getP2pProtocol, csrc/multidevice/cuda_p2p.cpp:43-47): who
 * moves the bytes of a {@code backend=cuda} send/recv pair. Get: the sender signals "ready" and the receiver pulls
 * (recvPost, cuda_p2p.cpp:1217-1242); Put: the receiver signals "ready" and the sender pushes (sendPost,
 * cuda_p2p.cpp:1270-1299). The lowering posts the side that waits second (stream_parallel_type.cpp:442-453).
 */
public enum P2pProtocol {
    GET,
    PUT
}
