package org.hostir.studio.exec.debug;

import java.util.OptionalInt;
import java.util.OptionalLong;

import org.hostir.studio.exec.ProgramPosition;

/**
 * A breakpoint on a Host IR node, by its id in the rank's final program (the id the Lowering view, the dump and
 * the timeline name it by), on every rank or one, in every iteration of its innermost loop or one.
 */
public record Breakpoint(int nodeId, OptionalInt rank, OptionalLong iteration) {
    public Breakpoint {
        if (nodeId < 0) throw new IllegalArgumentException("node id " + nodeId);
    }

    /** On every rank, in every iteration. */
    public static Breakpoint at(int nodeId) { return new Breakpoint(nodeId, OptionalInt.empty(), OptionalLong.empty()); }

    public Breakpoint onRank(int r) { return new Breakpoint(nodeId, OptionalInt.of(r), iteration); }

    public Breakpoint inIteration(long i) { return new Breakpoint(nodeId, rank, OptionalLong.of(i)); }

    public boolean matches(ProgramPosition at) {
        return at.node().id() == nodeId && (rank.isEmpty() || rank.getAsInt() == at.rank())
                && (iteration.isEmpty() || iteration.getAsLong() == at.iteration());
    }

    /** {@code 12}, {@code 12@1}, {@code 12@1:3}, {@code 12:3}: the node, then the rank, then the loop index. */
    @Override
    public String toString() {
        return nodeId + (rank.isPresent() ? "@" + rank.getAsInt() : "")
                + (iteration.isPresent() ? ":" + iteration.getAsLong() : "");
    }
}
