package org.hostir.studio.ir;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * The device ids {0 .. n-1}, the mesh of every "all" tensor, as a list that answers {@code contains}, {@code indexOf}
 * and {@code equals} (with another range) without reading n ids: at 16,384 simulated ranks, each rank's lowering
 * asks these of its meshes, and comparing every rank's program with its representative's compares them.
 */
final class DeviceRange extends AbstractList<Integer> implements RandomAccess {
    private final int size;
    private int hash;

    private DeviceRange(int size) { this.size = size; }

    /** {@code ids} as a range when it is {0 .. n-1} (n > 0), else {@code ids}. */
    static List<Integer> of(List<Integer> ids) {
        if (ids instanceof DeviceRange || ids.isEmpty()) return ids;
        for (int i = 0; i < ids.size(); i++) if (ids.get(i) != i) return ids;
        return new DeviceRange(ids.size());
    }

    @Override
    public Integer get(int index) {
        if (index < 0 || index >= size) throw new IndexOutOfBoundsException(index + " of " + size);
        return index;
    }

    @Override
    public int size() { return size; }

    @Override
    public boolean contains(Object o) { return o instanceof Integer i && i >= 0 && i < size; }

    @Override
    public int indexOf(Object o) { return contains(o) ? (Integer) o : -1; }

    @Override
    public int lastIndexOf(Object o) { return indexOf(o); }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeviceRange r ? r.size == size : super.equals(o);
    }

    @Override
    public int hashCode() {
        if (hash == 0) hash = super.hashCode();
        return hash;
    }
}
