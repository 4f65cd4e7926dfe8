package org.hostir.studio.ir.host;

/** Closes the coalesced group; its id names the group's work for a later {@link Wait}. */
public record EndCoalescing(int id) implements HostNode {}
