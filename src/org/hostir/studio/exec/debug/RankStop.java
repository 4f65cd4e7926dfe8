package org.hostir.studio.exec.debug;

import java.util.List;
import java.util.Optional;

import org.hostir.studio.exec.BlockedStream;
import org.hostir.studio.exec.ProgramPosition;

/**
 * One rank at a stop of a debugged run: its host's state, the node it is held before (with the loop nest and
 * iteration indices) and why, and what each of its blocked streams waits for.
 */
public record RankStop(int rank, RankState state, Optional<ProgramPosition> at, Optional<StopReason> reason,
                       List<BlockedStream> blocked) {
    public RankStop {
        blocked = List.copyOf(blocked);
    }
}
