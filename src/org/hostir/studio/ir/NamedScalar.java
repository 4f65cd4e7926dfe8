package org.hostir.studio.ir;

/** A scalar the evaluator binds: a loop index, {@code numberOfStreams}, this rank's DIDx index or device id. */
public record NamedScalar(String name) implements Scalar {
    public static final NamedScalar STREAM_IDX = new NamedScalar("StreamIdx");
    public static final NamedScalar NUMBER_OF_STREAMS = new NamedScalar("numberOfStreams");
    /**
     * This rank's DIDx index, {@code deviceIdx.x}: its position in the mesh of the sharded tensor. The lowering
     * writes it only for meshes {0 .. n-1}, where the position is the device id, and the evaluator binds it so;
     * on any other mesh it writes {@code DeviceMesh{..}.idxOf(rank)} ({@link MeshLookup}).
     */
    public static final NamedScalar RANK = new NamedScalar("deviceIdx.x");
    /** This rank's device id, nvFuser's {@code rank} (its host IR evaluator binds it to the device id). */
    public static final NamedScalar DEVICE_ID = new NamedScalar("rank");

    public NamedScalar {
        if (name == null || name.isEmpty()) throw new IllegalArgumentException("named scalar needs a name");
    }
}
