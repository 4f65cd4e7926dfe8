package org.hostir.studio.ir;

/**
 * How an axis is executed: serially, sharded across devices (DIDx, DIDy) or pipelined across CUDA streams.
 * The dump name is what nvFuser prints between the iter type letter and the id ({@code ideviceIdx.x1}).
 */
public enum ParallelType {
    SERIAL("Serial", "S"),
    DIDX("DIDx", "deviceIdx.x"),
    DIDY("DIDy", "deviceIdx.y"),
    STREAM("Stream", "StreamIdx");

    private final String fileName;
    private final String dumpName;

    ParallelType(String fileName, String dumpName) {
        this.fileName = fileName;
        this.dumpName = dumpName;
    }

    public String fileName() { return fileName; }

    public String dumpName() { return dumpName; }

    public boolean isDeviceDim() { return this == DIDX || this == DIDY; }

    public static ParallelType fromFileName(String name) {
        for (ParallelType t : values()) {
            if (t.fileName.equals(name)) return t;
        }
        throw new IllegalArgumentException("unknown parallel type '" + name + "'");
    }
}
