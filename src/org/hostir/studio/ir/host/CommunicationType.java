package org.hostir.studio.ir.host;

/**
 * The collectives a resharding expression lowers to, each with its properties declared here once (every
 * constructor argument is required, so a new type cannot leave one out): the dump parser, the run-time call and
 * the backends' shared paths ask the type rather than listing types.
 */
public enum CommunicationType {
    //               dump name        rooted reduces team order
    GATHER("Gather", true, false, true),
    ALLGATHER("Allgather", false, false, true),
    SCATTER("Scatter", true, false, true),
    REDUCE("Reduce", true, true, false),
    ALLREDUCE("Allreduce", false, true, false),
    REDUCE_SCATTER("ReduceScatter", false, true, true),
    BROADCAST("Broadcast", true, false, false),
    SEND_RECV("SendRecv", true, false, false),
    /** Moves the sharding from one axis to another on one mesh (nvFuser's lowerToAllToAll). */
    ALL_TO_ALL("AllToAll", false, false, true);

    private final String dumpName;
    private final boolean hasRoot;
    private final boolean reduces;
    private final boolean teamOrder;

    CommunicationType(String dumpName, boolean hasRoot, boolean reduces, boolean teamOrder) {
        this.dumpName = dumpName;
        this.hasRoot = hasRoot;
        this.reduces = reduces;
        this.teamOrder = teamOrder;
    }

    public String dumpName() { return dumpName; }

    /** Whether the dump prints {@code root=}: Gather, Scatter, Reduce, Broadcast and SendRecv have one. */
    public boolean hasRoot() { return hasRoot; }

    /**
     * Whether it combines the members' buffers with a reduction (Reduce, Allreduce, ReduceScatter); nvFuser's dump
     * does not print the reduction, so the dump reader gives these a sum.
     */
    public boolean reduces() { return reduces; }

    /**
     * Whether buffers are cut into or joined from one chunk per team member in team order (chunk j belongs to
     * member j: Gather, Allgather, Scatter, ReduceScatter, AllToAll), rather than every member's buffer being the
     * whole tensor.
     */
    public boolean needsTeamOrder() { return teamOrder; }

    /** A reduction whose result every member receives, whole or its chunk (Allreduce, ReduceScatter). */
    public boolean reducesToEveryMember() { return reduces && !hasRoot; }
}
