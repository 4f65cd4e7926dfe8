package org.hostir.studio.exec.debug;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.hostir.studio.exec.LoopFrame;
import org.hostir.studio.exec.ProgramPosition;
import org.hostir.studio.exec.ScalarEnv;
import org.hostir.studio.ir.host.CollectivePermute;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.P2PCommunication;

/**
 * The team of the communication a rank is about to issue, as its program states it: a collective's and a
 * CollectivePermute's {@code team} (a 2-D mesh's slice where the lowering cut one), a point-to-point transfer's two
 * sides (the rank and its peer, evaluated in the position's loop iterations as the evaluator evaluates it). Any
 * other node is no communication: no team.
 *
 * @param symbols  the run's symbol bindings
 * @param streams  the run's number of streams (a peer expression may use it)
 */
record CommunicationTeam(Map<String, Long> symbols, int streams) {
    CommunicationTeam {
        symbols = Map.copyOf(symbols);
    }

    Set<Integer> of(ProgramPosition at) {
        if (at.node() instanceof Communication c) return new TreeSet<>(c.team());
        if (at.node() instanceof CollectivePermute p) return new TreeSet<>(p.team());
        if (at.node() instanceof P2PCommunication p) {
            ScalarEnv env = new ScalarEnv(symbols, at.rank(), streams);
            for (LoopFrame f : at.loops()) env.bind(f.loop().index(), f.index());
            return new TreeSet<>(Set.of(at.rank(), (int) env.eval(p.peer())));
        }
        return Set.of();
    }
}
