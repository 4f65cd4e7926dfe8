package org.hostir.studio.ir;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hands out fresh, deterministic ids for tensors, iter domains, symbols and Host IR nodes. Tests build programs
 * by hand with it (as nvFuser's test_host_irs does); passes continue the numbering of the program they rewrite.
 * It is the only mutable thing in the IR layer and never escapes a single construction.
 */
public final class IrBuilder {
    private int nextTensor;
    private int nextIterDomain;
    private int nextSymbol;
    private int nextNode;
    private int nextHostUnit;
    /** Every symbol, in order of creation; several may share a user name (one per input axis, as nvFuser). */
    private final List<Extent.Symbolic> symbols = new ArrayList<>();
    /** The symbol {@link #symbol(String)} shares per user name. */
    private final Map<String, Extent.Symbolic> shared = new LinkedHashMap<>();

    public IrBuilder() { this(IdCounters.ZERO, List.of()); }

    public IrBuilder(IdCounters start, List<Extent.Symbolic> knownSymbols) {
        nextTensor = start.nextTensor();
        nextIterDomain = start.nextIterDomain();
        nextSymbol = start.nextSymbol();
        nextNode = start.nextNode();
        nextHostUnit = start.nextHostUnit();
        for (Extent.Symbolic s : knownSymbols) {
            symbols.add(s);
            shared.putIfAbsent(s.name(), s);
            nextSymbol = Math.max(nextSymbol, s.id() + 1);
        }
    }

    public IdCounters counters() {
        return new IdCounters(nextTensor, nextIterDomain, nextSymbol, nextNode, nextHostUnit);
    }

    public List<Extent.Symbolic> symbols() { return List.copyOf(symbols); }

    /**
     * The symbol with this user name, created on first use and shared by every later call: for programs built by
     * hand, where one name is one extent.
     */
    public Extent.Symbolic symbol(String name) {
        Extent.Symbolic s = shared.get(name);
        return s != null ? s : freshSymbol(name);
    }

    /**
     * A new symbol even if the name is taken: what nvFuser's {@code TensorViewBuilder} gives each axis of a new
     * input ({@code makeContigTensor}), so two inputs' K are two symbols ({@code i3}, {@code i4}).
     */
    public Extent.Symbolic freshSymbol(String name) {
        Extent.Symbolic s = new Extent.Symbolic(nextSymbol++, name);
        symbols.add(s);
        shared.putIfAbsent(name, s);
        return s;
    }

    /** Skips symbol ids, to reproduce a numbering with gaps (nvFuser numbers every scalar it creates). */
    public IrBuilder skipSymbols(int n) {
        nextSymbol += n;
        return this;
    }

    public IrBuilder skipIterDomains(int n) {
        nextIterDomain += n;
        return this;
    }

    public IrBuilder skipNodes(int n) {
        nextNode += n;
        return this;
    }

    /** A fresh iter domain id, for the axes loop transforms (split, merge) create. */
    public int nextIterDomainId() { return nextIterDomain++; }

    public int nextNodeId() { return nextNode++; }

    public int nextHostUnitId() { return nextHostUnit++; }

    public IterDomain iterDomain(Extent extent, IterType type, ParallelType parallel) {
        return new IterDomain(nextIterDomain++, extent, type, parallel);
    }

    public IterDomain iter(Extent extent) { return iterDomain(extent, IterType.ITERATION, ParallelType.SERIAL); }

    public IterDomain iter(Extent extent, ParallelType parallel) {
        return iterDomain(extent, IterType.ITERATION, parallel);
    }

    public IterDomain reduction(Extent extent) {
        return iterDomain(extent, IterType.REDUCTION, ParallelType.SERIAL);
    }

    public IterDomain broadcast() {
        return iterDomain(new Extent.Constant(1), IterType.BROADCAST, ParallelType.SERIAL);
    }

    /** A fresh copy of an axis (new id, same extent and types), as nvFuser clones domains for new tensors. */
    public IterDomain copy(IterDomain axis) { return axis.withId(nextIterDomain++); }

    public TensorView tensor(String label, DataType dtype, MemoryType memoryType, DeviceMesh mesh,
                             List<IterDomain> axes) {
        return new TensorView(nextTensor++, label, dtype, memoryType, axes, mesh);
    }

    /** A new tensor with a loop domain over {@code axes}. */
    public TensorView tensor(DataType dtype, MemoryType memoryType, DeviceMesh mesh, List<IterDomain> axes,
                             LoopDomain loop) {
        return new TensorView(nextTensor++, null, dtype, memoryType, axes, mesh, loop);
    }

    public TensorView tensor(DataType dtype, MemoryType memoryType, DeviceMesh mesh, IterDomain... axes) {
        return tensor(null, dtype, memoryType, mesh, List.of(axes));
    }

    /** A new tensor whose axes are fresh copies of {@code like}'s axes except the ones given in {@code drop}. */
    public TensorView sliceOf(TensorView like, MemoryType memoryType, int droppedAxis) {
        List<IterDomain> axes = new ArrayList<>();
        for (int i = 0; i < like.rank(); i++) {
            if (i != droppedAxis) axes.add(copy(like.axis(i)));
        }
        return tensor(null, like.dtype(), memoryType, like.mesh(), axes);
    }

    public Fusion fusion(String name, List<TensorView> inputs, List<FusionOp> ops, List<TensorView> outputs) {
        return new Fusion(name, inputs, ops, outputs, symbols(), counters());
    }
}
