package org.hostir.studio.exec.tensor;

import java.util.Map;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.MeshLookup;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.ScalarBinary;
import org.hostir.studio.ir.TensorView;

/**
 * Runtime shapes of TensorViews under symbol bindings (user symbol name -> value, {@code D} = number of
 * devices, as {@code io.FusionBindings.asMap} gives them): the TensorView's axes without reduction axes, broadcast axes of size 1, and a DID axis of its full
 * extent in the unsharded ({@link #global}) world or of size 1 in a rank's ({@link #local}) one.
 */
public final class RuntimeShapes {
    private RuntimeShapes() {}

    public static long extent(Extent extent, Map<String, Long> bindings) {
        return switch (extent) {
            case Extent.Constant c -> c.value();
            case Extent.Symbolic s -> {
                Long v = bindings.get(s.name());
                if (v == null) throw new IllegalArgumentException("symbol " + Texts.quote(s.name()) + " is not bound");
                yield v;
            }
        };
    }

    /** The shape of the whole (unsharded) tensor, as the reference interpreter holds it. */
    public static long[] global(TensorView tv, Map<String, Long> bindings) { return shape(tv, bindings, false); }

    /** The shape one rank allocates: DID axes have size 1. */
    public static long[] local(TensorView tv, Map<String, Long> bindings) { return shape(tv, bindings, true); }

    private static long[] shape(TensorView tv, Map<String, Long> bindings, boolean local) {
        long[] s = new long[tv.allocationAxes().size()];
        int k = 0;
        for (int i = 0; i < tv.rank(); i++) {
            IterDomain a = tv.axis(i);
            if (a.isReduction()) continue;
            s[k++] = a.isBroadcast() ? 1 : local ? scalar(tv.localExtent(i), bindings) : extent(a.extent(), bindings);
        }
        return s;
    }

    /** A local extent: an extent, or {@code ceilDiv(extent, mesh size)} on a loop-split device axis. */
    private static long scalar(Scalar s, Map<String, Long> bindings) {
        return switch (s) {
            case Extent e -> extent(e, bindings);
            case ScalarBinary b when b.op() == ScalarBinary.Op.CEIL_DIV ->
                    Math.ceilDiv(scalar(b.lhs(), bindings), scalar(b.rhs(), bindings));
            case ScalarBinary b -> throw new IllegalArgumentException("not a local extent: " + b.op());
            case NamedScalar n -> throw new IllegalArgumentException("not a local extent: " + Texts.quote(n.name()));
            case MeshLookup m -> throw new IllegalArgumentException("not a local extent: " + m.kind());
        };
    }
}
