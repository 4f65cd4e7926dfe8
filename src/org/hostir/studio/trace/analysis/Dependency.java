package org.hostir.studio.trace.analysis;

/**
 * An edge of a {@link DependencyGraph}: point {@code to} could not happen before point {@code from}. Points are
 * the graph's vertex numbers; a record, so the same edge added twice is kept once.
 */
public record Dependency(int from, int to, DependencyKind kind) {
}
