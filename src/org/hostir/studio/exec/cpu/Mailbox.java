package org.hostir.studio.exec.cpu;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.hostir.studio.exec.Blockage;
import org.hostir.studio.exec.P2PSequence;
import org.hostir.studio.exec.tensor.DenseTensor;

/**
 * Point-to-point transfers between ranks. The n-th send from a to b meets the n-th receive on b from a, as in
 * NCCL. A send outside a group waits until its receive has taken the data, which is what makes uncoalesced
 * send/recv pairs posted in the wrong order deadlock here as they do with NCCL (and get reported). Each transfer
 * is its own monitor, so a send wakes only its receiver.
 */
final class Mailbox {
    record Key(int from, int to, long sequence) {
        /** Pairs the send and the receive on the timeline: the same on both ranks, never 0. */
        long flowId() { return new P2PSequence.Transfer(from, to, sequence).flowId(); }
    }

    /** One transfer: the data once sent, whether the receiver took it, and whether the sender saw that. */
    private static final class Slot {
        DenseTensor data;
        boolean taken;
        int parties;
    }

    private final Blocking blocking;
    private final Map<Key, Slot> slots = new ConcurrentHashMap<>();

    Mailbox(Blocking blocking) { this.blocking = blocking; }

    void put(Key key, DenseTensor data) {
        Slot s = slot(key);
        synchronized (s) {
            s.data = data;
            s.notifyAll();
        }
    }

    DenseTensor take(Key key, Blockage what) {
        Slot s = slot(key);
        blocking.await(s, () -> s.data != null, what);
        synchronized (s) {
            DenseTensor data = s.data;
            s.taken = true;
            s.notifyAll();
            leave(key, s);
            return data;
        }
    }

    void awaitTaken(Key key, Blockage what) {
        Slot s = slot(key);
        blocking.await(s, () -> s.taken, what);
        synchronized (s) {
            leave(key, s);
        }
    }

    private Slot slot(Key key) { return slots.computeIfAbsent(key, k -> new Slot()); }

    /** The slot goes once both its receiver and its sender are done with it. */
    private void leave(Key key, Slot s) {
        if (++s.parties == 2) slots.remove(key);
    }
}
