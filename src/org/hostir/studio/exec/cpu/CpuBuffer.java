package org.hostir.studio.exec.cpu;

import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.DataType;

/** A CPU device's tensor: a dense tensor (or a view of one) in this process's memory. */
record CpuBuffer(DenseTensor tensor, boolean view) implements Buffer {
    @Override
    public long[] shape() { return tensor.shape(); }

    @Override
    public DataType dtype() { return tensor.dtype(); }

    static DenseTensor of(Buffer b) {
        if (!(b instanceof CpuBuffer cpu)) throw new IllegalArgumentException("not a CPU buffer: " + b);
        return cpu.tensor();
    }
}
