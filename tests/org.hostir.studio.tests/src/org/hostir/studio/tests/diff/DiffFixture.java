package org.hostir.studio.tests.diff;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.diff.DiffNode;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.Stream;

/**
 * A small stream-pipelined matmul, C[S, N] = A[S, K] x W[K, N], built by hand, with a name for every node so
 * that a diff renders as readable text ({@code CHANGED loop}, {@code   ADDED sync2}).
 */
final class DiffFixture {
    final IrBuilder ir = new IrBuilder();
    final HostIrBuilder h = new HostIrBuilder(ir);
    final TensorView a;
    final TensorView w;
    final TensorView c;
    final TensorView aSlice;
    final TensorView cSlice;
    private final Map<Integer, String> names = new HashMap<>();

    // The "before" program: get, alloc, mm, loop { setWorker, selA, selC, mmSlice, setUser, syncWorker }, sync.
    final HostNode get;
    final HostNode alloc;
    final HostOp mm;
    final HostNode setWorker;
    final HostNode selA;
    final HostNode selC;
    final HostOp mmSlice;
    final HostNode setUser;
    final HostNode syncWorker;
    final ForLoop loop;
    final HostNode sync;

    DiffFixture() {
        Extent s = ir.symbol("S");
        Extent k = ir.symbol("K");
        Extent n = ir.symbol("N");
        a = ir.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, ir.iter(s, ParallelType.STREAM), ir.iter(k));
        w = ir.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, ir.iter(k), ir.iter(n));
        c = ir.tensor(DataType.FLOAT, MemoryType.GLOBAL, null, ir.iter(s, ParallelType.STREAM), ir.iter(n));
        aSlice = ir.sliceOf(a, MemoryType.GLOBAL, 0);
        cSlice = ir.sliceOf(c, MemoryType.GLOBAL, 0);
        get = named("get", h.getCurrentStream(Stream.USER));
        alloc = named("alloc", h.allocate(c));
        mm = named("mm", h.op(new FusionOp.Matmul(c, a, w)));
        setWorker = named("setWorker", h.setCurrentStream(HostIrBuilder.WORKER_STREAM));
        selA = named("selA", h.select(aSlice, a, a.axis(0), NamedScalar.STREAM_IDX));
        selC = named("selC", h.select(cSlice, c, c.axis(0), NamedScalar.STREAM_IDX));
        mmSlice = named("mmSlice", h.op(new FusionOp.Matmul(cSlice, aSlice, w)));
        setUser = named("setUser", h.setCurrentStream(Stream.USER));
        syncWorker = named("syncWorker", h.synchronize(HostIrBuilder.WORKER_STREAM));
        loop = named("loop", h.forStreams(c.axis(0), List.of(setWorker, selA, selC, mmSlice, setUser, syncWorker)));
        sync = named("sync", h.synchronize(Stream.USER));
    }

    /** The before program's top level: 5 nodes, 11 with the loop body. */
    List<HostNode> topLevel() { return List.of(get, alloc, mm, loop, sync); }

    HostIrContainer program(List<HostNode> topLevel) { return h.container(List.of(a, w), List.of(c), topLevel); }

    HostIrContainer before() { return program(topLevel()); }

    <N extends HostNode> N named(String name, N node) {
        names.put(node.id(), name);
        return node;
    }

    /** The loop's body built again with fresh ids, names given a prime. */
    ForLoop rebuiltLoop() {
        List<HostNode> body = new ArrayList<>();
        body.add(named("setWorker'", h.setCurrentStream(HostIrBuilder.WORKER_STREAM)));
        body.add(named("selA'", h.select(aSlice, a, a.axis(0), NamedScalar.STREAM_IDX)));
        body.add(named("selC'", h.select(cSlice, c, c.axis(0), NamedScalar.STREAM_IDX)));
        body.add(named("mmSlice'", h.op(new FusionOp.Matmul(cSlice, aSlice, w))));
        body.add(named("setUser'", h.setCurrentStream(Stream.USER)));
        body.add(named("syncWorker'", h.synchronize(HostIrBuilder.WORKER_STREAM)));
        return named("loop'", h.forStreams(c.axis(0), body));
    }

    /**
     * One line per diff node: kind, the node's name ({@code before->after} when ids differ), flags; bodies
     * indented, an if's else body after an {@code else:} line.
     */
    String render(List<DiffNode> nodes) {
        StringBuilder out = new StringBuilder();
        render(nodes, "", out);
        return out.toString();
    }

    private void render(List<DiffNode> nodes, String indent, StringBuilder out) {
        for (DiffNode d : nodes) {
            out.append(indent).append(d.kind()).append(' ');
            if (d.before() == null) out.append(name(d.after()));
            else if (d.after() == null || d.before().id() == d.after().id()) out.append(name(d.before()));
            else out.append(name(d.before())).append("->").append(name(d.after()));
            if (d.match() == DiffNode.Match.STRUCTURE) out.append(" by structure");
            if (d.match() == DiffNode.Match.ID_ELSEWHERE) out.append(" from elsewhere");
            if (d.moved()) out.append(" moved");
            out.append('\n');
            for (int k = 0; k < d.bodies().size(); k++) {
                if (k == 1) out.append(indent).append("else:\n");
                render(d.bodies().get(k), indent + "  ", out);
            }
        }
    }

    private String name(HostNode node) { return names.getOrDefault(node.id(), "#" + node.id()); }

    static String lines(String... lines) { return String.join("\n", lines) + "\n"; }
}
