package org.hostir.studio.ui.tests;

/** Fusion texts that several journeys open, each written once. */
public final class SampleFusions {
    private SampleFusions() {}

    /** A matmul whose contracted extents differ (K against N): one error marker on the op, a row in Problems. */
    public static final String MISMATCH = """
            {
              "format": "hostir-fusion/1",
              "name": "mismatch",
              "symbols": {"M": 8, "K": 4, "N": 6},
              "tensors": [
                {"name": "tv0", "dtype": "float", "axes": ["M", "K"], "mesh": "all"},
                {"name": "tv1", "dtype": "float", "axes": ["N", "N"], "mesh": "all"},
                {"name": "tv2", "dtype": "float", "mesh": "all",
                 "axes": ["M", "N", {"extent": "K", "iter": "reduction"}]}
              ],
              "ops": [{"op": "matmul", "inputs": ["tv0", "tv1"], "output": "tv2"}],
              "inputs": ["tv0", "tv1"],
              "outputs": ["tv2"]
            }
            """;
}
