package org.hostir.studio.ir.host;

/** The collectives a resharding expression lowers to. */
public enum CommunicationType {
    GATHER("Gather", true),
    ALLGATHER("Allgather", false),
    SCATTER("Scatter", true),
    REDUCE("Reduce", true),
    ALLREDUCE("Allreduce", false),
    REDUCE_SCATTER("ReduceScatter", false),
    BROADCAST("Broadcast", true),
    SEND_RECV("SendRecv", true),
    /** Moves the sharding from one axis to another on one mesh (nvFuser's lowerToAllToAll). */
    ALL_TO_ALL("AllToAll", false);

    private final String dumpName;
    private final boolean hasRoot;

    CommunicationType(String dumpName, boolean hasRoot) {
        this.dumpName = dumpName;
        this.hasRoot = hasRoot;
    }

    public String dumpName() { return dumpName; }

    /** Whether the dump prints {@code root=}: Gather, Scatter, Reduce, Broadcast and SendRecv have one. */
    public boolean hasRoot() { return hasRoot; }
}
