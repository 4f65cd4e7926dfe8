package org.hostir.studio.exec.tensor;

import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IterDomain;
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
                if (v == null) throw new IllegalArgumentException("symbol " + s.name() + " is not bound");
                yield v;
            }
        };
    }

    /** The shape of the whole (unsharded) tensor, as the reference interpreter holds it. */
    public static long[] global(TensorView tv, Map<String, Long> bindings) { return shape(tv, bindings, false); }

    /** The shape one rank allocates: DID axes have size 1. */
    public static long[] local(TensorView tv, Map<String, Long> bindings) { return shape(tv, bindings, true); }

    private static long[] shape(TensorView tv, Map<String, Long> bindings, boolean local) {
        List<IterDomain> axes = tv.allocationAxes();
        long[] s = new long[axes.size()];
        for (int i = 0; i < s.length; i++) {
            IterDomain a = axes.get(i);
            s[i] = a.isBroadcast() || (local && a.isDeviceDim()) ? 1 : extent(a.extent(), bindings);
        }
        return s;
    }
}
