package org.hostir.studio.exec.sim;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.hostir.studio.ir.host.CommunicationType;

/**
 * The ranks' parts of one collective, matched as NCCL (and the CPU backend's rendezvous) match them: by team and
 * by position in the order that team's collectives were posted on each rank. All parts must agree on the type and
 * root; the data moves once the last part is ready.
 */
final class CollectiveMatch {
    record Part(SimOp op, CommunicationType type, int root, long bytes) {}

    final List<Integer> team;
    final long sequence;
    /** The parts that complete it: the team's size, or its representatives' count under a {@link Symmetry}. */
    final int expected;
    final Map<Integer, Part> parts = new TreeMap<>();
    int arrived;

    CollectiveMatch(List<Integer> team, long sequence, int expected) {
        this.team = team;
        this.sequence = sequence;
        this.expected = expected;
    }

    /** Null when the parts agree, else why not, phrased as the CPU backend phrases it. */
    String disagreement() {
        Part any = parts.values().iterator().next();
        for (Part p : parts.values()) {
            if (p.type() != any.type() || p.root() != any.root()) {
                StringBuilder sb = new StringBuilder("collective #" + sequence + " of team " + team + ": ranks"
                        + " disagree: ");
                parts.forEach((rank, q) -> sb.append("rank ").append(rank).append(" posted ")
                        .append(q.type().dumpName()).append(q.root() >= 0 ? " (root " + q.root() + ")" : "")
                        .append(", "));
                return sb.substring(0, sb.length() - 2);
            }
        }
        return null;
    }

    long bytes() { return parts.values().stream().mapToLong(Part::bytes).max().orElse(0); }

    CommunicationType type() { return parts.values().iterator().next().type(); }
}
