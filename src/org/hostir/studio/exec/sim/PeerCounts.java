package org.hostir.studio.exec.sim;

/**
 * A rank's count of sends to (or receives from) each peer: one byte a peer until some count passes 255, then an
 * {@code int}. A rank of an all-pairs schedule talks to every other once, so these are D^2 counts over the run:
 * 2.1 GB of {@code int}s at 16,384 ranks, the largest thing left in the heap once ranks were parked
 * (docs/simulation.md, "Ranks parked behind their own work").
 */
public final class PeerCounts {
    private byte[] small;
    private int[] wide;

    public PeerCounts(int peers) { small = new byte[peers]; }

    /** The count for {@code peer} so far, which is then one more. */
    public int next(int peer) {
        if (wide != null) return wide[peer]++;
        int n = small[peer] & 0xff;
        if (n == 0xff) {
            wide = new int[small.length];
            for (int i = 0; i < small.length; i++) wide[i] = small[i] & 0xff;
            small = null;
            return wide[peer]++;
        }
        small[peer] = (byte) (n + 1);
        return n;
    }
}
