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
                boolean outer = i + 1 < printed.size() && isInnerOf(printed.get(i + 1), e);
                if (!outer) logical.add(new IterDomain(a.id(), e, a.iterType(), ParallelType.SERIAL));
                continue;
            }
            if (i == 0 || !(printed.get(i - 1).extent() instanceof Extent factor) || !isInnerOf(a, factor)) {
                throw new DumpFormatException("an extent other than a symbol, a number or an outer split's"
                        + " ( ceilDiv(extent, factor) )", at);
            }
            Extent whole = (Extent) ((ScalarBinary) a.extent()).lhs();
            IterDomain in = new IterDomain(Integer.MAX_VALUE - a.id(), whole, a.iterType(), ParallelType.SERIAL);
            logical.add(in);
            transforms.add(new IterTransform.Split(in.id(), factor, false, printed.get(i - 1), a));
            split = true;
        }
        if (!split) {
            List<IterDomain> axes = read.stream().map(p -> new IterDomain(p.axis().id(), (Extent) p.axis().extent(),
                    p.axis().iterType(), p.axis().parallelType(), p.expanded())).toList();
            return new TensorView(id, null, dtype, memory, axes, mesh);
        }
        return new TensorView(id, null, dtype, memory, logical, mesh,
                new LoopDomain(logical, transforms, printed, false));
    }

    /** Whether {@code a}'s extent is {@code ceilDiv(X, factor)} with X a symbol or a number. */
    private static boolean isInnerOf(LoopDomain.Axis a, Extent factor) {
        return a.extent() instanceof ScalarBinary b && b.op() == ScalarBinary.Op.CEIL_DIV && b.lhs() instanceof Extent
                && b.rhs().equals(factor);
    }
}
