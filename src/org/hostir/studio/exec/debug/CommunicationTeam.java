package org.hostir.studio.exec.debug;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;

import org.hostir.studio.exec.P2PSequence.Transfer;
import org.hostir.studio.exec.ProgramPosition;
import org.hostir.studio.ir.host.CollectivePermute;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.P2PCommunication;

/**
 * Who else a team-wide breakpoint holds ({@link Breakpoint#team()}): at a collective's or a CollectivePermute's node,
 * the members of the {@code team} the program states there (a 2-D mesh's slice where the lowering cut one), in the
 * same iteration; at a point-to-point transfer, the peer at its side of the same transfer, wherever its program
 * posts it (another node, another iteration: a ring's send and receive, ranks whose programs differ), matched as
 * the backends match sends and receives ({@link TransferPlan}, numbered by {@code P2PSequence}).
 Each rank's plan and each breakpoint's other sides are worked out once, when first asked.
 */
final class CommunicationTeam implements BiPredicate<Breakpoint, ProgramPosition> {
    /** A rank held at a site of its program. */
    private record Held(int rank, TransferPlan.Site site) {}

    private final Map<Integer, HostIrContainer> programs;
    private final Map<String, Long> symbols;
    private final int streams;
    private final Map<Integer, TransferPlan> plans = new ConcurrentHashMap<>();
    private final Map<Breakpoint, Set<Held>> otherSides = new ConcurrentHashMap<>();

    /** {@code programs}: every rank's; {@code symbols}, {@code streams}: the run's (a peer expression may use them). */
    CommunicationTeam(Map<Integer, HostIrContainer> programs, Map<String, Long> symbols, int streams) {
        this.programs = Map.copyOf(programs);
        this.symbols = Map.copyOf(symbols);
        this.streams = streams;
    }

    /** Whether team-wide {@code b} holds the rank at {@code at}, which it does not name. */
    @Override
    public boolean test(Breakpoint b, ProgramPosition at) {
        if (at.node().id() == b.nodeId() && b.inIterationOf(at) && b.rank().isPresent()
                && teamAt(at).contains(b.rank().getAsInt())) {
            return true;
        }
        if (!(at.node() instanceof P2PCommunication || at.node() instanceof CollectivePermute)) return false;
        return otherSides.computeIfAbsent(b, this::otherSidesOf).contains(new Held(at.rank(), TransferPlan.Site.of(at)));
    }

    private static List<Integer> teamAt(ProgramPosition at) {
        if (at.node() instanceof Communication c) return c.team();
        if (at.node() instanceof CollectivePermute p) return p.team();
        return List.of();
    }

    /** The sites where the peers post their sides of the transfers {@code b}'s node posts on the ranks it names. */
    private Set<Held> otherSidesOf(Breakpoint b) {
        Set<Held> out = new HashSet<>();
        List<Integer> named = b.rank().isPresent() ? List.of(b.rank().getAsInt()) : List.copyOf(programs.keySet());
        for (int r : named) {
            if (!programs.containsKey(r)) continue;
            for (TransferPlan.Site site : plan(r).sitesOf(b.nodeId())) {
                if (b.iteration().isPresent() && b.iteration().getAsLong() != site.iteration()) continue;
                for (Transfer t : plan(r).at(site)) {
                    int peer = t.from() == r ? t.to() : t.from();
                    if (programs.containsKey(peer)) plan(peer).siteOf(t).ifPresent(s -> out.add(new Held(peer, s)));
                }
            }
        }
        return out;
    }

    private TransferPlan plan(int rank) {
        return plans.computeIfAbsent(rank, r -> TransferPlan.of(programs.get(r), r, symbols, streams));
    }
}
