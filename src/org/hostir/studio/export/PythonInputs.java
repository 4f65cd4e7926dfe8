package org.hostir.studio.export;

import java.util.List;
import java.util.stream.Collectors;

import org.hostir.studio.ir.TensorView;

/** The unsharded input an exported script draws for a fusion input: its {@link InputDraw} in torch's spelling. */
final class PythonInputs {
    private PythonInputs() {}

    static String unsharded(ExportPlan p, TensorView t) throws ExportException {
        List<Long> shape = p.shape(t);
        String dtype = PythonExporter.torch(t.dtype());
        return switch (InputDraw.of(p, t)) {
            case InputDraw.Uniform u -> "torch.randint(0, " + u.bound() + ", " + tuple(shape) + ", dtype=" + dtype + ")";
            // argsort of uniform draws is a random permutation of self's axis in every line; keep its head
            case InputDraw.DistinctPositions d -> "torch.rand(" + join(d.full()) + ").argsort(dim=" + d.dim()
                    + ").narrow(" + d.dim() + ", 0, " + d.kept() + ").to(" + dtype + ")";
            case InputDraw.GroupEnds g -> "torch.cat([torch.randint(0, " + (g.split() + 1) + ", (" + (g.groups() - 1)
                    + ",)).sort().values, torch.tensor([" + g.split() + "])]).to(" + dtype + ")";
            case InputDraw.Normal n -> {
                String dims = join(shape);
                yield !CppTestExporter.randnDrawable(t.dtype()) ? "torch.randn(" + dims + ").to(" + dtype + ")"
                        : "torch.randn(" + dims + (dims.isEmpty() ? "" : ", ") + "dtype=" + dtype + ")";
            }
        };
    }

    private static String join(List<Long> shape) {
        return shape.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    private static String tuple(List<Long> shape) {
        return "(" + join(shape) + (shape.size() == 1 ? ",)" : ")");
    }
}
