package org.hostir.studio.ir.host;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;

/** Creates Host IR nodes with fresh ids from an {@link IrBuilder}; what tests and passes build programs with. */
public final class HostIrBuilder {
    /** {@code StreamIdx % numberOfStreams}: the worker stream of loop iteration StreamIdx. */
    public static final Stream WORKER_STREAM =
            new Stream.Indexed(Scalar.mod(NamedScalar.STREAM_IDX, NamedScalar.NUMBER_OF_STREAMS));

    private final IrBuilder ir;
    private final List<HostUnit> hostUnits = new ArrayList<>();
    private final Map<Integer, Integer> provenance = new LinkedHashMap<>();

    public HostIrBuilder(IrBuilder ir) { this.ir = ir; }

    public IrBuilder ir() { return ir; }

    public Allocate allocate(TensorView tv) { return new Allocate(ir.nextNodeId(), tv); }

    public Deallocate deallocate(TensorView tv) { return new Deallocate(ir.nextNodeId(), tv); }

    public ForLoop forStreams(IterDomain axis, List<HostNode> body) {
        return ForLoop.overStreams(ir.nextNodeId(), axis, body);
    }

    /** nvFuser's {@code hir::ForLoop}: {@code FOR index from start to stop:}. */
    public ForLoop forRange(NamedScalar index, Scalar start, Scalar stop, List<HostNode> body) {
        return ForLoop.range(ir.nextNodeId(), index, start, stop, body);
    }

    /** nvFuser's {@code hir::Allocate}, printed {@code ALLOCATE(mem_type=.., zero_init=..)}. */
    public Allocate allocateHostIr(TensorView tv) {
        return new Allocate(ir.nextNodeId(), tv, tv.memoryType(), tv.allocationSize(), false, Allocate.Form.HOST_IR);
    }

    public ShardByStream shardByStream(TensorView out, TensorView in, Scalar streamIndex) {
        return new ShardByStream(ir.nextNodeId(), out, in, streamIndex);
    }

    public SymmetricContiguousView symmetricContiguousView(TensorView out, TensorView in) {
        return new SymmetricContiguousView(ir.nextNodeId(), out, in);
    }

    public IfThenElse ifThenElse(Scalar predicate, List<HostNode> thenBody, List<HostNode> elseBody) {
        return new IfThenElse(ir.nextNodeId(), predicate, thenBody, elseBody);
    }

    public GetCurrentStream getCurrentStream(Stream s) { return new GetCurrentStream(ir.nextNodeId(), s); }

    public SetCurrentStream setCurrentStream(Stream s) { return new SetCurrentStream(ir.nextNodeId(), s); }

    public Synchronize synchronize(Stream s) { return new Synchronize(ir.nextNodeId(), s); }

    public HirAliasSelect select(TensorView out, TensorView in, IterDomain axis, Scalar index) {
        return new HirAliasSelect(ir.nextNodeId(), out, in, axis, index);
    }

    public Communication communication(CommunicationType type, List<Integer> team, Scalar root, TensorView input,
                                       TensorView output, ReductionOpType reduction, CommunicatorBackend backend) {
        return new Communication(ir.nextNodeId(), type, team, root, input, output, reduction, backend);
    }

    public CollectivePermute collectivePermute(TensorView output, TensorView input, List<Integer> team,
                                               Scalar sendPeer, Scalar recvPeer, CommunicatorBackend backend) {
        return new CollectivePermute(ir.nextNodeId(), output, input, team, sendPeer, recvPeer, backend);
    }

    public P2PCommunication p2p(P2PCommunication.Type type, TensorView buffer, Scalar peer,
                                CommunicatorBackend backend) {
        return new P2PCommunication(ir.nextNodeId(), type, buffer, peer, backend);
    }

    public StartCoalescing startCoalescing() { return new StartCoalescing(ir.nextNodeId()); }

    public EndCoalescing endCoalescing() { return new EndCoalescing(ir.nextNodeId()); }

    public ShareMemHandles shareMemHandles(List<P2PCommunication> communications) {
        return new ShareMemHandles(ir.nextNodeId(), communications);
    }

    public Wait waitFor(HostNode communication) { return new Wait(ir.nextNodeId(), communication.id()); }

    public HostOp op(FusionOp op) { return new HostOp(ir.nextNodeId(), op); }

    /** A new HostUnit registered with the program, and the PostOnStream that runs it. */
    public PostOnStream postOnStream(List<TensorView> inputs, List<TensorView> outputs, List<FusionOp> ops) {
        HostUnit unit = new HostUnit(ir.nextHostUnitId(), inputs, outputs, ops);
        hostUnits.add(unit);
        return new PostOnStream(ir.nextNodeId(), unit);
    }

    /** Records that a node was lowered from the fusion op at {@code opIndex}. */
    public <N extends HostNode> N from(int opIndex, N node) {
        provenance.put(node.id(), opIndex);
        return node;
    }

    /** Records that {@code node} was lowered from the same fusion op as the node {@code originId}, if known. */
    public <N extends HostNode> N inherit(int originId, N node) {
        Integer op = provenance.get(originId);
        if (op != null) provenance.put(node.id(), op);
        return node;
    }

    /** Starts from a program's provenance, so rewritten programs keep knowing where nodes came from. */
    public HostIrBuilder withProvenance(Map<Integer, Integer> known) {
        provenance.putAll(known);
        return this;
    }

    public Map<Integer, Integer> provenance() { return Map.copyOf(provenance); }

    public HostIrContainer container(List<TensorView> inputs, List<TensorView> outputs, List<HostNode> topLevel) {
        return new HostIrContainer(inputs, outputs, topLevel, hostUnits, ir.symbols(), ir.counters(), provenance);
    }
}
