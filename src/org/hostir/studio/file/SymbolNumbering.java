package org.hostir.studio.file;

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
import org.hostir.studio.rules.ConversionExtents;
import org.hostir.studio.rules.FusionBindings;

/**
 * Symbols as nvFuser numbers them. Its {@code TensorViewBuilder} gives every axis of a new input its own symbolic
 * extent ({@code makeContigTensor}), and the fusion's {@code zeroVal()}, created while the first axis is built,
 * takes the next number: seed 000 prints {@code T0[ideviceIdx.x0{i0}, iS1{i2}, iS2{i3}]},
 * {@code T1[iS3{i4}, iS4{i5}]}. Ops never create symbols: their outputs reuse the inputs' extents
 * ({@code ir.op.Shapes.outputExtents}), so the matmul's output is {@code [i0, i2, i5, r i3]}.
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
    private boolean oneTaken;

    SymbolNumbering(IrBuilder b) {
        this.b = b;
    }

    /**
     * The extents of a file tensor's axes. An op's output gets its constants and pending symbols (the op gives them
     * later). A tensor no op defines is built as nvFuser's tests build one: all symbolic with {@code makeContigTensor}
     * (each axis a new symbol, the fusion's {@code zeroVal()} right after the first), else with
     * {@code makeContigConcreteTensor}, whose {@code TensorViewBuilder::shape} creates a Val per extent first (a
     * constant takes a number like a symbol and prints as its value; 1 and 0 are the fusion's {@code oneVal()} and
     * {@code zeroVal()}, numbered once, when first made), then {@code build()} makes {@code zeroVal()}. In such a
     * tensor {@code D} is the run's device count as a constant, as nvFuser's tests pass
     * {@code communicator_->size()} ({@code makeContigConcreteTensor({num_devices, kTensorSize})} prints
     * {@code ideviceIdx.x0{4}} on 4 devices); other symbols stay symbolic (a {@code -1} in the shape).
     */
    List<Extent> extents(List<ExtentSpec> specs, boolean definedByOp, int devices) {
        List<Extent> out = new ArrayList<>();
        if (definedByOp || specs.stream().allMatch(e -> e instanceof ExtentSpec.Symbol)) {
            for (ExtentSpec e : specs) {
                out.add(switch (e) {
                    case ExtentSpec.Symbol s -> definedByOp ? new Extent.Symbolic(PENDING, s.name()) : fresh(s.name());
                    case ExtentSpec.Size c -> new Extent.Constant(c.value());
                });
            }
            return out;
        }
        for (ExtentSpec e : specs) {
            out.add(switch (e) {
                case ExtentSpec.Symbol s -> s.name().equals(FusionBindings.DEVICES_SYMBOL)
                        ? numberedConstant(devices) : b.freshSymbol(s.name());
                case ExtentSpec.Size c -> numberedConstant(c.value());
            });
        }
        takeZero();
        return out;
    }

    private Extent.Constant numberedConstant(long value) {
        if (value == 0) {
            takeZero();
        } else if (value == 1) {
            if (!oneTaken) b.skipSymbols(1);
            oneTaken = true;
        } else {
            b.skipSymbols(1);
        }
        return new Extent.Constant(value);
    }

    private void takeZero() {
        if (!zeroTaken) b.skipSymbols(1);
        zeroTaken = true;
    }

    private Extent.Symbolic fresh(String name) {
        Extent.Symbolic s = b.freshSymbol(name);
        takeZero(); // nvFuser's zeroVal(), created right after the first axis's extent
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
                List<Extent> given = ConversionExtents.outputExtents(wired, bindings);
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
            Extent e = from != null && !a.isBroadcast() && ConversionExtents.knownSame(bindings, own, from) ? from
                    : own instanceof Extent.Symbolic s && s.id() == PENDING ? fresh(s.name()) : own;
            axes.add(new IterDomain(a.id(), e, a.iterType(), a.parallelType()));
        }
        return out.withAxes(axes);
    }

    private static boolean isPending(TensorView t) {
        return t.axes().stream().anyMatch(a -> a.extent() instanceof Extent.Symbolic s && s.id() == PENDING);
    }
}
