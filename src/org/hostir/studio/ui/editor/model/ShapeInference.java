package org.hostir.studio.ui.editor.model;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.file.AxisSpec;
import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.op.AxisAlgebra;
import org.hostir.studio.ir.op.OpAttributes;
import org.hostir.studio.ir.op.OpDefinition;

/**
 * Derives an op's output axes from its inputs as the op's family proposes them over the file's axes
 * ({@link OpDefinition#proposedAxes}, docs/fusion-file-format.md "Ops"). The editor states an output's axes without
 * parallel types ({@link #unsharded}: nvFuser's propagation infers them) and keeps the user's own choices (see
 * {@link #merge}), because changing a parallel type across an op is how a fusion asks for communication.
 */
public final class ShapeInference {
    private ShapeInference() {}

    /** The output axes of {@code op} given its inputs' axes (in op order); empty when inputs are missing. */
    public static List<AxisSpec> derive(OpSpec op, List<List<AxisSpec>> inputs) {
        if (inputs.size() < op.op().minInputs()) return List.of();
        return op.op().definition().proposedAxes(runtimeAll(inputs), attributes(op), AXES);
    }

    /** Default attributes for a new op of this kind over inputs of these shapes. */
    public static OpSpec withDefaultAttributes(OpSpec op, List<List<AxisSpec>> inputs) {
        OpAttributes given = attributes(op);
        OpAttributes a = op.op().definition().defaultAttributes(given, runtimeAll(inputs), AXES);
        return a == given ? op : op.withAxes(a.axes()).withFlags(a.flags()).withPermute(a.permute());
    }

    private static OpAttributes attributes(OpSpec op) { return new OpAttributes(op.axes(), op.flags(), op.permute()); }

    private static List<List<AxisSpec>> runtimeAll(List<List<AxisSpec>> inputs) {
        return inputs.stream().map(ShapeInference::runtime).toList();
    }

    /**
     * Keeps what the user chose on the old output where the derived shape still lines up axis by axis: the
     * parallel type, and the extent when it is the same kind of axis (a user may name a derived extent).
     */
    public static List<AxisSpec> merge(List<AxisSpec> derived, List<AxisSpec> old) {
        if (old == null || old.size() != derived.size()) return derived;
        List<AxisSpec> out = new ArrayList<>();
        for (int i = 0; i < derived.size(); i++) {
            AxisSpec d = derived.get(i), o = old.get(i);
            out.add(new AxisSpec(d.extent(), d.iter(), d.iter() == IterType.REDUCTION && o.parallel() == ParallelType.STREAM
                    ? ParallelType.SERIAL : o.parallel()));
        }
        return out;
    }

    /** The axes with every parallel type Serial: what an op's output states before propagation infers its sharding. */
    public static List<AxisSpec> unsharded(List<AxisSpec> axes) {
        return axes.stream().map(a -> new AxisSpec(a.extent(), a.iter(), ParallelType.SERIAL)).toList();
    }

    /** Axes that exist at run time: reduction axes do not. */
    public static List<AxisSpec> runtime(List<AxisSpec> axes) {
        return axes.stream().filter(a -> a.iter() != IterType.REDUCTION).toList();
    }

    /** The file's axes as the op definitions derive them. */
    private static final AxisAlgebra<AxisSpec> AXES = new AxisAlgebra<>() {
        public boolean isUnit(AxisSpec a) {
            return a.iter() == IterType.BROADCAST || a.extent() instanceof ExtentSpec.Size(long v) && v == 1;
        }

        public boolean isDeviceDim(AxisSpec a) { return a.parallel().isDeviceDim(); }

        public AxisSpec broadcast() { return new AxisSpec(ExtentSpec.size(1), IterType.BROADCAST, ParallelType.SERIAL); }

        public AxisSpec plain(AxisSpec a) { return AxisSpec.of(a.extent()); }

        public AxisSpec contracted(AxisSpec a) {
            return new AxisSpec(a.extent(), IterType.REDUCTION, ParallelType.SERIAL);
        }

        public AxisSpec reduced(AxisSpec a) {
            return new AxisSpec(a.extent(), IterType.REDUCTION,
                    a.parallel() == ParallelType.STREAM ? ParallelType.SERIAL : a.parallel());
        }
    };

    /** Whether an op kind is known to the palette, in palette order. */
    public static List<OpKind> paletteOps() { return List.of(OpKind.values()); }
}
