package org.hostir.studio.diff;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IdCounters;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.MeshLookup;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.ScalarBinary;
import org.hostir.studio.ir.TensorView;
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
import org.hostir.studio.ir.host.HostUnit;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.IndexDefinition;
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
 * A program with every numbering replaced by the order of first appearance in printing order (inputs, outputs,
 * nodes, HostUnits): tensors, iter domains, symbols, node ids (from {@code nodeBase}) and HostUnits each counted
 * on their own; tensor labels and symbol names (the fusion file's {@code M}, {@code K}) dropped, since dumps have
 * none. Two programs that differ only in how nvFuser or the Studio numbered things become equal; anything else
 * (kinds, order, types, meshes, teams, extents, which symbol is which) still differs. Opaque nodes keep their text.
 * nvFuser's numbered loop indices and stream addresses are renumbered too (they are names, not values).
 */
public final class Canonical {
    private final Map<Integer, Integer> tensors = new LinkedHashMap<>();
    private final Map<Integer, Integer> iterDomains = new LinkedHashMap<>();
    private final Map<Integer, Integer> symbols = new LinkedHashMap<>();
    private final Map<Integer, Integer> printedIds = new LinkedHashMap<>();
    private final Map<Integer, HostUnit> units = new LinkedHashMap<>();
    /** nvFuser's numbered loop indices ({@code i535}), renumbered. */
    private final Map<String, String> indices = new LinkedHashMap<>();
    /** Streams named by a number or an address ({@code 0x174e5c80}): their canonical numbers. */
    private final Map<String, Integer> streams = new LinkedHashMap<>();
    /** A dump's index definitions by index name, substituted where the program names them; none by default. */
    private final Map<String, Scalar> definitions = new HashMap<>();
    /** The definitions being substituted now, so a cycle stops at its name. */
    private final Set<String> expanding = new HashSet<>();
    /** Each node made to the node it copies, by identity (two equal records are still two nodes). */
    private final Map<HostNode, HostNode> sources = new IdentityHashMap<>();
    /** Null: symbols numbered by first appearance; else each canonical symbol id to the id wanted. */
    private final Map<Integer, Integer> symbolRenaming;
    private final int nodeBase;
    private int nextNode;

    private Canonical(int nodeBase, Map<Integer, Integer> symbolRenaming) {
        this.nodeBase = nodeBase;
        this.nextNode = nodeBase;
        this.symbolRenaming = symbolRenaming == null ? null : Map.copyOf(symbolRenaming);
    }

    public static HostIrContainer of(HostIrContainer c) { return of(c, 0); }

    public static HostIrContainer of(HostIrContainer c, int nodeBase) { return copy(c, nodeBase).program(); }

    /**
     * A canonical program and, for each of its nodes, the node of the program it copies: a view that shows a
     * compared node as a text prints it finds that node by what it copies, not by where it stands (ShownNodes).
     * Nodes are keyed by identity: two equal records are two nodes.
     */
    public static final class Copy {
        private final HostIrContainer program;
        private final Map<HostNode, HostNode> sources;
        private final Map<HostNode, HostNode> copies = new IdentityHashMap<>();

        Copy(HostIrContainer program, Map<HostNode, HostNode> sources) {
            this.program = Objects.requireNonNull(program);
            this.sources = new IdentityHashMap<>(sources);
            sources.forEach((made, copied) -> copies.put(copied, made));
        }

        public HostIrContainer program() { return program; }

        /** The node of the copied program that {@code node} copies, or null when {@code node} is not this copy's. */
        public HostNode sourceOf(HostNode node) { return sources.get(node); }

        /** This copy's node copying {@code source}, or null when none does. */
        public HostNode copyOf(HostNode source) { return copies.get(source); }
    }

    /** {@link #of}, with where each node comes from. */
    public static Copy copy(HostIrContainer c, int nodeBase) {
        Canonical k = new Canonical(nodeBase, null);
        return new Copy(k.build(c), k.sources);
    }

    /**
     * A dump's program with its index definitions (#5327, {@code NVFUSER_DUMP=host_ir(indices)}) put in place of the
     * indices it names, then canonical: {@code index = i84} with {@code i84 = i82 % 8} and {@code i82 = rank +
     * streamIdx} reads {@code index = ( ( rank + streamIdx ) % 8 )}, as the Studio prints the same index inline. A
     * definition that reaches itself again is left as its name (a cycle nvFuser cannot print; the name then differs).
     */
    public static HostIrContainer withIndexDefinitions(HostIrContainer c, List<IndexDefinition> definitions) {
        if (definitions.isEmpty()) return of(c);
        Canonical k = new Canonical(0, null);
        for (IndexDefinition d : definitions) k.definitions.putIfAbsent(d.index().name(), d.definition());
        return k.build(c);
    }

    /**
     * A program that is canonical already, its node ids from {@code nodeBase} and its symbols renamed
     * ({@code symbolRenaming}: canonical id to the id wanted; ids not in it stay); tensors, iter domains and
     * HostUnits keep their numbers, being canonical.
     */
    static Copy renamed(Copy c, int nodeBase, Map<Integer, Integer> symbolRenaming) {
        Canonical k = new Canonical(nodeBase, symbolRenaming);
        HostIrContainer program = k.build(c.program());
        Map<HostNode, HostNode> sources = new IdentityHashMap<>();
        k.sources.forEach((made, copied) -> sources.put(made, c.sourceOf(copied)));
        return new Copy(program, sources);
    }

    private HostIrContainer build(HostIrContainer c) {
        Canonical k = this;
        List<TensorView> inputs = c.inputs().stream().map(k::tensor).toList();
        List<TensorView> outputs = c.outputs().stream().map(k::tensor).toList();
        List<HostNode> top = k.nodes(c.topLevel());
        List<HostUnit> hostUnits = new ArrayList<>();
        Set<Integer> launched = c.launchedUnits();
        for (HostUnit u : c.hostUnits()) if (!launched.contains(u.number())) hostUnits.add(k.unit(u));
        List<Extent.Symbolic> syms = k.symbols.values().stream().sorted().distinct()
                .map(i -> new Extent.Symbolic(i, "i" + i)).toList();
        IdCounters counters = new IdCounters(k.tensors.size(), k.iterDomains.size(), k.symbols.size(), k.nextNode,
                hostUnits.size());
        return new HostIrContainer(inputs, outputs, top, hostUnits, syms, counters, Map.of());
    }

    /**
     * kir::Allocate prints its size (csrc/kernel_ir.cpp:548) and keeps it; hir::Allocate has no size, only its
     * buffer, memory type and zero_init (csrc/host_ir/ir.cpp:510-532), so its size is the canonical buffer's: the
     * lowering's per-chunk size of an in-loop buffer (a loop domain the dump does not print) is not a difference.
     */
    private Allocate allocate(Allocate a) {
        TensorView buffer = tensor(a.buffer());
        Scalar size = switch (a.form()) {
            case KERNEL_IR -> scalar(a.size());
            case HOST_IR -> buffer.allocationSize();
        };
        return new Allocate(fresh(), buffer, a.memoryType(), size, a.zeroInit(), a.form(), a.resetsToZero(),
                a.alias() == null ? null : tensor(a.alias()));
    }

    private TensorView tensor(TensorView t) {
        int id = tensors.computeIfAbsent(t.id(), k -> tensors.size());
        return new TensorView(id, null, t.dtype(), t.memoryType(), t.axes().stream().map(this::iterDomain).toList(),
                t.mesh());
    }

    private IterDomain iterDomain(IterDomain d) {
        int id = iterDomains.computeIfAbsent(d.id(), k -> iterDomains.size());
        return new IterDomain(id, (Extent) scalar(d.extent()), d.iterType(), d.parallelType());
    }

    private Scalar scalar(Scalar s) {
        return switch (s) {
            case Extent.Symbolic sym when definitions.containsKey("i" + sym.id()) ->
                    defined(new NamedScalar("i" + sym.id()));
            case Extent.Symbolic sym -> {
                int id;
                if (symbolRenaming == null) {
                    id = symbols.computeIfAbsent(sym.id(), k -> symbols.size());
                } else { // renaming a canonical program: the map then lists the ids used, each to itself
                    id = symbolRenaming.getOrDefault(sym.id(), sym.id());
                    symbols.putIfAbsent(id, id);
                }
                yield new Extent.Symbolic(id, "i" + id);
            }
            case Extent.Constant c -> c;
            case NamedScalar n -> defined(n);
            case ScalarBinary b -> new ScalarBinary(b.op(), scalar(b.lhs()), scalar(b.rhs()));
            case MeshLookup m -> new MeshLookup(m.kind(), m.mesh(), scalar(m.argument()));
        };
    }

    /**
     * A stream with no index is named, never computed: nvFuser 2026-04 prints its address (its evaluator looks such
     * a stream up by address, csrc/host_ir/ir.cpp:193-205 at 81c4b22fd), the seeds its {@code name()} (a number),
     * the Studio a stable address or number ({@code Stream.addressOf}). So each becomes {@code Stream k}, k counted
     * by first appearance over numbers and addresses alike. That hides no difference: the renaming is one-to-one
     * within a program, so a program whose nodes use one stream where the other's use two, or that swaps which
     * node uses which, still differs; only the spelling of the name goes. Indexed streams keep their index.
     */
    private Stream stream(Stream s) {
        return switch (s) {
            case Stream.Fixed f -> named("number " + f.number());
            case Stream.Indexed i -> new Stream.Indexed(scalar(i.index()));
            case Stream.Pointer p -> named("address " + p.address());
        };
    }

    private Stream named(String key) {
        return new Stream.Fixed(streams.computeIfAbsent(key, k -> streams.size()));
    }

    /**
     * An index with a definition: the definition, canonical; else the name ({@link #index}). The reader takes an
     * {@code i84} it meets in the program for a symbol, so a symbol of that name is looked up too; a cycle leaves it
     * a name.
     */
    private Scalar defined(NamedScalar n) {
        Scalar d = definitions.get(n.name());
        if (d == null || !expanding.add(n.name())) return index(n);
        try {
            return scalar(d);
        } finally {
            expanding.remove(n.name());
        }
    }

    /** A loop index nvFuser numbers ({@code i535}) becomes {@code idx0}, {@code idx1}..; named ones stay. */
    private NamedScalar index(NamedScalar n) {
        if (!n.name().matches("i\\d+")) return n;
        return new NamedScalar(indices.computeIfAbsent(n.name(), k -> "idx" + indices.size()));
    }

    private int fresh() { return nextNode++; }

    /** An id the dump prints (Communication, P2P, EndCoalescing) and Wait refers to: renumbered consistently. */
    private int printed(int id) { return printedIds.computeIfAbsent(id, k -> nodeBase + printedIds.size()); }

    private List<HostNode> nodes(List<HostNode> ns) { return ns.stream().map(this::node).toList(); }

    private HostNode node(HostNode n) {
        HostNode made = copied(n);
        sources.put(made, n);
        return made;
    }

    private HostNode copied(HostNode n) {
        return switch (n) {
            case Allocate a -> allocate(a);
            case Deallocate d -> new Deallocate(fresh(), tensor(d.buffer()));
            case ForLoop f -> new ForLoop(fresh(), index(f.index()), f.isRange() ? null : iterDomain(f.iterDomain()),
                    scalar(f.start()), scalar(f.stop()), nodes(f.body()));
            case IfThenElse i -> new IfThenElse(fresh(), scalar(i.predicate()), nodes(i.thenBody()),
                    nodes(i.elseBody()));
            case GetCurrentStream g -> new GetCurrentStream(fresh(), stream(g.stream()));
            case SetCurrentStream s -> new SetCurrentStream(fresh(), stream(s.stream()));
            case Synchronize s -> new Synchronize(fresh(), stream(s.stream()));
            case HirAliasSelect s -> new HirAliasSelect(fresh(), tensor(s.out()), tensor(s.in()),
                    iterDomain(s.axis()), scalar(s.index()));
            case ShardByStream b -> new ShardByStream(fresh(), tensor(b.out()), tensor(b.in()),
                    scalar(b.streamIndex()));
            case SymmetricContiguousView v -> new SymmetricContiguousView(fresh(), tensor(v.out()), tensor(v.in()));
            case LaunchKernel k -> new LaunchKernel(fresh(), k.groupId(),
                    k.inputs().stream().map(this::tensor).toList(), k.outputs().stream().map(this::tensor).toList(),
                    k.scalarInputs().stream().map(s -> new LaunchKernel.ScalarInput(s.position(), scalar(s.value())))
                            .toList());
            case MoeDispatch d -> new MoeDispatch(printed(d.id()), d.numExperts(), d.backend(), tensor(d.in()),
                    tensor(d.topkIdx()), tensor(d.topkWeights()), tensor(d.out()), d.routing().map(r ->
                    new MoeDispatch.Routing(tensor(r.outTopkIdx()), tensor(r.outTopkWeights()), tensor(r.outSrcIdx()),
                            tensor(r.tokensToRank()), tensor(r.tokensFromRank()))));
            case MoeCombine c -> new MoeCombine(printed(c.id()), c.backend(), tensor(c.in()), tensor(c.topkWeights()),
                    tensor(c.srcIdx()), tensor(c.out()), c.counts().map(k -> new MoeCombine.Counts(
                    tensor(k.tokensToRank()), tensor(k.tokensFromRank()), scalar(k.numTokens()))));
            case Communication c -> new Communication(printed(c.id()), c.type(), c.team(),
                    c.root() == null ? null : scalar(c.root()), tensor(c.input()), tensor(c.output()),
                    c.reduction(), c.backend());
            case CollectivePermute c -> new CollectivePermute(printed(c.id()), tensor(c.output()), tensor(c.input()),
                    c.team(), scalar(c.sendPeer()), scalar(c.recvPeer()), c.backend());
            case P2PCommunication p -> new P2PCommunication(printed(p.id()), p.type(), tensor(p.buffer()),
                    scalar(p.peer()), p.backend());
            case StartCoalescing s -> new StartCoalescing(fresh());
            case EndCoalescing e -> new EndCoalescing(printed(e.id()));
            case ShareMemHandles s -> new ShareMemHandles(fresh(), s.communications().stream()
                    .map(p -> (P2PCommunication) node(p)).toList());
            case Wait w -> new Wait(fresh(), printed(w.communicationId()));
            // a kernel host_ir_lowering launches compares with the LaunchKernel an nvFuser dump of that path reads as
            case PostOnStream p when p.launch() == PostOnStream.Launch.LAUNCH_KERNEL -> new LaunchKernel(fresh(),
                    p.unit().number(), p.inputs().stream().map(this::tensor).toList(),
                    p.outputs().stream().map(this::tensor).toList());
            case PostOnStream p -> new PostOnStream(fresh(), unit(p.unit()),
                    p.inputs().stream().map(this::tensor).toList(), p.outputs().stream().map(this::tensor).toList());
            case HostOp o -> new HostOp(fresh(), op(o.op()));
            case OpaqueNode o -> new OpaqueNode(fresh(), o.lines(), o.reason());
        };
    }

    private HostUnit unit(HostUnit u) {
        HostUnit done = units.get(u.number());
        if (done != null) return done;
        HostUnit c = new HostUnit(units.size(), u.inputs().stream().map(this::tensor).toList(),
                u.outputs().stream().map(this::tensor).toList(), u.ops().stream().map(this::op).toList());
        units.put(u.number(), c);
        return c;
    }

    private FusionOp op(FusionOp op) { return op.mapTensors(this::tensor); }
}
