package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.extent;
import static org.hostir.studio.ir.op.Shapes.isUnit;
import static org.hostir.studio.ir.op.Shapes.reductions;
import static org.hostir.studio.ir.op.Shapes.runtime;
import static org.hostir.studio.ir.op.Shapes.shape;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/**
 * What matmul ({@code at::matmul}: 1-D, 2-D and batched) and linear ({@code at::linear}) share. The output lists
 * the batch axes, M and N, then the contracted K as its last axis, a reduction axis, as nvFuser prints it
 * ({@code T2[iS6{i2}, iS7{i5}, rS8{i3}] = matmul(T0[.., K], T1[K, N])}).
 *
 * <p>Batch axes broadcast as in at::matmul, with one addition: a DID-parallel axis counts as extent 1, because
 * each rank multiplies its local shard, where that axis has extent 1. This is what lets the seeds' matmul+AR
 * fusion, {@code [DIDx D, S, M, K] x [DIDx D, K, N] -> [DIDx D, S, M, N, rK]}, pair each device's slices.
 */
final class MatmulShapes {
    private MatmulShapes() {}

    /** Broadcasts batch axes right-aligned; null (after reporting) when they do not broadcast. */
    static List<Extent> batch(OpChecks c, List<IterDomain> a, List<IterDomain> b) {
        List<IterDomain> chosen = batchAxes(a, b, c::same);
        List<Extent> out = new ArrayList<>();
        int n = chosen.size();
        for (int i = 0; i < n; i++) {
            if (chosen.get(i) == null) {
                IterDomain x = a.get(i - (n - a.size()));
                IterDomain y = b.get(i - (n - b.size()));
                c.fail(OpRule.SHAPE_MATMUL, "batch axes do not broadcast: " + c.valued(x.extent()) + " in "
                        + shape(a) + " against " + c.valued(y.extent()) + " in " + shape(b));
                return null;
            }
            out.add(chosen.get(i).extent());
        }
        return out;
    }

    /**
     * The batch axes of the output, right-aligned as in at::matmul: per position the operand axis whose extent it
     * takes, null where the two do not broadcast. The shape rule and the output's extents share it.
     */
    static List<IterDomain> batchAxes(List<IterDomain> a, List<IterDomain> b, BiPredicate<Extent, Extent> same) {
        int n = Math.max(a.size(), b.size());
        List<IterDomain> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            IterDomain x = i - (n - a.size()) >= 0 ? a.get(i - (n - a.size())) : null;
            IterDomain y = i - (n - b.size()) >= 0 ? b.get(i - (n - b.size())) : null;
            if (x == null || y == null) {
                out.add(x == null ? y : x);
            } else if (same.test(x.extent(), y.extent())) {
                out.add(isUnit(x) && !x.isDeviceDim() ? y : x);
            } else if (localUnit(x) && !localUnit(y)) {
                out.add(y);
            } else if (localUnit(y) && !localUnit(x)) {
                out.add(x);
            } else if (localUnit(x) && localUnit(y) && !(x.isDeviceDim() && y.isDeviceDim())) {
                // a broadcast axis against a device axis: the device axis survives
                out.add(x.isDeviceDim() ? x : y);
            } else {
                out.add(null);
            }
        }
        return out;
    }

    /** Extent 1 in each rank's local tensor: broadcast, constant 1, or sharded across devices. */
    private static boolean localUnit(IterDomain a) {
        return isUnit(a) || a.isDeviceDim();
    }

    /** The output: {@code expected} non-reduction extents, then K as its one reduction axis, last. */
    static boolean output(OpChecks c, OpRule rule, TensorView out, List<Extent> expected, Extent k) {
        if (!c.sameShape(rule, "output's non-reduction axes", runtime(out), expected)) return false;
        List<IterDomain> red = reductions(out);
        if (red.size() != 1 || !out.axes().getLast().isReduction()) {
            c.fail(rule, "the output " + shape(out.axes()) + " must end with the contracted axis as its only"
                    + " reduction axis, r" + extent(k));
            return false;
        }
        return c.sameShape(rule, "output's reduction axis", red, List.of(k));
    }
}
