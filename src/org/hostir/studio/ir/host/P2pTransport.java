package org.hostir.studio.ir.host;

/**
 * nvFuser's {@code P2pTransport} (csrc/multidevice/cuda_p2p.h:25 at 81c4b22fd): how a Get or Put copy moves,
 * the copy engine ({@code cudaMemcpyAsync}, no SMs) or a TMA bulk-copy kernel staged through shared memory
 * (launchTmaCopy, #6012). nvFuser compares the argument exactly: {@code NVFUSER_ENABLE=p2p_transport(Tma)} selects
 * TMA, any other spelling (the PR's {@code tma} included) the copy engine (getP2pTransport, cuda_p2p.cpp:59-63).
 */
public enum P2pTransport {
    COPY_ENGINE("CopyEngine"),
    TMA("Tma");

    private final String spelling;

    P2pTransport(String spelling) { this.spelling = spelling; }

    public String spelling() { return spelling; }

    /** nvFuser's spelling, which option values and help text use. */
    @Override
    public String toString() { return spelling; }
}
