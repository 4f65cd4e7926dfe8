package org.hostir.studio.exec.sim;

import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.ScalarEnv;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.MeshLookup;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.ScalarBinary;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Allocate;
import org.hostir.studio.ir.host.CollectivePermute;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.Deallocate;
import org.hostir.studio.ir.host.EndCoalescing;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.GetCurrentStream;
import org.hostir.studio.ir.host.HirAliasSelect;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.LaunchKernel;
import org.hostir.studio.ir.host.MoeCombine;
import org.hostir.studio.ir.host.MoeDispatch;
import org.hostir.studio.ir.host.OpaqueNode;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.PostOnStream;
import org.hostir.studio.ir.host.SetCurrentStream;
import org.hostir.studio.ir.host.ShardByStream;
import org.hostir.studio.ir.host.ShareMemHandles;
import org.hostir.studio.ir.host.StartCoalescing;
import org.hostir.studio.ir.host.Stream;
import org.hostir.studio.ir.host.SymmetricContiguousView;
import org.hostir.studio.ir.host.Synchronize;
import org.hostir.studio.ir.host.Wait;

/**
 * A proof, read off one program without running it, that the {@code exec.Evaluator} walks it on rank r + s
 * exactly as on rank r with every rank it names shifted by s (mod D), for every shift s that is a multiple of the
 * period: then a rank whose program is its representative's need not be walked at all ({@link Symmetry}; the walk
 * of every rank's program was the check before, D walks of D iterations each for a P2P pipeline).
 * <p>
 * The evaluator sees the rank in two ways, both covered: through the scalar {@code deviceIdx.x} (classified below)
 * and through membership of the rank in a mesh or team (each must be mapped onto itself by the shift). A scalar is
 * <em>invariant</em> (no rank in it), <em>relative</em> ({@code (rank + g) mod D} with g invariant: the peers of the
 * P2P forms offset by rank, {@code ((deviceIdx.x + StreamIdx) % D)}), or <em>dependent</em> (anything else, such as
 * {@code StreamIdx == deviceIdx.x}, whose truth moves with the rank). Two relative values are equal for every rank
 * or for none ((r + a) mod D = (r + b) mod D iff a = b mod D), so their comparison is invariant. Control flow, loop
 * bounds, stream indices and sizes must be invariant; peers and roots relative; a select's index either, when every
 * value in 0 .. D-1 is inside its axis. What the proof does not know (a node kind it does not list, a mesh lookup
 * of the rank) is no proof: the caller then checks by walking, as before.
 */
final class RankShift {
    private enum Kind { INVARIANT, RELATIVE, UNREDUCED, DEPENDENT }

    private final int ranks;
    private final int period;
    /** Evaluates invariant scalars that need no loop index (a modulus, an axis size); the rank bound is unused. */
    private final ScalarEnv env;
    private final Map<Object, Boolean> closed = new IdentityHashMap<>();
    private int rangeLoops;
    private String why;

    private RankShift(int ranks, int period, Map<String, Long> symbols, int streams) {
        this.ranks = ranks;
        this.period = period;
        this.env = new ScalarEnv(symbols, 0, streams);
    }

    /** Null when {@code program} is proved shift-equivariant on {@code ranks} ranks for shifts by {@code period}, else why not. */
    static String whyNot(HostIrContainer program, int ranks, int period, Map<String, Long> symbols, int streams) {
        RankShift proof = new RankShift(ranks, period, symbols, streams);
        for (TensorView tv : program.inputs()) proof.tensor(tv);
        for (TensorView tv : program.outputs()) proof.tensor(tv);
        proof.nodes(program.topLevel());
        return proof.why;
    }

    private void nodes(List<HostNode> nodes) {
        for (HostNode n : nodes) {
            if (why != null) return;
            node(n);
        }
    }

    private void node(HostNode node) {
        switch (node) {
            case Allocate a -> tensor(a.buffer());
            case Deallocate d -> tensor(d.buffer());
            case ForLoop f -> loop(f);
            case IfThenElse i -> {
                invariant(i.predicate(), "the condition of IF " + i.id());
                nodes(i.thenBody());
                nodes(i.elseBody());
            }
            case GetCurrentStream g -> stream(g.stream());
            case SetCurrentStream s -> stream(s.stream());
            case Synchronize s -> stream(s.stream());
            case HirAliasSelect s -> select(s);
            case ShardByStream b -> {
                tensor(b.in());
                tensor(b.out());
                invariant(b.streamIndex(), "the index of ShardByStream " + b.id());
            }
            case Communication c -> communication(c);
            case CollectivePermute c -> permute(c);
            case P2PCommunication p -> {
                tensor(p.buffer());
                relative(p.peer(), "the peer of P2PCommunication " + p.id());
            }
            case ShareMemHandles s -> s.communications().forEach(this::node);
            case StartCoalescing _, EndCoalescing _, Wait _ -> { }
            case PostOnStream p -> {
                p.inputs().forEach(this::tensor);
                p.outputs().forEach(this::tensor);
            }
            case HostOp o -> {
                o.op().inputs().forEach(this::tensor);
                tensor(o.op().output());
            }
            case SymmetricContiguousView _, LaunchKernel _, MoeDispatch _, MoeCombine _, OpaqueNode _ ->
                    fail(node.getClass().getSimpleName() + " " + node.id() + " is not covered by the proof");
        }
    }

    private void loop(ForLoop f) {
        invariant(f.start(), "the start of FOR " + f.id());
        invariant(f.stop(), "the stop of FOR " + f.id());
        if (f.isRange()) rangeLoops++;
        nodes(f.body());
        if (f.isRange()) rangeLoops--;
    }

