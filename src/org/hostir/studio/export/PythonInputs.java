package org.hostir.studio.export;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;

/**
 * The unsharded input an exported script draws for a fusion input, valid for its role as the engine's seeded inputs
 * are ({@code exec.tensor.Inputs}, which export may not import): index_select's and take_along_axis's index
 * uniform in [0, extent) of the axis it selects (nvFuser's own tests draw theirs so:
 * tests/python/direct/test_python_frontend.py:594 and :663 at 81c4b22fd, {@code torch.randint(0, 8, ...)});
 * grouped_mm's offsets the ends of a random partition of the axis they split; scatter's index distinct positions
 * in each line along its axis (repeated ones leave at::scatter undefined). Any other input is randn, cast.
 */
final class PythonInputs {
    private PythonInputs() {}

    static String unsharded(ExportPlan p, TensorView t) throws ExportException {
        List<Long> shape = p.shape(t);
        String dtype = PythonExporter.torch(t.dtype());
        if (t.dtype().isIntegral()) {
            String routed = routed(p, t, shape, dtype);
            if (routed != null) return routed;
            long rows = indexedRows(p, t);
            if (rows > 0) return "torch.randint(0, " + rows + ", " + tuple(shape) + ", dtype=" + dtype + ")";
        }
        String dims = join(shape);
        return !CppTestExporter.randnDrawable(t.dtype()) ? "torch.randn(" + dims + ").to(" + dtype + ")"
                : "torch.randn(" + dims + (dims.isEmpty() ? "" : ", ") + "dtype=" + dtype + ")";
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
    private static String routed(ExportPlan p, TensorView t, List<Long> shape, String dtype) throws ExportException {
        for (FusionOp op : p.fusion.uses(t)) {
            if (op instanceof FusionOp.GroupedMm g && g.offsets() == t && shape.size() == 1) {
                List<Long> a = p.shape(g.a());
                List<Long> b = p.shape(g.b());
                long split = a.size() == 3 ? b.getLast() : b.size() == 3 ? a.getFirst() : a.getLast();
                // g - 1 sorted cuts in [0, split] then split itself: cumulative group ends, empty groups allowed
                return "torch.cat([torch.randint(0, " + (split + 1) + ", (" + (shape.getFirst() - 1)
                        + ",)).sort().values, torch.tensor([" + split + "])]).to(" + dtype + ")";
            }
            if (op instanceof FusionOp.Scatter s && s.indices() == t && s.dim() >= 0 && s.dim() < shape.size()) {
                List<Long> self = p.shape(s.self());
                if (s.dim() < self.size() && shape.get(s.dim()) <= self.get(s.dim())) {
                    // argsort of uniform draws is a random permutation of self's axis in every line; keep its head
                    List<Long> full = new ArrayList<>(shape);
                    full.set(s.dim(), self.get(s.dim()));
                    return "torch.rand(" + join(full) + ").argsort(dim=" + s.dim() + ").narrow(" + s.dim() + ", 0, "
                            + shape.get(s.dim()) + ").to(" + dtype + ")";
                }
            }
        }
        return null;
    }

    private static String join(List<Long> shape) {
        return shape.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    private static String tuple(List<Long> shape) {
        return "(" + join(shape) + (shape.size() == 1 ? ",)" : ")");
    }
}
