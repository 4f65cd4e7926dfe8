package org.hostir.studio.ir.parse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

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
 * A tensor's printed domain read back. nvFuser prints a tensor's loop domain only (TensorDomain::toString with
 * loop_only, csrc/ir/internal_base_nodes.cpp:1512-1543 at 81c4b22fd), so an outer split shows as its two parts,
 * {@code [ideviceIdx.x9{4}, iS10{( ceilDiv(i0, 4) )}, ...]}: the part of extent F followed by the part of extent
 * {@code ceilDiv(X, F)}, or, X a number, that extent folded ({@code [ideviceIdx.x9{2}, iS10{4}]} for 8 split by 2,
 * IterDomain::toString prints {@code extent()->toInlineString()}, line 316). Such a pair is read as
 * {@code outer_split} of a logical axis of extent X (whose id the dump does not print: it is numbered down from the
 * top by the inner part's id, so a tensor read twice is equal and meets no printed id); every other axis is a
 * logical axis itself, and {@link #inLogicalOrder} orders them. Any other extent expression is
 * not read. Which printed axes pair up is decided by {@link #pairs}.
 */
final class LoopDomainReading {
    private LoopDomainReading() {}

    /** One printed iter domain: its loop axis, and whether it printed as an expanded broadcast. */
    record Printed(LoopDomain.Axis axis, boolean expanded) {}

    static TensorView tensor(int id, DataType dtype, MemoryType memory, List<Printed> read, DeviceMesh mesh,
                             int at) {
        List<LoopDomain.Axis> printed = read.stream().map(Printed::axis).toList();
        int[] outerOf = pairs(printed);
        List<Placed> placed = new ArrayList<>();
        List<IterTransform> transforms = new ArrayList<>();
        boolean split = false;
        for (int i = 0; i < printed.size(); i++) {
            LoopDomain.Axis a = printed.get(i);
            boolean serial = a.parallelType() == ParallelType.SERIAL;
            if (outerOf[i] < 0) {
                if (!(a.extent() instanceof Extent e)) {
                    throw new DumpFormatException("an extent other than a symbol, a number or an outer split's"
                            + " ( ceilDiv(extent, factor) )", at);
                }
                if (!isOuter(outerOf, i)) {
                    placed.add(new Placed(new IterDomain(a.id(), e, a.iterType(), ParallelType.SERIAL), i, serial,
                            true));
                }
                continue;
            }
            LoopDomain.Axis out = printed.get(outerOf[i]);
            IterDomain in = new IterDomain(Integer.MAX_VALUE - a.id(), whole(a, out), a.iterType(),
                    ParallelType.SERIAL);
            placed.add(new Placed(in, i, true, false));
            transforms.add(new IterTransform.Split(in.id(), out.extent(), false, out, a));
            split = true;
        }
        List<IterDomain> logical = inLogicalOrder(placed);
        boolean transformed = split || printed.stream().anyMatch(LoopDomain.Axis::rfactor);
        if (transformed && read.stream().anyMatch(Printed::expanded)) {
            // a LoopDomain's axes carry no expanded flag: read on, the axis would print back as {8}, not {1 ex 8}
            throw new DumpFormatException("an expanded broadcast axis in a split or rFactor'd domain", at);
        }
        if (!transformed) {
            List<IterDomain> axes = read.stream().map(p -> new IterDomain(p.axis().id(), (Extent) p.axis().extent(),
                    p.axis().iterType(), p.axis().parallelType(), p.expanded())).toList();
            return new TensorView(id, null, dtype, memory, axes, mesh);
        }
        return new TensorView(id, null, dtype, memory, logical, mesh,
                new LoopDomain(logical, transforms, printed, false));
    }

    /**
     * A logical axis read, the printed position that places it (its own, or its split's inner part's), whether that
     * printed axis is Serial, and whether the axis's own id is printed.
     */
    private record Placed(IterDomain axis, int position, boolean serial, boolean idPrinted) {}

    /**
     * The logical axes in order. nvFuser's FinalizeMultideviceDomains moves the parallelized loop ids to the front
     * and keeps the Serial ones in order behind them (reorderParallelizedToFront, csrc/multidevice/utils.cpp:252-275,
     * "orders unspecified IterDomains to the back stably"), so the Serial
     * printed axes keep the logical order: each axis is placed by its Serial axis. An axis printed only as a parallel
     * one of its own id (an rFactor'd partial's device axis, which the Studio prints without nvFuser's "rf" mark:
     * {@code [istreamIdx20{3}, ideviceIdx.x19{2}, iS21{..}, iS18{2}]} for the logical {@code [t, h, d]}) is placed
     * by its id after the printed logical axes numbered below it (an op numbers its output's logical axes in order),
     * else at its printed position.
     */
    private static List<IterDomain> inLogicalOrder(List<Placed> placed) {
        double[] key = new double[placed.size()];
        for (int k = 0; k < placed.size(); k++) {
            Placed p = placed.get(k);
            key[k] = p.position();
            if (p.serial() || !p.idPrinted()) continue;
            int after = -1;
            for (Placed q : placed) {
                if (q.serial() && q.idPrinted() && q.axis().id() < p.axis().id()) after = Math.max(after, q.position());
            }
            if (after >= 0) key[k] = after + 0.5;
        }
        return IntStream.range(0, placed.size()).boxed()
                .sorted(Comparator.comparingDouble((Integer k) -> key[k]).thenComparing(k -> k))
                .map(k -> placed.get(k).axis()).toList();
    }

    /** The split's input extent: X of the inner part's {@code ceilDiv(X, F)}, or F times a folded inner extent. */
    private static Extent whole(LoopDomain.Axis inner, LoopDomain.Axis outer) {
        if (inner.extent() instanceof ScalarBinary b) return (Extent) b.lhs();
        return new Extent.Constant(((Extent.Constant) outer.extent()).value()
                * ((Extent.Constant) inner.extent()).value());
    }

    private static boolean isOuter(int[] outerOf, int j) {
        return Arrays.stream(outerOf).anyMatch(o -> o == j);
    }

    /**
     * For each printed position, the position of its split's outer part if it is an inner part, else -1. In order:
     * <ol>
     * <li>an inner part {@code ceilDiv(X, F)} and the axis of extent F numbered just before it (nvFuser numbers a
     * split's outputs outer then inner, IterDomain::split, wherever a reorder puts them:
     * {@code [istreamIdx7{3}, ideviceIdx.x9{2}, iS8{( ceilDiv(i0, 3) )}]});</li>
     * <li>an inner part {@code ceilDiv(X, F)} whose outer part was replaced by another transform of the same extent
     * (a Swizzle1D gives it a fresh number: {@code [istreamIdx18{4}, ideviceIdx.x19{4}, iS17{( ceilDiv(i0, 4) )}]},
     * 16 not printed) or that the Studio numbered otherwise: the nearest axis of extent F printed before it that is
     * no other split's part. The swizzle itself is not printed, so it is not rebuilt: the read axis is the split's
     * outer part, with the parallel type printed;</li>
     * <li>a folded pair: a Stream or device axis of extent F printed before a Serial axis of the same iter type
     * numbered just after it, neither another split's part ({@code [ideviceIdx.x9{2}, ..., iS10{4}]}: 8 split by 2).
     * The dump cannot tell this from two logical axes so parallelized (a logical axis of extent D on DIDx numbered
     * just before a Serial one, as the seeds' {@code [ideviceIdx.x17{4}, iS18{3}, iS19{3}]}), so it is read so only
     * where the print shows the domain transformed: another split read above, or ids not increasing (a tensor's
     * logical axes are numbered in order as its op creates them; a split's parts are numbered after them, and
     * sharding reorders them: {@code [ideviceIdx.x11{2}, iS2{2}, iS12{4}]}).</li>
     * </ol>
     */
    static int[] pairs(List<LoopDomain.Axis> printed) {
        int n = printed.size();
        int[] outerOf = new int[n];
        Arrays.fill(outerOf, -1);
        boolean[] taken = new boolean[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (!taken[j] && printed.get(j).id() == printed.get(i).id() - 1
                        && isInnerOf(printed.get(i), printed.get(j))) {
                    pair(outerOf, taken, i, j);
                }
            }
        }
        for (int i = 0; i < n; i++) {
            if (taken[i] || printed.get(i).extent() instanceof Extent) continue;
            for (int j = i - 1; j >= 0 && outerOf[i] < 0; j--) {
                if (!taken[j] && isInnerOf(printed.get(i), printed.get(j))) pair(outerOf, taken, i, j);
            }
        }
        if (!transformed(printed, outerOf)) return outerOf;
        for (int j = 0; j < n; j++) {
            for (int i = j + 1; i < n && !taken[j]; i++) {
                if (!taken[i] && isFoldedPair(printed.get(j), printed.get(i))) pair(outerOf, taken, i, j);
            }
        }
        return outerOf;
    }

    private static boolean transformed(List<LoopDomain.Axis> printed, int[] outerOf) {
        if (Arrays.stream(outerOf).anyMatch(o -> o >= 0)) return true;
        for (int i = 1; i < printed.size(); i++) {
            if (printed.get(i).id() < printed.get(i - 1).id()) return true;
        }
        return false;
    }

    private static void pair(int[] outerOf, boolean[] taken, int inner, int outer) {
        outerOf[inner] = outer;
        taken[inner] = true;
        taken[outer] = true;
    }

    /** Whether {@code a}'s extent is {@code ceilDiv(X, F)}, X a symbol or a number, F {@code outer}'s extent. */
    private static boolean isInnerOf(LoopDomain.Axis a, LoopDomain.Axis outer) {
        return outer.extent() instanceof Extent factor && a.extent() instanceof ScalarBinary b
                && b.op() == ScalarBinary.Op.CEIL_DIV && b.lhs() instanceof Extent && b.rhs().equals(factor);
    }

    /** A sharding split with both extents numbers: {@code outer} Stream or device, {@code inner} Serial, ids n, n+1. */
    private static boolean isFoldedPair(LoopDomain.Axis outer, LoopDomain.Axis inner) {
        return inner.id() == outer.id() + 1 && outer.extent() instanceof Extent.Constant
                && inner.extent() instanceof Extent.Constant && inner.iterType() == outer.iterType()
                && (outer.isDeviceDim() || outer.parallelType() == ParallelType.STREAM)
                && inner.parallelType() == ParallelType.SERIAL;
    }
}