    private void communication(Communication c) {
        if (c.type() == CommunicationType.SEND_RECV) fail("SendRecv " + c.id() + " (its copy case compares the rank)");
        team(c.team(), "the team of Communication " + c.id());
        if (c.root() != null) relative(c.root(), "the root of Communication " + c.id());
        tensor(c.input());
        tensor(c.output());
    }

    /** Its peers are positions in the team: relative ranks only when the team is every rank in order. */
    private void permute(CollectivePermute c) {
        for (int i = 0; i < c.team().size(); i++) {
            if (c.team().size() != ranks || c.team().get(i) != i) {
                fail("CollectivePermute " + c.id() + " on a team other than 0 .. " + (ranks - 1));
                return;
            }
        }
        relative(c.sendPeer(), "the send peer of CollectivePermute " + c.id());
        relative(c.recvPeer(), "the receive peer of CollectivePermute " + c.id());
        tensor(c.input());
        tensor(c.output());
    }

    /**
     * The evaluator bounds-checks the index against the input's axis: a relative index takes every value 0 .. D-1
     * over the ranks, so the axis must be allocated whole (outside a range loop, not chunked by Stream) and at
     * least D long, or of size 1 (the local slot, where the evaluator reads index 0).
     */
    private void select(HirAliasSelect s) {
        tensor(s.in());
        tensor(s.out());
        Kind k = kind(s.index());
        if (k == Kind.INVARIANT) return;
        String what = "the index of HirAliasSelect " + s.id();
        if (k != Kind.RELATIVE) {
            fail(what + " depends on the rank");
            return;
        }
        int position = 0;
        for (IterDomain a : s.in().allocationAxes()) {
            if (a.id() == s.axis().id()) break;
            position++;
        }
        boolean chunked = rangeLoops > 0 || (s.in().loop() != null && s.in().loop().allocationIsLoop());
        if (position == s.in().allocationAxes().size() || chunked) {
            fail(what + " is relative to the rank on an axis taken in chunks");
            return;
        }
        long size = env.localShape(s.in())[position];
        if (size != 1 && size < ranks) fail(what + " is relative to the rank on an axis of " + size + " < " + ranks);
    }

    private void stream(Stream s) {
        if (s instanceof Stream.Indexed i) invariant(i.index(), "a stream index");
    }

    private void tensor(TensorView tv) {
        if (tv != null && tv.mesh() != null) {
            DeviceMesh m = tv.mesh();
            if (!closed.computeIfAbsent(m, x -> shiftClosed(m.deviceIds()))) {
                fail("the mesh of " + tv.name() + " is not mapped onto itself by a shift of " + period);
            }
        }
    }

    private void team(List<Integer> team, String what) {
        if (!closed.computeIfAbsent(team, x -> shiftClosed(team))) {
            fail(what + " is not mapped onto itself by a shift of " + period);
        }
    }

    private boolean shiftClosed(List<Integer> ids) {
        BitSet members = new BitSet(ranks);
        for (int r : ids) {
            if (r < 0 || r >= ranks) return false;
            members.set(r);
        }
        for (int r : ids) if (!members.get((r + period) % ranks)) return false;
        return true;
    }

    private void invariant(Scalar s, String what) {
        if (s != null && kind(s) != Kind.INVARIANT) fail(what + " depends on the rank");
    }

    private void relative(Scalar s, String what) {
        if (kind(s) != Kind.RELATIVE) fail(what + " is not relative to the rank (a fixed rank, or another function of it)");
    }

    private Kind kind(Scalar s) {
        return switch (s) {
            case Extent _ -> Kind.INVARIANT;
            case NamedScalar n -> n.equals(NamedScalar.RANK) || n.equals(NamedScalar.DEVICE_ID) ? Kind.RELATIVE
                    : Kind.INVARIANT;
            case MeshLookup m -> kind(m.argument()) == Kind.INVARIANT ? Kind.INVARIANT : Kind.DEPENDENT;
            case ScalarBinary b -> binary(b);
        };
    }

    private Kind binary(ScalarBinary b) {
        Kind l = kind(b.lhs());
        Kind r = kind(b.rhs());
        if (l == Kind.INVARIANT && r == Kind.INVARIANT) return Kind.INVARIANT;
        boolean ranked = l == Kind.RELATIVE || l == Kind.UNREDUCED;
        return switch (b.op()) {
            case ADD -> (ranked && r == Kind.INVARIANT)
                    || (l == Kind.INVARIANT && (r == Kind.RELATIVE || r == Kind.UNREDUCED)) ? Kind.UNREDUCED
                    : Kind.DEPENDENT;
            case SUB -> ranked && r == Kind.INVARIANT ? Kind.UNREDUCED : Kind.DEPENDENT;
            case MOD -> ranked && r == Kind.INVARIANT && value(b.rhs()) == ranks ? Kind.RELATIVE : Kind.DEPENDENT;
            case EQ -> l == Kind.RELATIVE && r == Kind.RELATIVE ? Kind.INVARIANT : Kind.DEPENDENT;
            case MUL, DIV, LT, CEIL_DIV -> Kind.DEPENDENT;
        };
    }

    /** An invariant scalar's value where it needs no loop index, else -1 (then it proves nothing). */
    private long value(Scalar s) {
        try {
            return env.eval(s);
        } catch (ExecutionException e) {
            return -1;
        }
    }

    private void fail(String reason) {
        if (why == null) why = reason;
    }
}
