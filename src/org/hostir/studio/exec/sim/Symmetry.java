package org.hostir.studio.exec.sim;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

import org.hostir.studio.exec.OpInfo;

/**
 * Ranks simulated once for many (docs/simulation.md, "Scale"). The simulation is unchanged by renaming every rank
 * r as r + s (mod D) when the cost models are: they see ranks only through which node a rank sits on (rank /
 * gpusPerNode), so a shift by a multiple of {@code period} (gpusPerNode when it divides D, 1 when one node holds
 * every rank) keeps every link the same. If, besides, every rank r's work is rank r mod period's work with every
 * rank it names shifted by the same multiple (checked op by op: the {@link Mirror}), every rank of a class starts
 * and ends each op at the same times as its representative, and only ranks 0 .. period-1 need simulating.
 * Collectives must then be posted to teams the shift maps onto themselves (or to one rank): one representative's
 * part stands for every team member of its class.
 */
final class Symmetry {
    /** Why the shortcut does not hold for this run: the caller simulates every rank instead. */
    static final class Broken extends RuntimeException {
        Broken(String why) { super(why, null, false, false); }
    }

    private Symmetry() {}

    /** The shift that leaves the profile's links unchanged on {@code ranks} GPUs, or {@code ranks} when none does. */
    static int period(HardwareProfile profile, int ranks) {
        if (ranks <= profile.gpusPerNode()) return 1;
        return ranks % profile.gpusPerNode() == 0 ? profile.gpusPerNode() : ranks;
    }

    /** How many representatives post a collective of {@code team}, or -1 when the shift does not map it onto itself. */
    static int representatives(List<Integer> team, int period, int ranks) {
        if (team.size() == 1) return 1;
        BitSet members = new BitSet(ranks);
        for (int r : team) members.set(r);
        BitSet classes = new BitSet(period);
        for (int r : team) {
            if (!members.get((r + period) % ranks)) return -1;
            classes.set(r % period);
        }
        return classes.cardinality();
    }

    /**
     * The check of one rank against its representative, as the rank's program is walked: each op it issues must be
     * the representative's op of the same position with every rank it names shifted by {@code shift}, and follow
     * the same earlier ops, issued at the same host time. The rank's own ops are not kept.
     */
    static final class Mirror {
        private final int rank;
        private final int shift;
        private final int ranks;
        private final List<SimOp> reference;

        Mirror(int rank, int shift, int ranks, List<SimOp> reference) {
            this.rank = rank;
            this.shift = shift;
            this.ranks = ranks;
            this.reference = reference;
        }

        /** The representative's op at {@code op}'s position, after checking everything but its communication. */
        SimOp check(SimOp op, int[] deps) {
            if (op.seq >= reference.size()) throw differs(op.seq, "issues more work");
            SimOp r = reference.get(op.seq);
            OpInfo a = op.info, b = r.info;
            if (op.role() != r.role() || op.stream != r.stream || op.baseUs != r.baseUs || a.nodeId() != b.nodeId()
                    || a.iteration() != b.iteration() || a.kind() != b.kind() || a.bytes() != b.bytes()
                    || a.flops() != b.flops() || !Arrays.equals(deps, r.deps())) {
                throw differs(op.seq, a.name() + " vs " + b.name());
            }
            return r;
        }

        void collective(SimOp op, List<Integer> team, CollectiveMatch.Part part) {
            SimOp r = reference.get(op.seq);
            CollectiveMatch.Part p = r.collective() == null ? null : r.collective().parts.get(r.rank);
            if (p == null || !team.equals(r.collective().team) || p.type() != part.type() || p.bytes() != part.bytes()
                    || (p.root() < 0 ? part.root() >= 0 : part.root() != shifted(p.root()))) {
                throw differs(op.seq, "collective of team " + team);
            }
        }

        /** The {@code i}-th transfer of a coalesced group: a send (or receive) with {@code peer}, k-th of the pair. */
        void transfer(SimOp op, int i, boolean send, int peer, long sequence, long bytes) {
            SimOp r = reference.get(op.seq);
            Transfer x = r.transfers == null || i >= r.transfers.length ? null : r.transfers[i];
            boolean repSends = x != null && r.sends(i);
            if (x == null || repSends != send || x.sequence != sequence
                    || shifted(x.peerOf(r.rank, repSends, ranks)) != peer
                    || (send ? x.sendBytes : x.recvBytes) != bytes) {
                throw differs(op.seq, (send ? "send to " : "receive from ") + peer);
            }
        }

        /** At the end of the rank's program: as much work, and the host done at the same time. */
        void finish(int ops, double hostUs, double referenceHostUs) {
            if (ops != reference.size() || hostUs != referenceHostUs) {
                throw new Broken("rank " + rank + " issues " + ops + " ops and its host ends at " + hostUs
                        + " us, rank " + (rank - shift) + " " + reference.size() + " ops at " + referenceHostUs + " us");
            }
        }

        void issued(SimOp op) {
            if (op.issueUs != reference.get(op.seq).issueUs) throw differs(op.seq, "issued at another host time");
        }

        private int shifted(int r) { return (r + shift) % ranks; }

        private Broken differs(int seq, String what) {
            return new Broken("rank " + rank + "'s op " + seq + " is not rank " + (rank - shift) + "'s shifted by "
                    + shift + " (" + what + ")");
        }
    }
}
