package org.hostir.studio.export;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;

/**
 * How an export draws the unsharded value of a fusion input, valid for its role as the engine's seeded inputs are
 * ({@code exec.tensor.Inputs}, which export may not import): index_select's and take_along_axis's index uniform in
 * [0, extent) of the axis it selects (nvFuser's own tests draw theirs so: tests/python/direct/test_python_frontend.py:594
 * and :663, tests/cpp/test_gather.cpp:96 at 81c4b22fd); grouped_mm's offsets the ends of a random partition of the
 * axis they split; scatter's index distinct positions in each line along its axis (repeated ones leave at::scatter
 * undefined). Any other input is {@link Normal}. Decided once here; {@link PythonInputs} and {@link CppInputs} spell it.
 */
sealed interface InputDraw {
    /** randn in the input's dtype (drawn in float and cast where randn cannot draw it). */
    record Normal() implements InputDraw {}

    /** Integers uniform in [0, bound). */
    record Uniform(long bound) implements InputDraw {}

    /** {@code groups} cumulative group ends: {@code groups - 1} sorted cuts in [0, split], then split; empty groups allowed. */
    record GroupEnds(long groups, long split) implements InputDraw {}

    /**
     * The first {@code kept} of a random permutation along {@code dim} of a tensor of shape {@code full} (the
     * index's shape with self's extent at {@code dim}): distinct positions in every line.
     */
    record DistinctPositions(List<Long> full, int dim, long kept) implements InputDraw {
        public DistinctPositions {
            full = List.copyOf(full);
        }
    }

    static InputDraw of(ExportPlan p, TensorView t) throws ExportException {
        if (!t.dtype().isIntegral()) return new Normal();
        InputDraw routed = routed(p, t, p.shape(t));
        if (routed != null) return routed;
        long rows = indexedRows(p, t);
        return rows > 0 ? new Uniform(rows) : new Normal();
    }

    /** The smallest extent of an axis the input indexes (index_select, take_along_axis), or 0 if none. */
    private static long indexedRows(ExportPlan p, TensorView t) throws ExportException {
        long rows = 0;
        for (FusionOp op : p.fusion.uses(t)) {
            TensorView input = op instanceof FusionOp.IndexSelect s && s.indices() == t ? s.input()
                    : op instanceof FusionOp.TakeAlongAxis a && a.indices() == t ? a.input() : null;
            int dim = op instanceof FusionOp.IndexSelect s ? s.dim() : op instanceof FusionOp.TakeAlongAxis a ? a.dim() : -1;
            if (input == null) continue;
            List<Long> in = p.shape(input);
            if (dim >= 0 && dim < in.size() && in.get(dim) > 0) rows = rows == 0 ? in.get(dim) : Math.min(rows, in.get(dim));
        }
        return rows;
    }

    /** grouped_mm's offsets and scatter's index, as {@code Inputs.routed} draws them; null for other inputs. */
    private static InputDraw routed(ExportPlan p, TensorView t, List<Long> shape) throws ExportException {
        for (FusionOp op : p.fusion.uses(t)) {
            if (op instanceof FusionOp.GroupedMm g && g.offsets() == t && shape.size() == 1) {
                List<Long> a = p.shape(g.a());
                List<Long> b = p.shape(g.b());
                long split = a.size() == 3 ? b.getLast() : b.size() == 3 ? a.getFirst() : a.getLast();
                return new GroupEnds(shape.getFirst(), split);
            }
            if (op instanceof FusionOp.Scatter s && s.indices() == t && s.dim() >= 0 && s.dim() < shape.size()) {
                List<Long> self = p.shape(s.self());
                if (s.dim() < self.size() && shape.get(s.dim()) <= self.get(s.dim())) {
                    List<Long> full = new ArrayList<>(shape);
                    full.set(s.dim(), self.get(s.dim()));
                    return new DistinctPositions(full, s.dim(), shape.get(s.dim()));
                }
            }
        }
        return null;
    }
}
