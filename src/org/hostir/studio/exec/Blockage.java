package org.hostir.studio.exec;

import java.util.List;

import org.hostir.studio.ir.RankRanges;

/**
 * What a blocked stream (or host) of a backend waits for: a transfer's other side, the rest of a collective's
 * team, or another stream of its own rank. The Host IR node that posted it, and the loop iteration, where there is
 * one ({@code nodeId} -1 otherwise). {@link #text()} is the line of the {@code --timeout} report; a debugger reads
 * the fields.
 */
public sealed interface Blockage {
    int nodeId();

    int iteration();

    String text();

    /** Waits for {@code peer}'s send, the {@code tag}-th from that peer to this rank (NCCL's order per pair). */
    record Receive(int peer, long tag, long bytes, int nodeId, int iteration) implements Blockage {
        @Override
        public String text() { return "recv from " + peer + " (node " + nodeId + iterationText(iteration) + ")"; }
    }

    /** A send outside a group, waiting for {@code peer} to take it. */
    record Send(int peer, long tag, long bytes, int nodeId, int iteration) implements Blockage {
        @Override
        public String text() { return "send to " + peer + " (node " + nodeId + iterationText(iteration) + ")"; }
    }

    /** The {@code tag}-th collective of {@code team} (its communicator), named by its type. */
    record Collective(String name, List<Integer> team, long tag, long bytes, int nodeId, int iteration)
            implements Blockage {
        public Collective {
            team = List.copyOf(team);
        }

        @Override
        public String text() {
            return name + " (node " + nodeId + ", #" + tag + " on team " + RankRanges.team(team)
                    + iterationText(iteration) + ")";
        }
    }

    /** Another stream of the same rank: an event or a communication's work on it, or a synchronize of it. */
    record OwnStream(Kind kind, int stream) implements Blockage {
        public enum Kind { EVENT, WORK, SYNCHRONIZE }

        @Override
        public int nodeId() { return -1; }

        @Override
        public int iteration() { return -1; }

        @Override
        public String text() {
            return switch (kind) {
                case EVENT -> "waits for an event of stream " + stream;
                case WORK -> "waits for a communication on stream " + stream;
                case SYNCHRONIZE -> "synchronizes stream " + stream;
            };
        }
    }

    private static String iterationText(int iteration) {
        return iteration >= 0 ? ", iteration " + iteration : "";
    }
}
