package org.hostir.studio.trace.analysis;

/**
 * One send or receive posted inside a coalesced group: the group's EndCoalescing {@code endId}, the posting
 * P2PCommunication {@code nodeId}, its direction and its peer (-1 where the program computes it, as from a loop
 * index). A bar of a trace recorded before the Studio named the posting node (the EndCoalescing's id) is work of
 * this node; {@link ProgramNode#postedBy} tells which.
 */
public record CoalescedSide(int endId, int nodeId, boolean send, int peer) {
}
