package org.hostir.studio.exec.cpu;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Point-to-point transfers between ranks. The n-th send from a to b meets the n-th receive on b from a, as in
 * NCCL. A send outside a group waits until its receive has taken the data, which is what makes uncoalesced
 * send/recv pairs posted in the wrong order deadlock here as they do with NCCL (and get reported).
 */
final class Mailbox {
    record Key(int from, int to, long sequence) {
        /** Pairs the send and the receive on the timeline: the same on both ranks, never 0. */
        long flowId() { return ((long) from << 48) ^ ((long) to << 32) ^ (sequence + 1); }
    }

    private final Blocking blocking;
    private final Map<Key, float[]> slots = new HashMap<>();
    private final Set<Key> taken = new HashSet<>();

    Mailbox(Blocking blocking) { this.blocking = blocking; }

    synchronized void put(Key key, float[] data) {
        slots.put(key, data);
        notifyAll();
    }

    float[] take(Key key, String what) {
        blocking.await(this, () -> slots.containsKey(key), what);
        synchronized (this) {
            float[] data = slots.remove(key);
            taken.add(key);
            notifyAll();
            return data;
        }
    }

    void awaitTaken(Key key, String what) {
        blocking.await(this, () -> taken.contains(key), what);
        synchronized (this) {
            taken.remove(key);
        }
    }
}
