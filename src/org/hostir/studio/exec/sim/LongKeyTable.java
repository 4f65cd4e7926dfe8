package org.hostir.studio.exec.sim;

import java.util.Arrays;

/**
 * Values by a {@code long} key (the simulation's transfers one side has posted and the other not yet, by sender,
 * receiver and sequence packed): open addressing with linear probing, so that a lookup allocates nothing (a record
 * key and a {@code HashMap} node per transfer were a tenth of an all-pairs simulation's CPU time at 1,024 ranks).
 * Entries are removed by shifting the probe chain back, so no tombstones accumulate over millions of transfers.
 */
public final class LongKeyTable<T> {
    private long[] keys = new long[16];
    private Object[] values = new Object[16];
    private int size;

    public int size() { return size; }

    public void clear() {
        Arrays.fill(values, null);
        size = 0;
    }

    /** The value under {@code key}, removed from the table, or null. */
    @SuppressWarnings("unchecked")
    public T remove(long key) {
        int mask = values.length - 1;
        for (int i = slot(key, mask); values[i] != null; i = (i + 1) & mask) {
            if (keys[i] == key) {
                T t = (T) values[i];
                shiftBack(i, mask);
                size--;
                return t;
            }
        }
        return null;
    }

    /** Adds {@code t} (not null) under {@code key}, which the table does not hold. */
    public void put(long key, T t) {
        java.util.Objects.requireNonNull(t);
        if (2 * (size + 1) > values.length) grow();
        insert(key, t);
    }

    private void insert(long key, Object t) {
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
        Object[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new Object[oldValues.length * 2];
        size = 0;
        for (int i = 0; i < oldValues.length; i++) if (oldValues[i] != null) insert(oldKeys[i], oldValues[i]);
    }

    /** Small integers packed into a long collide in the low bits: a multiplier spreads them. */
    private static int slot(long key, int mask) { return (int) ((key * 0x9E3779B97F4A7C15L) >>> 33) & mask; }
}
