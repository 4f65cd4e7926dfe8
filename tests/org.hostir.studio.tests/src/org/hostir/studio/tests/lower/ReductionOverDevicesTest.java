package org.hostir.studio.tests.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.engine.BackendPlan;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;

/**
 * Issue 30, items 1 and 5: a reduction, matmul or linear whose output reduces its contracted axis over the devices
 * (an {@code r} axis parallelized DIDx, as nvFuser's sharding propagation leaves a row-parallel layer) lowers as
 * nvFuser's DecomposeReshardingsPass makes it (csrc/preseg_passes/decompose_reshardings.cpp at 81c4b22fd): a
 * local op into partial results ({@code rFactorLoopSplits}, lines 313-407), then an Allreduce, or a ReduceScatter
 * when the output keeps another axis sharded; a bias is added once, after it
 * ({@code decomposeRowParallelLinearWithBias}, lines 246-311). Before, the first lowered with no communication
 * (each device's partial result went out as the answer) and the second was refused ({@code sharding.output-change}).
 */
class ReductionOverDevicesTest {
    private static final Pattern COMMUNICATION =
            Pattern.compile("Communication \\d+ \\(type=(\\w+), team=\\(([\\d ]+)\\)");

    /** nvFuser's test_allreduce after propagation: once a local sum, then a second local sum over the devices. */
    @Test
    void aSumWhoseReducedAxisIsSplitOnDidxAllreduces() throws Exception {
        String text = conformance("allreduce_loop_split");
        assertEquals("Allreduce (0 1)", communications(text, 2, 0));
        validates(text, 2);
        validates(text, 3);
    }

    /**
     * The logical form: {@code iDIDx{D} -> rDIDx{D}} is resharding because nvFuser's mapDeviceAndStreamParallelTypeToId
     * skips reduction ids (csrc/multidevice/utils.cpp lines 86-91); it was a local reduction before.
     */
    @Test
    void aSumIntoAnRDidxAxisIsAnAllreduce() throws Exception {
        String text = """
                {"format": "hostir-fusion/1", "name": "rdidx", "symbols": {"N": 4},
                 "tensors": [
                  {"name": "in", "dtype": "float", "axes": [{"extent": "D", "parallel": "DIDx"}, "N"], "mesh": "all"},
                  {"name": "out", "dtype": "float", "axes": [{"extent": "D", "iter": "reduction", "parallel": "DIDx"}, "N"], "mesh": "all"}],
                 "ops": [{"op": "sum", "inputs": ["in"], "output": "out", "axes": [0]}],
                 "inputs": ["in"], "outputs": ["out"]}
                """;
        assertEquals("Allreduce (0 1 2)", communications(text, 3, 1));
        validates(text, 3);
    }

    /** nvFuser's test_row_parallel_linear and test_row_parallel_matmul: a local product, then one Allreduce. */
    @Test
    void aRowParallelLinearOrMatmulIsALocalProductAndAnAllreduce() throws Exception {
        for (String name : new String[] {"row_parallel_linear", "row_parallel_matmul"}) {
            String text = conformance(name);
            String program = lowered(text, 2, 0);
            int product = program.indexOf(name.endsWith("linear") ? "= linear(" : "= matmul(");
            int allreduce = program.indexOf("type=Allreduce");
            assertTrue(product > 0 && allreduce > product, name + ":\n" + program);
            assertEquals("Allreduce (0 1)", communications(text, 2, 0), name);
            validates(text, 2);
            validates(text, 4);
        }
    }

    /** test_row_parallel_linear_with_bias: the bias is added once, after the Allreduce, not on every device. */
    @Test
    void theBiasIsAddedOnceAfterTheAllreduce() throws Exception {
        String text = conformance("row_parallel_linear_with_bias");
        String program = lowered(text, 4, 2);
        int allreduce = program.indexOf("type=Allreduce");
        int add = program.indexOf("\n     + T");
        assertTrue(allreduce > 0 && add > allreduce, program);
        assertTrue(program.matches("(?s).*= linear\\(T0[^\\n]*,\\n\\s+T1[^\\n]*\\)\\n.*"),
                "no bias inside: " + program);
        validates(text, 4);
        validates(text, 3);
    }

