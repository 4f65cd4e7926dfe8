package org.hostir.studio.ir;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A fusion: tensors and the ops between them, immutable. {@code symbols} lists the symbolic extents in order of
 * their ids; {@code counters} says which ids are free, so lowering can create new tensors and axes without
 * clashing.
 */
public record Fusion(String name, List<TensorView> inputs, List<FusionOp> ops, List<TensorView> outputs,
                     List<Extent.Symbolic> symbols, IdCounters counters) {
    public Fusion {
        inputs = List.copyOf(inputs);
        ops = List.copyOf(ops);
        outputs = List.copyOf(outputs);
        symbols = List.copyOf(symbols);
    }

    /** Every tensor, inputs first, then op outputs in op order. */
    public List<TensorView> tensors() {
        Map<Integer, TensorView> all = new LinkedHashMap<>();
        inputs.forEach(t -> all.putIfAbsent(t.id(), t));
        for (FusionOp op : ops) {
            op.inputs().forEach(t -> all.putIfAbsent(t.id(), t));
            all.putIfAbsent(op.output().id(), op.output());
        }
        return List.copyOf(all.values());
    }

    /** The op that defines a tensor, if any (inputs have none). */
    public Optional<FusionOp> definition(TensorView tv) {
        return ops.stream().filter(op -> op.output().id() == tv.id()).findFirst();
    }

    /** The ops that read a tensor, in order. */
    public List<FusionOp> uses(TensorView tv) {
        List<FusionOp> uses = new ArrayList<>();
        for (FusionOp op : ops) {
            if (op.inputs().stream().anyMatch(t -> t.id() == tv.id())) uses.add(op);
        }
        return uses;
    }

    public Optional<Extent.Symbolic> symbol(String userName) {
        return symbols.stream().filter(s -> s.name().equals(userName)).findFirst();
    }

    /** The printer's legend: {@code i0 = D}, one entry per symbol. */
    public List<String> legend() {
        return symbols.stream().map(s -> "i" + s.id() + " = " + s.name()).toList();
    }
}
