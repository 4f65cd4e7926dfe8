package org.hostir.studio.ir.host;

import java.util.List;

/**
 * Fingerprints of Host IR subtrees. {@link #of(HostNode)} ignores node ids, so two nodes built the same way by
 * different passes hash alike (the diff matches on it when ids differ); {@link #withIds(HostIrContainer)} keeps
 * them and tells whether a pass changed anything at all (MLIR's print-ir-after-change fingerprint).
 */
public final class StructuralHash {
    private StructuralHash() {}

    public static long withIds(HostIrContainer c) {
        return mix(c.topLevel().hashCode(), c.hostUnits().hashCode());
    }

    public static long of(HostNode node) {
        return anonymous(node).hashCode() * 0x9E3779B97F4A7C15L + node.getClass().getName().hashCode();
    }

    public static long of(List<HostNode> nodes) {
        long h = 17;
        for (HostNode n : nodes) h = mix(h, of(n));
        return h;
    }

    /** The node with its own and nested ids zeroed (references to other nodes kept). */
    static HostNode anonymous(HostNode node) {
        return switch (node) {
            case Allocate a -> a.withId(0);
            case Deallocate d -> new Deallocate(0, d.buffer());
            case ForLoop f -> new ForLoop(0, f.index(), f.iterDomain(), f.start(), f.stop(), anonymous(f.body()));
            case IfThenElse i -> new IfThenElse(0, i.predicate(), anonymous(i.thenBody()), anonymous(i.elseBody()));
            case GetCurrentStream g -> new GetCurrentStream(0, g.stream());
            case SetCurrentStream s -> new SetCurrentStream(0, s.stream());
            case Synchronize s -> new Synchronize(0, s.stream());
            case HirAliasSelect s -> new HirAliasSelect(0, s.out(), s.in(), s.axis(), s.index());
            case ShardByStream s -> new ShardByStream(0, s.out(), s.in(), s.streamIndex());
            case SymmetricContiguousView v -> new SymmetricContiguousView(0, v.out(), v.in());
            case LaunchKernel k -> k.withId(0);
            case MoeDispatch d -> d.withId(0);
            case MoeCombine c -> c.withId(0);
            case Communication c -> new Communication(0, c.type(), c.team(), c.root(), c.input(), c.output(),
                    c.reduction(), c.backend());
            case CollectivePermute c -> new CollectivePermute(0, c.output(), c.input(), c.team(), c.sendPeer(),
                    c.recvPeer(), c.backend());
            case P2PCommunication p -> new P2PCommunication(0, p.type(), p.buffer(), p.peer(), p.backend());
            case StartCoalescing s -> new StartCoalescing(0);
            case EndCoalescing e -> new EndCoalescing(0);
            case ShareMemHandles s -> new ShareMemHandles(0, s.communications().stream()
                    .map(p -> new P2PCommunication(0, p.type(), p.buffer(), p.peer(), p.backend())).toList());
            case Wait w -> new Wait(0, 0);
            case PostOnStream p -> new PostOnStream(0, p.unit(), p.inputs(), p.outputs(), p.launch());
            case HostOp o -> new HostOp(0, o.op());
            case OpaqueNode o -> new OpaqueNode(0, o.lines(), o.reason());
        };
    }

    private static List<HostNode> anonymous(List<HostNode> nodes) {
        return nodes.stream().map(StructuralHash::anonymous).toList();
    }

    private static long mix(long h, long v) {
        return (h ^ v) * 0x100000001B3L + (h >>> 29);
    }
}
