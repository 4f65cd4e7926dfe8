package org.hostir.studio.ir.host;

/** The current stream waits for a Communication or a coalesced group, named by that node's id. */
public record Wait(int id, int communicationId) implements HostNode {}
