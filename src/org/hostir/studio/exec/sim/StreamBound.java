package org.hostir.studio.exec.sim;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.ScalarEnv;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.ScalarBinary;
import org.hostir.studio.ir.host.Allocate;
import org.hostir.studio.ir.host.CollectivePermute;
import org.hostir.studio.ir.host.Communication;
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
 * A bound, read off one program without running it, on the worker streams the {@code exec.Evaluator} can create
 * while walking it: one per distinct stream key named by a {@code SetCurrentStream} or {@code Synchronize}, less the
 * keys a top-level {@code GetCurrentStream} binds to the current stream before any use. An indexed stream's key is
 * bounded only as {@code i % m} with m a positive constant (the evaluator's modulus is {@code Math.floorMod}: keys
 * 0 .. m-1 whatever i). Once a rank has created that many, every op it can still enqueue goes on a stream it has
 * ({@link SimDevice#blocked}); -1: no bound proved (then nothing relies on one). Programs with routed MoE nodes get
 * none: the routing model's state is shared by the ranks' walks, whose order must then stay the plain one.
 */
final class StreamBound {
    private final ScalarEnv env;
    private final Set<Object> keys = new HashSet<>();
    private final Set<Object> bound = new HashSet<>();
    private long indexed;
    private boolean unbounded;

    private StreamBound(Map<String, Long> symbols, int streams) { this.env = new ScalarEnv(symbols, 0, streams); }

    static int of(HostIrContainer program, Map<String, Long> symbols, int streams) {
        StreamBound b = new StreamBound(symbols, streams);
        for (HostNode n : program.topLevel()) {
            if (n instanceof GetCurrentStream g && !b.keys.contains(key(g.stream()))) b.bound.add(key(g.stream()));
            b.node(n);
        }
        long n = b.keys.size() + b.indexed;
        return b.unbounded || n > Integer.MAX_VALUE ? -1 : (int) n;
    }

    private void nodes(List<HostNode> nodes) { nodes.forEach(this::node); }

    private void node(HostNode node) {
        switch (node) {
            case ForLoop f -> nodes(f.body());
            case IfThenElse i -> {
                nodes(i.thenBody());
                nodes(i.elseBody());
            }
            case SetCurrentStream s -> use(s.stream());
            case Synchronize s -> use(s.stream());
            case ShareMemHandles s -> s.communications().forEach(this::node);
            case MoeDispatch _, MoeCombine _ -> unbounded = true;
            // named, not defaulted: a new kind with a body or a stream of its own must be decided here, since a
            // bound too small would park a rank that can still enqueue work
            case Allocate _, Deallocate _, GetCurrentStream _, HirAliasSelect _, ShardByStream _,
                 SymmetricContiguousView _, Communication _, CollectivePermute _, P2PCommunication _,
                 StartCoalescing _, EndCoalescing _, Wait _, PostOnStream _, HostOp _, LaunchKernel _,
                 OpaqueNode _ -> { }
        }
    }

    private void use(Stream s) {
        if (s instanceof Stream.Indexed i) {
            indexed = Math.max(indexed, modulus(i.index()));
        } else if (!bound.contains(key(s))) {
            keys.add(key(s));
        }
    }

    /** m where {@code index} is {@code i % m} with m a positive constant; else unbounded. */
    private long modulus(Scalar index) {
        if (index instanceof ScalarBinary b && b.op() == ScalarBinary.Op.MOD) {
            try {
                long m = env.eval(b.rhs());
                if (m > 0) return m;
            } catch (ExecutionException e) {
                // not a constant: no bound
            }
        }
        unbounded = true;
        return 0;
    }

    private static Object key(Stream s) {
        return switch (s) {
            case Stream.Fixed f -> "fixed " + f.number();
            case Stream.Pointer p -> "pointer " + Long.parseUnsignedLong(p.address().substring(2), 16);
            case Stream.Indexed i -> i;
        };
    }
}
