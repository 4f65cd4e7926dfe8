package org.hostir.studio.io;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorSubstitution;
import org.hostir.studio.ir.TensorView;

/**
 * Symbols as nvFuser numbers them. Its {@code TensorViewBuilder} gives every axis of a new input its own symbolic
 * extent ({@code makeContigTensor}), and the fusion's {@code zeroVal()}, created while the first axis is built,
 * takes the next number: seed 000 prints {@code T0[ideviceIdx.x0{i0}, iS1{i2}, iS2{i3}]},
 * {@code T1[iS3{i4}, iS4{i5}]}. Ops never create symbols: their outputs reuse the inputs' extents
 * ({@link OutputExtents}), so the matmul's output is {@code [i0, i2, i5, r i3]}.
 *
 * <p>A file names its extents ({@code K}); the names stay on the symbols (for the legend and for binding
 * values), one name may now stand for several symbols, and two names may stand for one extent when their values
 * agree ({@code K2} against {@code K}, both 4). An output axis takes its input's symbol only where the file's
 * extent is known to be the same (one name, or equal values); otherwise it keeps a symbol of its own, and
 * validation reports the difference when values decide it.
 */
final class SymbolNumbering {
    /** Stands for an op output's symbolic extent until the op gives it one. */
    private static final int PENDING = Integer.MAX_VALUE;

    private final IrBuilder b;
    private boolean zeroTaken;

    SymbolNumbering(IrBuilder b) {
        this.b = b;
    }

    /** The extent of a file axis named {@code name}: fresh for a tensor no op defines, pending for an op output. */
    Extent.Symbolic symbol(String name, boolean definedByOp) {
        return definedByOp ? new Extent.Symbolic(PENDING, name) : fresh(name);
    }

    private Extent.Symbolic fresh(String name) {
        Extent.Symbolic s = b.freshSymbol(name);
        if (!zeroTaken) {
            b.skipSymbols(1); // nvFuser's zeroVal(), created right after the first axis's extent
            zeroTaken = true;
        }
        return s;
    }

    /** Every tensor (by id) with its pending extents given: from its defining op, else a symbol of its own. */
    Map<Integer, TensorView> resolve(List<FusionOp> ops, List<TensorView> tensors, FusionBindings bindings) {
        Map<Integer, TensorView> done = new LinkedHashMap<>();
        for (TensorView t : tensors) {
            if (!isPending(t)) done.put(t.id(), t);
        }
        boolean progress = true;
        while (progress) { // in dependency order, whatever the order of the file's ops
            progress = false;
            for (FusionOp op : ops) {
                if (done.containsKey(op.output().id())
                        || !op.inputs().stream().allMatch(t -> done.containsKey(t.id()))) continue;
                FusionOp wired = TensorSubstitution.apply(op, done);
                List<Extent> given = OutputExtents.of(wired, (x, y) -> ValidationContext.sameExtent(bindings, x, y));
                done.put(op.output().id(), give(op.output(), given, bindings));
                progress = true;
            }
        }
        for (TensorView t : tensors) { // a cycle or an undefined input: validation reports it
            done.computeIfAbsent(t.id(), id -> give(t, List.of(), bindings));
        }
        return done;
    }

    private TensorView give(TensorView out, List<Extent> given, FusionBindings bindings) {
        List<IterDomain> axes = new ArrayList<>();
        for (int o = 0; o < out.rank(); o++) {
            IterDomain a = out.axis(o);
            Extent own = a.extent();
            Extent from = o < given.size() ? given.get(o) : null;
            Extent e = from != null && !a.isBroadcast() && ValidationContext.knownSame(bindings, own, from) ? from
                    : own instanceof Extent.Symbolic s && s.id() == PENDING ? fresh(s.name()) : own;
            axes.add(new IterDomain(a.id(), e, a.iterType(), a.parallelType()));
        }
        return out.withAxes(axes);
    }

    private static boolean isPending(TensorView t) {
        return t.axes().stream().anyMatch(a -> a.extent() instanceof Extent.Symbolic s && s.id() == PENDING);
    }
}
