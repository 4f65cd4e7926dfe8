package org.hostir.studio.exec.debug;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.hostir.studio.exec.LoopFrame;
import org.hostir.studio.exec.P2PSequence;
import org.hostir.studio.exec.P2PSequence.Transfer;
import org.hostir.studio.exec.ProgramPosition;
import org.hostir.studio.exec.ScalarEnv;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CollectivePermute;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.EndCoalescing;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.MoeCombine;
import org.hostir.studio.ir.host.MoeDispatch;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.ShareMemHandles;
import org.hostir.studio.ir.host.StartCoalescing;

/**
 * The point-to-point transfers each node of one rank's program takes part in, found before the run by walking the
 * program as the {@code Evaluator} issues it (loops, branches, coalesced groups posted at their end, a
 * ShareMemHandles pair posted once both sides are reached, a CollectivePermute's send and receive) and numbering
 * them with {@link P2PSequence}, the rule the backends match sends and receives by. So a team-wide breakpoint knows
 * a transfer's other side before either rank reaches it. It also lists the {@link Meeting}s each node posts (where a
 * coalesced group or a ShareMemHandles pair is posted, at its last node), for the debugger on a backend that cannot
 * say when it is at rest ({@link Meetings}).
 * A MoE dispatch or combine posts as many transfers as its tokens route, known only at run time: it is one
 * {@link Meeting.Team} of its mesh here, and its transfers are left out of the numbering. The numbering stays
 * consistent across ranks (in a run that matches, a dispatch's sends from a to b are as many as b's receives from
 * a, so leaving both out keeps the pairs), so the transfers after it keep their other side, though their numbers
 * are not the backend's tags. A scalar the walk
 * cannot evaluate (a loop bound read from a tensor) ends the walk: the transfers after it have no known other side
 * and the plan is not {@link #complete()}. A walk and not a dry run of the Evaluator: that issues through a device
 * (buffers, views, kernels) and a MoE exchange reads its routing back from device values, so a dry run would need a
 * shape-only device and invented data that routes differently; a test holds the walk to the transfers the CPU
 * backend posts for every example instead ({@code TransferPlanMatchesTheRunTest}).
 */
public final class TransferPlan {
    /** A node in given iterations of its loops (outermost first): where a rank posts. */
    record Site(int nodeId, List<Long> iterations) {
        Site {
            iterations = List.copyOf(iterations);
        }

        static Site of(ProgramPosition at) {
            return new Site(at.node().id(), at.loops().stream().map(LoopFrame::index).toList());
        }

        /** The innermost loop's iteration, -1 outside every loop (as {@link ProgramPosition#iteration()}). */
        long iteration() { return iterations.isEmpty() ? -1 : iterations.getLast(); }
    }

    private record Pending(Site site, P2PCommunication.Type type, int peer) {}

