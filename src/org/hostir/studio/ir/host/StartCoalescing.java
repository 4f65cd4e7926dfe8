package org.hostir.studio.ir.host;

/** Opens a group of point-to-point operations posted together (an NCCL group). */
public record StartCoalescing(int id) implements HostNode {}
