package org.hostir.studio.exec.sim;

import org.hostir.studio.exec.Buffer;
import org.hostir.studio.ir.DataType;

/** A tensor of the simulation: its shape and type only; no data is held. A view owns no memory. */
record SimBuffer(long[] shape, DataType dtype, boolean view) implements Buffer {
    SimBuffer {
        shape = shape.clone();
    }

    @Override
    public long[] shape() { return shape.clone(); }
}
