package org.hostir.studio.exec;

import org.hostir.studio.ir.DataType;

/** A tensor in a device's memory (or a view of one), as a backend hands it out. */
public interface Buffer {

    long[] shape();

    DataType dtype();

    default long numel() {
        long n = 1;
        for (long s : shape()) n *= s;
        return n;
    }

    default long bytes() { return numel() * dtype().bytes(); }
}
