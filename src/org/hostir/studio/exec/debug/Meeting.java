package org.hostir.studio.exec.debug;

import java.util.List;

import org.hostir.studio.exec.P2PSequence.Transfer;

/**
 * Something several ranks post together and that waits on a device until every one of them has posted its part:
 * a point-to-point transfer (its two sides) or the n-th collective exchange of a team (a collective, a MoE dispatch
 * or combine, whose transfers only the run knows). Named the same on every member, so that a member's post can be
 * matched with the others' before any of them posts ({@link Meetings}).
 */
sealed interface Meeting {
    /** The ranks other than {@code rank} that must post their part for this one to complete. */
    List<Integer> others(int rank);

    /** A point-to-point transfer, numbered as the backends match sends and receives ({@code P2PSequence}). */
    record Pair(Transfer transfer) implements Meeting {
        @Override
        public List<Integer> others(int rank) {
            int peer = transfer.from() == rank ? transfer.to() : transfer.from();
            return peer == rank ? List.of() : List.of(peer);
        }
    }

    /**
     * The {@code number}-th collective exchange of {@code team} (counted per team in issue order: a communicator
     * runs its collectives in the order every member posts them), {@code name} its node's kind.
     */
    record Team(List<Integer> team, long number, String name) implements Meeting {
        public Team {
            team = List.copyOf(team);
        }

        @Override
        public List<Integer> others(int rank) { return team.stream().filter(r -> r != rank).toList(); }
    }
}
