package org.hostir.studio.ir.op;

import java.util.List;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/**
 * Which axes of a grouped_mm may be sharded, as nvFuser 81c4b22fd has them. GroupedMmaOp maps mat1's m and k and
 * mat2's k and n to the output like a matmul, and a 3-D operand's group axis to nothing
 * (csrc/logical_domain_map.cpp:490-560), so its DID shardings propagate and lower as a matmul's: n sharded is the
 * column-parallel form (each device its columns, no communication; tests/python/multidevice/test_matmul.py:288
 * test_column_parallel_grouped_mm), k sharded by an outer split the row-parallel form (rFactor'd into partial
 * products, {@code TensorView::rFactor} on a GroupedMmaOp, csrc/tensor_view.cpp:860-881, whose evaluate unsqueezes
 * the device axis, csrc/ir/composite_nodes.cpp:1226-1228, then an Allreduce; test_matmul.py:329
 * test_row_parallel_grouped_mm); both in test_transformer.py:20 test_grouped_mlp. Refused: the offsets and a group
 * axis sharded (nvFuser maps a 3-D operand's group axis to nothing, and resharding.cpp:351-372 takes an unmapped
 * DID on both sides for no resharding, so each device would run its g/D groups against all g offsets: experts
 * sharded on DIDx is not a grouped_mm form at that revision, which moves tokens to experts with MoeDispatch), the
 * axis the offsets split (each device would split its slice at the global offsets; composite_nodes.cpp:1189-1208),
 * and Stream axes (no nvFuser test streams a grouped_mm).
 */
final class GroupedMmSharding {
    private GroupedMmSharding() {}

    static void check(FusionOp.GroupedMm m, OpChecks c) {
        TensorView offsets = m.offsets();
        IterDomain bad = firstParallel(offsets, List.of(0));
        if (bad != null) {
            fail(c, offsets, bad, "group", "every device reads all g offsets (GroupedMmaOp's fallback,"
                    + " composite_nodes.cpp:1176-1183)");
            return;
        }
        for (TensorView t : List.of(m.a(), m.b(), m.output())) {
            for (IterDomain axis : t.axes()) {
                if (axis.isStream()) {
                    fail(c, t, axis, "", "no nvFuser test streams a grouped_mm");
                    return;
                }
            }
        }
        int a = Shapes.runtime(m.a()).size();
        int b = Shapes.runtime(m.b()).size();
        if (a == 3 && group(c, m.a(), 0) && split(c, m.b(), 1, "n") && split(c, m.output(), 1, "n")) return;
        if (b == 3 && group(c, m.b(), 0) && split(c, m.a(), 0, "m") && split(c, m.output(), 0, "m")) return;
        if (a == 2 && b == 2 && group(c, m.output(), 0) && split(c, m.a(), 1, "k") && split(c, m.b(), 0, "k")) {
            split(c, m.output(), 3, "k");
        }
    }

    /** True if the group axis at runtime position {@code p} is unsharded, else reports it. */
    private static boolean group(OpChecks c, TensorView t, int p) {
        IterDomain axis = firstParallel(t, List.of(p));
        if (axis == null) return true;
        fail(c, t, axis, "group", "a group axis maps to no axis of the other operand"
                + " (logical_domain_map.cpp:490-560), so each device would pair its groups with all the offsets; nvFuser moves tokens to sharded experts"
                + " with MoeDispatch");
        return false;
    }

    /** True if the axis at position {@code p} of {@code t}'s axes, which the groups split, is unsharded. */
    private static boolean split(OpChecks c, TensorView t, int p, String name) {
        IterDomain axis = p < t.axes().size() ? t.axes().get(p) : null;
        if (axis == null || !axis.isDeviceDim()) return true;
        fail(c, t, axis, name, name + " is the axis the offsets split, so each device would split its slice at the"
                + " global offsets (composite_nodes.cpp:1189-1208)");
        return false;
    }

    private static IterDomain firstParallel(TensorView t, List<Integer> runtimePositions) {
        List<IterDomain> axes = Shapes.runtime(t);
        for (int p : runtimePositions) {
            if (p < axes.size() && (axes.get(p).isDeviceDim() || axes.get(p).isStream())) return axes.get(p);
        }
        return null;
    }

    /** {@code role}: the axis's part in the op (group, m, n, k), or empty. */
    private static void fail(OpChecks c, TensorView t, IterDomain axis, String role, String why) {
        c.fail(OpRule.SHARDING_GROUPED_MM, t.label() + "'s " + (role.isEmpty() ? "" : role + " ") + "axis "
                + Shapes.extent(axis.extent()) + " is " + axis.parallelType().fileName() + ": " + why);
    }
}
