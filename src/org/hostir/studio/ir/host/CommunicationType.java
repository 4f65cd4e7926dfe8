package org.hostir.studio.ir.host;

/**
 * The collectives a resharding expression lowers to, each with its properties declared here once (every
 * constructor argument is required, so a new type cannot leave one out): the dump parser, the run-time call and
 * the backends' shared paths ask the type rather than listing types.
 */
public enum CommunicationType {
    //      dump name        rooted reduces team order 2-D mesh slice
    GATHER("Gather", true, false, true, false),
    ALLGATHER("Allgather", false, false, true, true),
    SCATTER("Scatter", true, false, true, false),
    REDUCE("Reduce", true, true, false, false),
    ALLREDUCE("Allreduce", false, true, false, true),
    REDUCE_SCATTER("ReduceScatter", false, true, true, true),
    BROADCAST("Broadcast", true, false, false, false),
    SEND_RECV("SendRecv", true, false, false, false),
    /** Moves the sharding from one axis to another on one mesh (nvFuser's lowerToAllToAll). */
    ALL_TO_ALL("AllToAll", false, false, true, false);

    private final String dumpName;
    private final boolean hasRoot;
    private final boolean reduces;
    private final boolean teamOrder;
    private final boolean meshSlice;

    CommunicationType(String dumpName, boolean hasRoot, boolean reduces, boolean teamOrder, boolean meshSlice) {
        this.dumpName = dumpName;
        this.hasRoot = hasRoot;
        this.reduces = reduces;
        this.teamOrder = teamOrder;
        this.meshSlice = meshSlice;
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

    /**
     * Whether nvFuser lowers it on a 2-D mesh, within each slice of the mesh (Allgather, Allreduce,
     * ReduceScatter); the others it lowers on 1-D meshes only.
     */
    public boolean lowersWithinMeshSlice() { return meshSlice; }

    /** A reduction whose result every member receives, whole or its chunk (Allreduce, ReduceScatter). */
    public boolean reducesToEveryMember() { return reduces && !hasRoot; }
}
