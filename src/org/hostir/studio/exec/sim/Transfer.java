package org.hostir.studio.exec.sim;

/**
 * One send matched with its receive: the k-th send from {@code from} to {@code to} meets the k-th receive on
 * {@code to} from {@code from}, as NCCL pairs point-to-point calls. It starts when both sides' groups have
 * started and lasts the transfer time of the link.
 */
final class Transfer {
    final int from;
    final int to;
    /** An int: sequences are counted in ints per peer ({@link SimDevice}); a transfer takes 64 bytes, not 80. */
    final int sequence;
    final long flowId;
    SimOp send;
    SimOp recv;
    long sendBytes = -1;
    long recvBytes = -1;
    /** When it ends, NaN until it moves (its start is its sides' latest start, {@link EventSimulation#move}). */
    double endUs = Double.NaN;

    Transfer(int from, int to, long sequence, long flowId) {
        this.from = from;
        this.to = to;
        this.sequence = Math.toIntExact(sequence);
        this.flowId = flowId;
    }

    boolean bothPosted() {
        return send != null && recv != null && !Double.isNaN(send.startUs) && !Double.isNaN(recv.startUs);
    }

    /**
     * The rank {@code rank} exchanges this transfer with, on its sending or receiving side. Under a {@link Symmetry}
     * the transfer is kept once, for the pair of representatives, and stands for the pair shifted to {@code rank}.
     */
    int peerOf(int rank, boolean sending, int ranks) {
        return sending ? Math.floorMod(to + rank - from, ranks) : Math.floorMod(from + rank - to, ranks);
    }

    String describe(boolean sending) {
        return (sending ? "send to " + to : "recv from " + from) + " #" + sequence;
    }
}
