package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.ValidatePass;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * grouped_mm's sharded forms as nvFuser 81c4b22fd has them (ir.op.GroupedMmSharding): the ports of
 * tests/python/multidevice/test_matmul.py:288 test_column_parallel_grouped_mm (n sharded: no communication),
 * :329 test_row_parallel_grouped_mm (k split: the grouped_mm rFactor'd into partial products, csrc/tensor_view.cpp:
 * 860-881, then one Allreduce) and test_transformer.py:20 test_grouped_mlp (both) lower so on every rank under both
 * generations (their validation at 1, 2 and 4 devices is MoeExamplesTest's); the forms nvFuser has no way to run
 * (experts, offsets or the split axis sharded, a Stream axis) are refused at the op's line with their rule.
 */
class GroupedMmShardingTest {
    private static final OneOpFusion OP = new OneOpFusion("op.fusion");

    private static final List<LoweringOptions> GENERATIONS = List.of(
            LoweringOptions.parse(Map.of(ValidatePass.NVFUSER.key(), NvFuserGeneration.V2025_06.label())),
            LoweringOptions.parse(Map.of(ValidatePass.NVFUSER.key(), NvFuserGeneration.V2026_04.label())));

    @ParameterizedTest
    @CsvSource({"column_parallel_grouped_mm, 0, 2", "column_parallel_grouped_mm, 0, 4",
            "row_parallel_grouped_mm, 1, 2", "row_parallel_grouped_mm, 1, 4",
            "grouped_mlp, 1, 2", "grouped_mlp, 1, 4"})
    void theNvFuserPortsLowerToTheirCommunications(String example, int allreduces, int devices) throws Exception {
        var file = TestPaths.repo("examples", "moe", example + ".fusion");
        assertTrue(Files.readString(file).contains("\"description\": \"nvFuser tests/python/multidevice/test_"),
                example + " names its nvFuser test");
        LoadedFusion loaded = Engine.load(new FusionSource.File(file, example), devices, Map.of());
        for (LoweringOptions options : GENERATIONS) {
            for (int rank = 0; rank < devices; rank++) {
                HostIrContainer program = Engine.lowerRank(loaded, options, rank);
                List<CommunicationType> types = new ArrayList<>();
                for (HostNode n : program.allNodes()) if (n instanceof Communication c) types.add(c.type());
                assertEquals(List.of(CommunicationType.ALLREDUCE).subList(0, allreduces), types,
                        example + " rank " + rank + " at " + options.nvFuser().label());
            }
        }
    }

    /**
     * The examples write out what propagation infers; written as nvFuser's tests write them (only the inputs'
     * shardings), propagation infers the same and every rank's program is the same.
     */
    @ParameterizedTest
    @CsvSource({"column_parallel_grouped_mm", "row_parallel_grouped_mm", "grouped_mlp"})
    void writtenAsTheTestWritesItPropagationInfersTheSame(String example) throws Exception {
        var file = TestPaths.repo("examples", "moe", example + ".fusion");
        JsonObject doc = JsonParser.parseString(Files.readString(file)).getAsJsonObject();
        var inputs = doc.getAsJsonArray("inputs").asList().stream().map(e -> e.getAsString()).toList();
        int stripped = 0;
        for (var t : doc.getAsJsonArray("tensors")) {
            JsonObject tensor = t.getAsJsonObject();
            if (inputs.contains(tensor.get("name").getAsString())) continue;
            stripped += tensor.remove("mesh") != null ? 1 : 0;
            tensor.remove("loop");
        }
        assertTrue(stripped > 0, example);
        LoadedFusion asTested = Engine.load(new FusionSource.Text(doc.toString(), example + ".inputs-only"), 2,
                Map.of());
        LoadedFusion written = Engine.load(new FusionSource.File(file, example), 2, Map.of());
        for (int rank = 0; rank < 2; rank++) {
            var comparison = Engine.compare(Engine.lowerRank(asTested, GENERATIONS.getLast(), rank),
                    Engine.lowerRank(written, GENERATIONS.getLast(), rank), "inputs-only", example);
            assertTrue(comparison.equal(), example + " rank " + rank + "\n" + comparison.textDiff());
        }
    }

    /**
     * The partial product of the row-parallel form ends in its device axis, as GroupedMmaOp::evaluate unsqueezes, then
     * (nvFuser 2026-04) the local part of the contracted axis, both rFactor products (TransformRFactor).
     */
    @Test
    void theRowParallelFormIsRFactoredIntoAPartialProduct() throws Exception {
        var file = TestPaths.repo("examples", "moe", "row_parallel_grouped_mm.fusion");
        LoadedFusion loaded = Engine.load(new FusionSource.File(file, "row"), 2, Map.of());
        String dump = HostIrPrinter.print(Engine.lowerRank(loaded,
                GENERATIONS.getLast(), 0), NvFuserGeneration.V2026_04);
        assertTrue(dump.matches("(?s).*T5_g_float\\[iS\\d+\\{i0}, iS\\d+\\{i4}, ideviceIdx\\.x\\d+\\{2}rf, "
                + "rS\\d+\\{\\( ceilDiv\\(i2, 2\\) \\)}rf] \\(DeviceMesh"
                + "\\{0 1}\\) = GroupedMmaOp\\(mat1=.*Communication \\d+ \\(type=Allreduce, team=\\(0 1\\), input=T5.*"),
                dump);
        assertTrue(loaded.fusion().ops().stream().anyMatch(op -> op instanceof FusionOp.GroupedMm));
    }

    private static String fusion(String x, String w, String offsets, String out) {
        return """
                {"format": "hostir-fusion/2", "name": "experts", "symbols": {"M": 8, "K": 4, "N": 6, "G": 2},
                 "tensors": [
                  {"name": "x", "dtype": "float", "axes": ["M", "K"], "mesh": "all"%s},
                  {"name": "w", "dtype": "float", "axes": ["G", "K", "N"], "mesh": "all"%s},
                  {"name": "offs", "dtype": "int32", "axes": ["G"], "mesh": "all"%s},
                  {"name": "y", "dtype": "float", "axes": ["M", "N", {"extent": "K", "iter": "reduction"}]%s}],
                 "ops": [{"op": "grouped_mm", "inputs": ["x", "w", "offs"], "output": "y"}],
                 "inputs": ["x", "w", "offs"], "outputs": ["y"]}
                """.formatted(x, w, offsets, out);
    }

    private static String split(int axis, String type) {
        return ", \"loop\": [{\"outer_split\": " + axis + ", \"factor\": \"D\"}, {\"parallelize\": " + axis
                + ", \"type\": \"" + type + "\"}]";
    }

    @Test
    void theFormsNvFuserCannotRunAreRefusedWithTheirRule() {
        Diagnostic experts = OP.refusal(fusion("", split(0, "DIDx"), "", ""));
        assertEquals("sharding.grouped-mm", experts.rule(), experts.message());
        assertEquals(7, experts.line(), experts.toString());
        assertTrue(experts.message().endsWith("w's group axis G is DIDx: a group axis maps to no axis of the other operand"
                + " (logical_domain_map.cpp:490-560), so each device would pair its groups with all the offsets;"
                + " nvFuser moves tokens to sharded experts with MoeDispatch"), experts.message());
        Diagnostic rows = OP.refusal(fusion(split(0, "DIDx"), "", "", ""));
        assertEquals("sharding.grouped-mm", rows.rule(), rows.message());
        assertTrue(rows.message().contains("x's m axis M is DIDx: m is the axis the offsets split"), rows.message());
        Diagnostic offsets = OP.refusal(fusion("", "", split(0, "DIDx"), ""));
        assertTrue(offsets.message().contains("offs's group axis G is DIDx: every device reads all g offsets"),
                offsets.message());
        Diagnostic stream = OP.refusal(fusion("", "", "", ", \"mesh\": \"all\"" + split(1, "Stream")));
        assertEquals("sharding.grouped-mm", stream.rule(), stream.message());
        assertTrue(stream.message().contains("y's axis N is Stream: no nvFuser test streams a grouped_mm"),
                stream.message());
    }

    @Test
    void aColumnShardedWeightAloneIsAccepted() throws Exception {
        LoadedFusion loaded = OP.load(fusion("", split(2, "DIDx"), "", ""), 2);
        Engine.check(loaded, LoweringOptions.parse(Map.of()));
        // propagation gives the output w's sharding of N (logical_domain_map.cpp:511-520)
        assertEquals(ParallelType.DIDX, loaded.fusion().outputs().getFirst().axis(1).parallelType());
    }
}
