package org.hostir.studio.exec;

import java.util.List;

/**
 * A stream of {@code rank} that cannot go on: what it waits for, and the ranks it waits for (a transfer's peer, the
 * members of a collective's team that have not arrived; none when it waits for a stream of its own rank).
 */
public record BlockedStream(int rank, int stream, Blockage on, List<Integer> waitsFor) {
    public BlockedStream {
        waitsFor = List.copyOf(waitsFor);
    }
}
