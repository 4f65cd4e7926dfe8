package org.hostir.studio.exec.sim;

import org.hostir.studio.exec.Buffer;
import org.hostir.studio.ir.DataType;

/**
 * A tensor of the simulation: its shape and type only; no data is held. A view owns no memory. The element count
 * is kept, since the cost models ask for it millions of times at scale.
 */
final class SimBuffer implements Buffer {
    private final long[] shape;
    private final DataType dtype;
    private final boolean view;
    private final long numel;

    SimBuffer(long[] shape, DataType dtype, boolean view) {
        this.shape = shape.clone();
        this.dtype = dtype;
        this.view = view;
        long n = 1;
        for (long s : shape) n = Math.multiplyExact(n, s);
        this.numel = n;
    }

    @Override
    public long[] shape() { return shape.clone(); }

    @Override
    public DataType dtype() { return dtype; }

    @Override
    public long numel() { return numel; }

    boolean view() { return view; }

    /** The shape without a copy, for this package's shape arithmetic. */
    long[] dims() { return shape; }
}
