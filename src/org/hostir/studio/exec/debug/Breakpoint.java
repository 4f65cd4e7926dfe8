package org.hostir.studio.exec.debug;

import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.BiPredicate;

import org.hostir.studio.exec.ProgramPosition;

/**
 * A breakpoint on a Host IR node, by its id in the rank's final program (the id the Lowering view, the dump and
 * the timeline name it by), on every rank or one, in every iteration of its innermost loop or one. {@code team}:
 * on a communication, the whole team stops with the rank it names: a member of a collective's team (as that rank's
 * program states it) holds at the node too, in the same iteration; a point-to-point transfer's peer holds at its
 * side of the same transfer, whichever node and iteration posts it ({@link CommunicationTeam}).
 */
public record Breakpoint(int nodeId, OptionalInt rank, OptionalLong iteration, boolean team) {
    public Breakpoint {
        if (nodeId < 0) throw new IllegalArgumentException("node id " + nodeId);
    }

    /** Holds only the rank (or ranks) it names. */
    public Breakpoint(int nodeId, OptionalInt rank, OptionalLong iteration) { this(nodeId, rank, iteration, false); }

    /** On every rank, in every iteration. */
    public static Breakpoint at(int nodeId) { return new Breakpoint(nodeId, OptionalInt.empty(), OptionalLong.empty()); }

    public Breakpoint onRank(int r) { return new Breakpoint(nodeId, OptionalInt.of(r), iteration, team); }

    public Breakpoint inIteration(long i) { return new Breakpoint(nodeId, rank, OptionalLong.of(i), team); }

    /** The same breakpoint stopping the whole team of its communication. */
    public Breakpoint wholeTeam() { return new Breakpoint(nodeId, rank, iteration, true); }

    /** Whether it holds the rank at {@code at}, not asking for teams (as if {@code team} were off). */
    public boolean matches(ProgramPosition at) { return matches(at, (b, p) -> false); }

    /**
     * Whether it holds the rank at {@code at}: the node, rank and iteration it names, or, team-wide, a position
     * {@code member} says is a member's side of its communication (asked only then).
     */
    public boolean matches(ProgramPosition at, BiPredicate<Breakpoint, ProgramPosition> member) {
        if (at.node().id() == nodeId && inIterationOf(at) && (rank.isEmpty() || rank.getAsInt() == at.rank())) {
            return true;
        }
        return team && member.test(this, at);
    }

    /** Whether {@code at} is in the iteration it names (any, when it names none). */
    public boolean inIterationOf(ProgramPosition at) {
        return iteration.isEmpty() || iteration.getAsLong() == at.iteration();
    }

    /**
     * {@code 12}, {@code 12@1}, {@code 12@1:3}, {@code 12:3}: the node, then the rank, then the loop index;
     * {@code +team} after them for a team-wide one.
     */
    @Override
    public String toString() {
        return nodeId + (rank.isPresent() ? "@" + rank.getAsInt() : "")
                + (iteration.isPresent() ? ":" + iteration.getAsLong() : "") + (team ? TEAM_SUFFIX : "");
    }

    /** How {@code hirstudio debug --break} and {@link #toString()} spell a team-wide breakpoint. */
    public static final String TEAM_SUFFIX = "+team";
}
