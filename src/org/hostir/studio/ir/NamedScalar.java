package org.hostir.studio.ir;

/** A scalar the evaluator binds: a loop index, {@code numberOfStreams}, or this rank's device index. */
public record NamedScalar(String name) implements Scalar {
    public static final NamedScalar STREAM_IDX = new NamedScalar("StreamIdx");
    public static final NamedScalar NUMBER_OF_STREAMS = new NamedScalar("numberOfStreams");
    /** This rank's device id; nvFuser prints it as {@code deviceIdx.x}. */
    public static final NamedScalar RANK = new NamedScalar("deviceIdx.x");

    public NamedScalar {
        if (name == null || name.isEmpty()) throw new IllegalArgumentException("named scalar needs a name");
    }
}
