package org.hostir.studio.ui.editor.model;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.file.AxisSpec;
import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.ParallelType;

/**
 * Derives an op's output axes from its inputs, following docs/fusion-file-format.md ("Ops"). Parallel types
 * follow the input axis an output axis comes from; the editor then keeps the user's own choices (see
 * {@link #merge}), because changing a parallel type across an op is how a fusion asks for communication.
 */
public final class ShapeInference {
    private ShapeInference() {}

    /** The output axes of {@code op} given its inputs' axes (in op order); empty when inputs are missing. */
    public static List<AxisSpec> derive(OpSpec op, List<List<AxisSpec>> inputs) {
        if (inputs.size() < op.op().minInputs()) return List.of();
        return switch (op.op().family()) {
            case SET -> set(runtime(inputs.get(0)), op.permute());
            case UNARY -> set(runtime(inputs.get(0)), List.of());
            case BINARY -> binary(runtime(inputs.get(0)), runtime(inputs.get(1)));
            case REDUCTION -> reduce(runtime(inputs.get(0)), op.axes());
            case BROADCAST -> broadcast(runtime(inputs.get(0)), op.flags());
            case WHERE -> binary(runtime(inputs.get(1)), runtime(inputs.get(2)));
            case SQUEEZE -> squeeze(runtime(inputs.get(0)), op.flags());
            // the expanded extents are the user's: the input's axes until they are edited
            case EXPAND, RESHAPE -> set(runtime(inputs.get(0)), List.of());
            case MATMUL -> matmul(runtime(inputs.get(0)), runtime(inputs.get(1)));
            case LINEAR -> linear(runtime(inputs.get(0)), runtime(inputs.get(1)));
        };
    }

    /** Default attributes for a new op of this kind over inputs of these shapes. */
    public static OpSpec withDefaultAttributes(OpSpec op, List<List<AxisSpec>> inputs) {
        int rank = inputs.isEmpty() ? 0 : runtime(inputs.get(0)).size();
        return switch (op.op().family()) {
            case REDUCTION -> op.axes().isEmpty() && rank > 0 ? op.withAxes(List.of(rank - 1)) : op;
            case BROADCAST -> {
                if (!op.flags().isEmpty()) yield op;
                List<Boolean> flags = new ArrayList<>();
                flags.add(true);
                for (int i = 0; i < rank; i++) flags.add(false);
                yield op.withFlags(flags);
            }
            case SQUEEZE -> op.flags().isEmpty() && !inputs.isEmpty()
                    ? op.withFlags(unitFlags(runtime(inputs.get(0)))) : op;
            case SET, UNARY, BINARY, WHERE, EXPAND, RESHAPE, MATMUL, LINEAR -> op;
        };
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

    /** Axes that exist at run time: reduction axes do not. */
    public static List<AxisSpec> runtime(List<AxisSpec> axes) {
        return axes.stream().filter(a -> a.iter() != IterType.REDUCTION).toList();
    }

    private static List<AxisSpec> set(List<AxisSpec> in, List<Integer> permute) {
        if (permute.isEmpty() || permute.size() != in.size()) return in;
        List<AxisSpec> out = new ArrayList<>();
        for (int p : permute) {
            if (p < 0 || p >= in.size()) return in;
            out.add(in.get(p));
        }
        return out;
    }

    private static List<AxisSpec> binary(List<AxisSpec> a, List<AxisSpec> b) {
        if (a.size() != b.size()) return a.size() >= b.size() ? a : b;
        List<AxisSpec> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) out.add(isUnit(a.get(i)) && !isUnit(b.get(i)) ? b.get(i) : a.get(i));
        return out;
    }

