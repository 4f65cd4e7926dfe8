package org.hostir.studio.tests.exec;

import java.util.Map;

import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.LoadedFusion;

/**
 * A fusion whose inputs are small vectors and whose output, their outer sum {@code c[m, n] = a[m] + b[n]}, is as
 * large as M x N: bound huge, it makes the device's allocation of {@code c} fail without a huge host input.
 */
final class OutOfMemoryFusion {
    private OutOfMemoryFusion() {}

    static final String TEXT = """
            {
              "format": "hostir-fusion/1",
              "name": "outer_sum",
              "symbols": {"M": 8, "N": 6},
              "tensors": [
                {"name": "a", "dtype": "float", "axes": ["M"]},
                {"name": "b", "dtype": "float", "axes": ["N"]},
                {"name": "a_col", "dtype": "float", "axes": ["M", {"extent": 1, "iter": "broadcast"}]},
                {"name": "b_row", "dtype": "float", "axes": [{"extent": 1, "iter": "broadcast"}, "N"]},
                {"name": "outer", "dtype": "float", "axes": ["M", "N"]}
              ],
              "ops": [
                {"op": "broadcast", "inputs": ["a"], "output": "a_col", "flags": [false, true]},
                {"op": "broadcast", "inputs": ["b"], "output": "b_row", "flags": [true, false]},
                {"op": "add", "inputs": ["a_col", "b_row"], "output": "outer"}
              ],
              "inputs": ["a", "b"],
              "outputs": ["outer"]
            }
            """;

    static LoadedFusion load(long m, long n) throws Exception {
        return FusionLoader.load(FusionReader.read(TEXT, "outer_sum"), 1, Map.of("M", m, "N", n));
    }
}
