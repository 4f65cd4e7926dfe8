package org.hostir.studio.exec.sim;

import java.util.Arrays;

/**
 * Transfers one side has posted and the other not yet, by a packed key (sender, receiver, sequence): an open
 * addressing table of primitive keys with linear probing, so that a lookup allocates nothing (a record key and a
 * {@code HashMap} node per transfer were a tenth of an all-pairs simulation's CPU time and most of its garbage).
 * Entries are removed by shifting the probe chain back, so no tombstones accumulate over millions of transfers.
 */
final class TransferTable {
    private long[] keys = new long[16];
    private Transfer[] values = new Transfer[16];
    private int size;

    int size() { return size; }

    void clear() {
        Arrays.fill(values, null);
        size = 0;
    }

    /** The transfer under {@code key}, removed from the table, or null. */
    Transfer remove(long key) {
        int mask = values.length - 1;
        for (int i = slot(key, mask); values[i] != null; i = (i + 1) & mask) {
            if (keys[i] == key) {
                Transfer t = values[i];
                shiftBack(i, mask);
                size--;
                return t;
            }
        }
        return null;
    }

    /** Adds {@code t} under {@code key}, which the table does not hold. */
    void put(long key, Transfer t) {
        if (2 * (size + 1) > values.length) grow();
        int mask = values.length - 1;
        int i = slot(key, mask);
        while (values[i] != null) i = (i + 1) & mask;
        keys[i] = key;
        values[i] = t;
        size++;
    }

    /** Empties slot {@code hole}, moving back every later entry of its chain that may not sit past the hole. */
    private void shiftBack(int hole, int mask) {
        for (int i = (hole + 1) & mask; values[i] != null; i = (i + 1) & mask) {
            int home = slot(keys[i], mask);
            // the entry at i may fill the hole when its home is not in the cyclic range (hole, i]
            boolean stays = hole <= i ? hole < home && home <= i : hole < home || home <= i;
            if (stays) continue;
            keys[hole] = keys[i];
            values[hole] = values[i];
            hole = i;
        }
        values[hole] = null;
    }

    private void grow() {
        long[] oldKeys = keys;
        Transfer[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new Transfer[oldValues.length * 2];
        size = 0;
        for (int i = 0; i < oldValues.length; i++) if (oldValues[i] != null) put(oldKeys[i], oldValues[i]);
    }

    /** Small integers packed into a long collide in the low bits: a multiplier spreads them. */
    private static int slot(long key, int mask) { return (int) ((key * 0x9E3779B97F4A7C15L) >>> 33) & mask; }
}