    private static List<AxisSpec> reduce(List<AxisSpec> in, List<Integer> axes) {
        List<AxisSpec> out = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            AxisSpec a = in.get(i);
            // a Stream axis cannot be a reduction (rule stream.reduction): the reduced axis becomes Serial
            out.add(axes.contains(i) ? new AxisSpec(a.extent(), IterType.REDUCTION,
                    a.parallel() == ParallelType.STREAM ? ParallelType.SERIAL : a.parallel()) : a);
        }
        return out;
    }

    private static List<AxisSpec> broadcast(List<AxisSpec> in, List<Boolean> flags) {
        List<AxisSpec> out = new ArrayList<>();
        int next = 0;
        for (boolean f : flags) {
            if (f) out.add(new AxisSpec(ExtentSpec.size(1), IterType.BROADCAST, ParallelType.SERIAL));
            else if (next < in.size()) out.add(in.get(next++));
        }
        while (next < in.size()) out.add(in.get(next++));
        return out;
    }

    /** The input's axes without the flagged ones (flags per input axis, as squeeze takes them). */
    private static List<AxisSpec> squeeze(List<AxisSpec> in, List<Boolean> flags) {
        List<AxisSpec> out = new ArrayList<>();
        for (int i = 0; i < in.size(); i++) {
            if (i >= flags.size() || !flags.get(i)) out.add(in.get(i));
        }
        return out;
    }

    /** A new squeeze removes the input's broadcast and extent-1 axes. */
    private static List<Boolean> unitFlags(List<AxisSpec> in) {
        List<Boolean> flags = new ArrayList<>();
        for (AxisSpec a : in) {
            flags.add(a.iter() == IterType.BROADCAST || a.extent() instanceof ExtentSpec.Size s && s.value() == 1);
        }
        return flags;
    }

    private static List<AxisSpec> matmul(List<AxisSpec> a, List<AxisSpec> b) {
        if (a.isEmpty() || b.isEmpty()) return List.of();
        AxisSpec k = a.get(a.size() - 1);
        List<AxisSpec> aBatch = a.size() >= 2 ? a.subList(0, a.size() - 2) : List.of();
        List<AxisSpec> bBatch = b.size() >= 2 ? b.subList(0, b.size() - 2) : List.of();
        List<AxisSpec> out = new ArrayList<>(batch(aBatch, bBatch));
        if (a.size() >= 2) out.add(a.get(a.size() - 2));
        if (b.size() >= 2) out.add(b.get(b.size() - 1));
        out.add(reduction(k));
        return out;
    }

    private static List<AxisSpec> linear(List<AxisSpec> in, List<AxisSpec> w) {
        if (in.isEmpty() || w.isEmpty()) return List.of();
        List<AxisSpec> out = new ArrayList<>(in.subList(0, in.size() - 1));
        if (w.size() >= 2) out.add(plain(w.get(0)));
        out.add(reduction(in.get(in.size() - 1)));
        return out;
    }

    /** Batch axes broadcast right-aligned; a DID axis counts as extent 1 (each rank holds one slice). */
    private static List<AxisSpec> batch(List<AxisSpec> a, List<AxisSpec> b) {
        int n = Math.max(a.size(), b.size());
        List<AxisSpec> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            AxisSpec x = i - (n - a.size()) >= 0 ? a.get(i - (n - a.size())) : null;
            AxisSpec y = i - (n - b.size()) >= 0 ? b.get(i - (n - b.size())) : null;
            if (x == null) out.add(y);
            else if (y == null) out.add(x);
            else out.add(isUnit(x) && !isUnit(y) && !y.parallel().isDeviceDim() ? y : x);
        }
        return out;
    }

    private static boolean isUnit(AxisSpec a) {
        return a.iter() == IterType.BROADCAST || a.extent() instanceof ExtentSpec.Size(long v) && v == 1;
    }

    private static AxisSpec reduction(AxisSpec a) {
        return new AxisSpec(a.extent(), IterType.REDUCTION, ParallelType.SERIAL);
    }

    private static AxisSpec plain(AxisSpec a) { return AxisSpec.of(a.extent()); }

    /** Whether an op kind is known to the palette, in palette order. */
    public static List<OpKind> paletteOps() { return List.of(OpKind.values()); }
}
