package org.hostir.studio.export;

import java.util.List;
import java.util.stream.Collectors;

import org.hostir.studio.ir.TensorView;

/**
 * The unsharded input an exported C++ test draws for a fusion input: its {@link InputDraw} in ATen's spelling, on
 * the test's {@code options} (its device), as nvFuser's C++ tests draw indices ({@code at::randint(0, N, shape,
 * options_i)}, tests/cpp/test_gather.cpp:96 at 81c4b22fd).
 */
final class CppInputs {
    private CppInputs() {}

    static String unsharded(ExportPlan p, TensorView t) throws ExportException {
        String shape = braced(p.shape(t));
        String dtype = CppTestExporter.aten(t.dtype());
        return switch (InputDraw.of(p, t)) {
            case InputDraw.Uniform u -> "at::randint(0, " + u.bound() + ", " + shape + ", options.dtype(" + dtype + "))";
            // argsort of uniform draws is a random permutation of self's axis in every line; keep its head
            case InputDraw.DistinctPositions d -> "at::rand(" + braced(d.full()) + ", options).argsort(/*dim=*/"
                    + d.dim() + ").narrow(" + d.dim() + ", 0, " + d.kept() + ").to(" + dtype + ")";
            case InputDraw.GroupEnds g -> "at::cat({std::get<0>(at::randint(0, " + (g.split() + 1) + ", {"
                    + (g.groups() - 1) + "}, options.dtype(at::kLong)).sort()), at::full({1}, " + g.split()
                    + ", options.dtype(at::kLong))}).to(" + dtype + ")";
            // randn draws floating types only: others are drawn in float and converted
            case InputDraw.Normal n -> CppTestExporter.randnDrawable(t.dtype())
                    ? "at::randn(" + shape + ", options.dtype(" + dtype + "))"
                    : "at::randn(" + shape + ", options).to(" + dtype + ")";
        };
    }

    private static String braced(List<Long> shape) {
        return shape.stream().map(String::valueOf).collect(Collectors.joining(", ", "{", "}"));
    }
}
