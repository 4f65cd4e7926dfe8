package org.hostir.studio.ir.parse;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterTransform;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.ScalarBinary;
import org.hostir.studio.ir.TensorView;

/**
 * A tensor's printed domain read back. nvFuser prints a tensor's loop domain, so an outer split shows as its two
 * parts, {@code [ideviceIdx.x9{4}, iS10{( ceilDiv(i0, 4) )}, ...]}: the part of extent F followed by the part of
 * extent {@code ceilDiv(X, F)}. Such a pair is read as {@code outer_split} of a logical axis of extent X (whose id
 * the dump does not print: it is numbered down from the top by the inner part's id, so a tensor read twice is
 * equal and meets no printed id); every other axis is a logical axis itself. Any other extent
 * expression is not read.
 */
final class LoopDomainReading {
    private LoopDomainReading() {}

    /** One printed iter domain: its loop axis, and whether it printed as an expanded broadcast. */
    record Printed(LoopDomain.Axis axis, boolean expanded) {}

    static TensorView tensor(int id, DataType dtype, MemoryType memory, List<Printed> read, DeviceMesh mesh,
                             int at) {
        List<LoopDomain.Axis> printed = read.stream().map(Printed::axis).toList();
        List<IterDomain> logical = new ArrayList<>();
        List<IterTransform> transforms = new ArrayList<>();
        boolean split = false;
        for (int i = 0; i < printed.size(); i++) {
            LoopDomain.Axis a = printed.get(i);
            if (a.extent() instanceof Extent e) {
                if (innerOf(printed, i) < 0) {
                    logical.add(new IterDomain(a.id(), e, a.iterType(), ParallelType.SERIAL));
                }
                continue;
            }
            int outer = outerOf(printed, i);
            if (outer < 0) {
                throw new DumpFormatException("an extent other than a symbol, a number or an outer split's"
                        + " ( ceilDiv(extent, factor) )", at);
            }
            Extent whole = (Extent) ((ScalarBinary) a.extent()).lhs();
            IterDomain in = new IterDomain(Integer.MAX_VALUE - a.id(), whole, a.iterType(), ParallelType.SERIAL);
            logical.add(in);
            LoopDomain.Axis out = printed.get(outer);
            transforms.add(new IterTransform.Split(in.id(), out.extent(), false, out, a));
            split = true;
        }
        if (!split && printed.stream().noneMatch(LoopDomain.Axis::rfactor)) {
            List<IterDomain> axes = read.stream().map(p -> new IterDomain(p.axis().id(), (Extent) p.axis().extent(),
                    p.axis().iterType(), p.axis().parallelType(), p.expanded())).toList();
            return new TensorView(id, null, dtype, memory, axes, mesh);
        }
        return new TensorView(id, null, dtype, memory, logical, mesh,
                new LoopDomain(logical, transforms, printed, false));
    }

    /**
     * The outer part of the split whose inner part, printed at {@code i}, has extent {@code ceilDiv(X, F)}: the axis
     * of extent F numbered just before it (nvFuser numbers a split's outputs outer then inner, wherever a reorder
     * puts them: {@code [istreamIdx7{3}, ideviceIdx.x9{2}, iS8{( ceilDiv(i0, 3) )}]}), else the axis printed just
     * before it (the Studio's numbering); -1 if neither.
     */
    private static int outerOf(List<LoopDomain.Axis> printed, int i) {
        LoopDomain.Axis inner = printed.get(i);
        for (int j = 0; j < printed.size(); j++) {
            if (printed.get(j).id() == inner.id() - 1 && isInnerOf(inner, printed.get(j))) return j;
        }
        return i > 0 && isInnerOf(inner, printed.get(i - 1)) ? i - 1 : -1;
    }

    /** The printed position of the inner part whose outer part is printed at {@code j}, or -1. */
    private static int innerOf(List<LoopDomain.Axis> printed, int j) {
        for (int i = 0; i < printed.size(); i++) {
            if (!(printed.get(i).extent() instanceof Extent) && outerOf(printed, i) == j) return i;
        }
        return -1;
    }

    /** Whether {@code a}'s extent is {@code ceilDiv(X, F)}, X a symbol or a number, F {@code outer}'s extent. */
    private static boolean isInnerOf(LoopDomain.Axis a, LoopDomain.Axis outer) {
        return outer.extent() instanceof Extent factor && a.extent() instanceof ScalarBinary b
                && b.op() == ScalarBinary.Op.CEIL_DIV && b.lhs() instanceof Extent && b.rhs().equals(factor);
    }
}