    /** test_linear_reduce_scatter was refused; it asserts one communication kernel, a ReduceScatter. */
    @Test
    void theReduceScatterFormLowersToOneReduceScatter() throws Exception {
        for (String name : new String[] {"linear_reduce_scatter", "sequence_parallel_mlp",
                "transformer_mlp_sequence_parallel"}) {
            String text = conformance(name);
            String all = communications(text, 2, 1);
            assertTrue(all.endsWith("ReduceScatter (0 1)"), name + ": " + all);
            assertEquals(name.equals("linear_reduce_scatter") ? 1 : 2, all.split(", ").length, name + ": " + all);
            validates(text, 2);
            validates(text, 4);
        }
    }

    /**
     * test_data_and_tensor_parallel_mlp was refused: the Allreduce runs within each mesh row (DIDx slice). The
     * example is the test at d = 4; the test runs at every even d (tp_size 2, dp_size d / 2, b = dp_size * 7), so
     * the mesh, the DIDy split and b are rewritten for d = 2, 6 and 8 here.
     */
    @Test
    void theDataAndTensorParallelMlpAllreducesWithinEachRow() throws Exception {
        String text = conformance("data_and_tensor_parallel_mlp");
        assertEquals("Allreduce (0 1)", communications(text, 4, 1));
        assertEquals("Allreduce (2 3)", communications(text, 4, 3));
        validates(text, 4);
        for (int dp : new int[] {1, 3, 4}) {
            StringBuilder mesh = new StringBuilder("[");
            for (int i = 0; i < dp; i++) mesh.append(i == 0 ? "" : ", ").append("[" + 2 * i + ", " + (2 * i + 1) + "]");
            String other = text.replace("[[0, 1], [2, 3]]", mesh + "]").replace("\"B\": 14", "\"B\": " + 7 * dp)
                    .replace("{\"outer_split\": 0, \"factor\": 2}, {\"parallelize\": 0, \"type\": \"DIDy\"}",
                            "{\"outer_split\": 0, \"factor\": " + dp + "}, {\"parallelize\": 0, \"type\": \"DIDy\"}");
            int last = 2 * dp - 1;
            assertEquals("Allreduce (" + (last - 1) + " " + last + ")", communications(other, 2 * dp, last));
            validates(other, 2 * dp);
        }
    }

    private static String conformance(String name) throws Exception {
        return Files.readString(TestPaths.repo("examples", "conformance", name + ".fusion"));
    }

    private static LoadedFusion load(String text, int devices) throws Exception {
        return Engine.load(new FusionSource.Text(text, "issue30.fusion"), devices, Map.of());
    }

    private static String lowered(String text, int devices, int rank) throws Exception {
        return HostIrPrinter.print(Engine.lowerRank(load(text, devices), SeedGeneration.DEFAULTS, rank));
    }

    /** "Type (team)" of each communication of one rank's program, in order. */
    private static String communications(String text, int devices, int rank) throws Exception {
        Matcher m = COMMUNICATION.matcher(lowered(text, devices, rank));
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            out.append(out.isEmpty() ? "" : ", ").append(m.group(1)).append(" (").append(m.group(2)).append(')');
        }
        return out.toString();
    }

    private static void validates(String text, int devices) throws Exception {
        RunResult r = Engine.run(load(text, devices), BackendPlan.choose(RunRequest.cpu(devices,
                SeedGeneration.DEFAULTS), "issue30"), line -> { });
        var v = r.validation().orElseThrow();
        assertTrue(v.passed(), devices + " devices: " + v.line());
    }
}
