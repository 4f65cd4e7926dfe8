package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.file.LoadedFusion;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Property over dtypes: the ops examples with every float tensor in bfloat16, half or double, sharded over 2 and
 * 4 devices on the CPU backend, validate against the unsharded reference (each op rounds to its dtype on store on
 * both sides; the error-bounded tolerance covers the order of the partial sums).
 */
class OpsDtypeRunTest {
    private static final List<String> POINTWISE = List.of("ops/unary_pointwise_dp", "ops/where_squeeze_expand_dp",
            "ops/reshape_dp_heads", "ops/allreduce_min", "ops/reduce_scatter_prod");
    private static final List<String> GEMMS = List.of("ops/mlp_dp_gelu", "ops/mlp_tp_gelu");

    @TestFactory
    Stream<DynamicTest> opsExamplesValidateInEveryFloatDtype() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String example : POINTWISE) {
            for (String dtype : List.of("bfloat16", "half", "double")) tests.addAll(runs(example, dtype));
        }
        for (String example : GEMMS) {
            for (String dtype : List.of("bfloat16", "half", "double")) tests.addAll(runs(example, dtype));
        }
        return tests.stream();
    }

    private static List<DynamicTest> runs(String example, String dtype) {
        List<DynamicTest> out = new ArrayList<>();
        for (int devices : new int[] {2, 4}) {
            out.add(dynamicTest(example + " in " + dtype + " on " + devices, () -> {
                LoadedFusion loaded = Runs.loadAs(example, dtype, devices);
                try (CpuBackend backend = new CpuBackend(devices, 10_000)) {
                    RunResult r = Runs.run(loaded, devices, Map.of(), backend, line -> { });
                    assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
                }
            }));
        }
        return out;
    }
}
