package org.hostir.studio.exec;

import java.util.HashMap;
import java.util.Map;

import org.hostir.studio.ir.host.P2PCommunication;

/**
 * How point-to-point transfers meet across ranks, as NCCL matches {@code ncclSend}/{@code ncclRecv}: the n-th send
 * from a to b meets the n-th receive on b from a, n counted per peer in the order the rank posts them. One per rank;
 * the backends number their transfers with it, and the debugger with it finds a transfer's other side.
 */
public final class P2PSequence {
    /** One transfer, named the same on both sides: from, to, and its number among the transfers from to to. */
    public record Transfer(int from, int to, long sequence) {
        /** Pairs the send and the receive on the timeline: the same on both ranks, never 0. */
        public long flowId() { return ((long) from << 48) ^ ((long) to << 32) ^ (sequence + 1); }
    }

    private final int rank;
    private final Map<Integer, Long> sent = new HashMap<>();
    private final Map<Integer, Long> received = new HashMap<>();

    public P2PSequence(int rank) { this.rank = rank; }

    /** The transfer the rank's next {@code type} with {@code peer} is part of (taken in posting order). */
    public Transfer next(P2PCommunication.Type type, int peer) {
        boolean send = type == P2PCommunication.Type.SEND;
        long n = (send ? sent : received).merge(peer, 1L, Long::sum) - 1;
        return send ? new Transfer(rank, peer, n) : new Transfer(peer, rank, n);
    }
}