    /** Thrown where the walk cannot know what the rank posts. */
    private static final class Unknown extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unknown() { super(null, null, false, false); }
    }

    private final Map<Site, List<Transfer>> bySite = new HashMap<>();
    private final Map<Site, List<Meeting>> postedAt = new HashMap<>();
    private final Map<Meeting, Site> meetingSite = new HashMap<>();
    private final Map<List<Integer>, Long> teamExchanges = new HashMap<>();
    private Site visiting;
    private boolean complete;
    private final Map<Transfer, Site> byTransfer = new HashMap<>();
    private final int rank;
    private final ScalarEnv env;
    private final P2PSequence sequence;
    private final Deque<Long> iterations = new ArrayDeque<>();
    private List<Pending> group;
    private Set<Integer> sharedIds;
    private List<Pending> shared;

    private TransferPlan(int rank, Map<String, Long> symbols, int streams) {
        this.rank = rank;
        this.env = new ScalarEnv(symbols, rank, streams);
        this.sequence = new P2PSequence(rank);
    }

    /** {@code rank}'s plan of {@code program} with the run's {@code symbols} and number of {@code streams}. */
    public static TransferPlan of(HostIrContainer program, int rank, Map<String, Long> symbols, int streams) {
        TransferPlan plan = new TransferPlan(rank, symbols, streams);
        try {
            plan.walk(program.topLevel());
            plan.complete = true;
        } catch (RuntimeException unknownFromHere) {
            // a scalar the walk cannot evaluate (the run reports that one itself): what the walk found before this
            // point stands, those transfers come first in every run
        }
        return plan;
    }

    /** The transfers the rank posts at {@code site} (none at a node that posts none). */
    List<Transfer> at(Site site) { return bySite.getOrDefault(site, List.of()); }

    /** Where the rank posts its side of {@code t}, if it is known to. */
    Optional<Site> siteOf(Transfer t) { return Optional.ofNullable(byTransfer.get(t)); }

    /** The meetings the rank posts while issuing the node at {@code site} (none at most nodes). */
    List<Meeting> postedAt(Site site) { return postedAt.getOrDefault(site, List.of()); }

    /** Where the rank posts its part of {@code m}, if it is known to. */
    Optional<Site> siteOf(Meeting m) { return Optional.ofNullable(meetingSite.get(m)); }

    /** Whether the walk reached the program's end: every meeting the rank posts is known. */
    public boolean complete() { return complete; }

    /** Every point-to-point transfer the rank posts (outside MoE exchanges), as the walk numbers them. */
    public Set<Transfer> transfers() { return Set.copyOf(byTransfer.keySet()); }

    /** Every site of node {@code nodeId} that posts transfers. */
    List<Site> sitesOf(int nodeId) { return bySite.keySet().stream().filter(s -> s.nodeId() == nodeId).toList(); }

    private void walk(List<HostNode> nodes) {
        for (HostNode node : nodes) visit(node);
    }

    private void visit(HostNode node) {
        Site site = new Site(node.id(), List.copyOf(iterations));
        visiting = site;
        if (node instanceof ForLoop f) {
            loop(f);
        } else if (node instanceof IfThenElse i) {
            walk(env.eval(i.predicate()) != 0 ? i.thenBody() : i.elseBody());
        } else if (node instanceof P2PCommunication p) {
            p2p(new Pending(site, p.type(), (int) env.eval(p.peer())), p.id());
        } else if (node instanceof StartCoalescing) {
            group = new ArrayList<>();
        } else if (node instanceof EndCoalescing && group != null) {
            group.forEach(this::post);
            group = null;
        } else if (node instanceof ShareMemHandles s) {
            sharedIds = Set.copyOf(s.communications().stream().map(P2PCommunication::id).toList());
            shared = new ArrayList<>();
        } else if (node instanceof CollectivePermute c) {
            permute(site, c);
        } else if (node instanceof Communication c) {
            if (c.team().contains(rank)) exchange(c.team(), c.type().dumpName());
        } else if (node instanceof MoeDispatch d) {
            moe(d.in(), "MoeDispatch");
        } else if (node instanceof MoeCombine c) {
            moe(c.in(), "MoeCombine");
        }
    }

    private void loop(ForLoop f) {
        long start = env.eval(f.start());
        long stop = env.eval(f.stop());
        for (long i = start; i < stop; i++) {
            env.bind(f.index(), i);
            iterations.addLast(i);
            walk(f.body());
            iterations.removeLast();
        }
        env.unbind(f.index());
    }

    /** As the evaluator: into the open group, else into the open ShareMemHandles pair, else posted at once. */
    private void p2p(Pending call, int id) {
        if (group != null) {
            group.add(call);
        } else if (shared != null && sharedIds.contains(id)) {
            shared.add(call);
            if (shared.size() == sharedIds.size()) {
                shared.forEach(this::post);
                shared = null;
            }
        } else {
            post(call);
        }
    }

    /** As the evaluator's postCollectivePermute: nothing outside the team, a local copy when both peers are self. */
    private void permute(Site site, CollectivePermute c) {
        if (!c.team().contains(rank)) return;
        int send = c.team().get((int) env.eval(c.sendPeer()));
        int recv = c.team().get((int) env.eval(c.recvPeer()));
        if (send == rank && recv == rank) return;
        post(new Pending(site, P2PCommunication.Type.SEND, send));
        post(new Pending(site, P2PCommunication.Type.RECV, recv));
    }

    private void post(Pending call) {
        Transfer t = sequence.next(call.type(), call.peer());
        bySite.computeIfAbsent(call.site(), s -> new ArrayList<>()).add(t);
        byTransfer.put(t, call.site());
        meet(new Meeting.Pair(t));
    }

    /** As the evaluator's MoE exchanges: over the input's mesh, nothing on a rank outside it. */
    private void moe(TensorView in, String name) {
        if (in.mesh() == null) throw new Unknown(); // the run refuses it there
        if (in.mesh().deviceIds().contains(rank)) exchange(in.mesh().deviceIds(), name);
    }

    /** {@code name}: as the backends name the exchange (a collective by its type's dump name). */
    private void exchange(List<Integer> team, String name) {
        long n = teamExchanges.merge(List.copyOf(team), 1L, Long::sum) - 1;
        meet(new Meeting.Team(team, n, name));
    }

    /** Posted while the walk visits the current node (a coalesced group's at its end). */
    private void meet(Meeting m) {
        postedAt.computeIfAbsent(visiting, s -> new ArrayList<>()).add(m);
        meetingSite.put(m, visiting);
    }
}
