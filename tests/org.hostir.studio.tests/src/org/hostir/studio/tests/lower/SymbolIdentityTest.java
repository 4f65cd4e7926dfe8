package org.hostir.studio.tests.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.print.SeedDumps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, observation 6: symbols and slices numbered as nvFuser numbers them. Its {@code TensorViewBuilder} gives
 * each input axis its own extent (seed 000: {@code T1[iS3{i4}, iS4{i5}]}, T1's K is not T0's {@code i3}; the gap
 * at {@code i1} is the fusion's zeroVal), ops reuse their inputs' extents, and the P2P allgather slices the input
 * before the output ({@code T4} slices T0). A file may name B's K {@code K2}: accepted when the values agree,
 * refused at the op's line when they do not.
 */
class SymbolIdentityTest {

    private static Path example(String name) {
        return RepoPaths.repo().resolve(Path.of("examples", "seeds", name + ".fusion"));
    }

    /**
     * Seed 000's two dumps and seed 001's four whose fusions keep nvFuser's axis order, with nvFuser's own tensor,
     * iter domain and symbol numbers: only whitespace and communication ids (which count every statement nvFuser
     * created) are normalised. (matmul_AR and matmul_RS_through_bcast list the DID axis first where nvFuser's test
     * reordered it after creating the axes, so their numbers compare renumbered, in SeedFidelityTest.)
     */
    @Test
    void seedsPrintNvFusersOwnNumbers() throws Exception {
        Map<String, String> seeds = new LinkedHashMap<>();
        seeds.put("allgather_p2p", SeedDumps.dumps("000").get(0));
        seeds.put("ag_matmul_p2p", SeedDumps.dumps("000").get(1));
        for (String[] t : List.of(new String[] {"allgather", "Allgather"}, new String[] {"allreduce", "Allreduce"},
                new String[] {"reduce_scatter", "ReduceScatter"}, new String[] {"ag_matmul", "AG_matmul"})) {
            seeds.put(t[0], SeedDumps.dumpAfter("001", "MultiDeviceStreamParallelTypeTest." + t[1] + " "));
        }
        for (var e : seeds.entrySet()) {
            String printed = HostIrPrinter.print(SeedFidelityTest.lower(e.getKey(), 8));
            assertEquals(SeedDumps.normalizeCommunicationIds(e.getValue()), SeedDumps.normalizeCommunicationIds(printed),
                    e.getKey());
        }
        String printed = HostIrPrinter.print(SeedFidelityTest.lower("ag_matmul_p2p", 8));
        assertTrue(printed.contains("T1_g_float[iS3{i4}, iS4{i5}]"), printed);
        assertTrue(printed.contains("size=( ( i0 * i2 ) * i5 )"), printed);
        assertTrue(printed.replaceAll("\\s+", " ").contains("T4_l_float[iS12{i2}, iS13{i3}] (DeviceMesh{0 1 2 3 4 5 6"
                + " 7}) = HirAliasSelect( T0_g_float"), printed);
    }

    @Test
    void theLegendNamesEverySymbol() {
        CliRun r = CliRun.of("lower", example("ag_matmul_p2p").toString(), "--devices", "8", "--passes");
        assertEquals(0, r.code(), r.err());
        assertEquals("// symbols: i0 = D, i2 = M, i3 = K, i4 = K, i5 = N", r.out().lines().findFirst().orElseThrow());
    }

    private static Path withK2(Path dir, String k2Default) throws IOException {
        String text = Files.readString(example("ag_matmul_p2p"))
                .replace("\"axes\": [\"K\", \"N\"]", "\"axes\": [\"K2\", \"N\"]")
                .replace("\"symbols\": {\"M\": 8, \"K\": 4, \"N\": 6}",
                        "\"symbols\": {\"M\": 8, \"K\": 4, " + k2Default + "\"N\": 6}");
        Path f = dir.resolve("k2.fusion");
        Files.writeString(f, text);
        return f;
    }

    /** The file says nvFuser's way that B's K is its own symbol; equal values make it one matmul. */
    @Test
    void aSecondNameForKIsAcceptedWhenTheValuesAgree(@TempDir Path dir) throws IOException {
        Path f = withK2(dir, "\"K2\": 4, ");
        CliRun check = CliRun.of("check", f.toString(), "--devices", "2");
        assertEquals(0, check.code(), check.err());
        CliRun lower = CliRun.of("lower", f.toString(), "--devices", "8", "--passes");
        assertEquals(0, lower.code(), lower.err());
        assertEquals("// symbols: i0 = D, i2 = M, i3 = K, i4 = K2, i5 = N", lower.out().lines().findFirst().orElseThrow());
        assertTrue(lower.out().contains("T2_g_float[iStreamIdx5{i0}, iS6{i2}, iS7{i5}, rS8{i3}]"), lower.out());
        CliRun run = CliRun.of("run", f.toString(), "--devices", "2", "--validate");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().contains("validation: PASS"), run.out());
    }

    @Test
    void aSecondNameForKIsRefusedAtTheOpWhenTheValuesDiffer(@TempDir Path dir) throws IOException {
        Path f = withK2(dir, "\"K2\": 5, ");
        int opLine = lineOf(f, "\"op\": \"matmul\"");
        String expected = "error: " + f + ":" + opLine + ": $.ops[0]: 'tv2' = matmul('tv0', 'tv1'): contracted axes differ:"
                + " tv0 [D, M, K] has K = K (4) but tv1 [K2, N] has K = K2 (5) [shape.matmul]";
        for (String command : List.of("check", "lower", "run")) {
            CliRun r = CliRun.of(command, f.toString(), "--devices", "2");
            assertEquals(2, r.code(), command + ": " + r.out());
            assertEquals(List.of(expected), r.err().lines().toList(), command);
        }
    }

    /** Without a value for K2 nothing decides it at check; {@code --set} does, and a run needs the value. */
    @Test
    void anUnboundSecondNameIsDecidedByTheValueItGets(@TempDir Path dir) throws IOException {
        Path f = withK2(dir, "");
        assertEquals(0, CliRun.of("check", f.toString()).code());
        CliRun differs = CliRun.of("check", f.toString(), "--set", "K2=3");
        assertEquals(2, differs.code());
        assertEquals(1, differs.err().lines().count(), differs.err());
        assertTrue(differs.err().strip().endsWith("has K = K (4) but tv1 [K2, N] has K = K2 (3) [shape.matmul]"),
                differs.err());
        assertEquals(0, CliRun.of("check", f.toString(), "--set", "K2=4").code());
        CliRun unbound = CliRun.of("run", f.toString(), "--devices", "2");
        assertEquals(2, unbound.code());
        assertTrue(unbound.err().contains("symbol K2 has no value"), unbound.err());
    }

    /**
     * Two inputs' S are two symbols, yet an add of another input and a Stream-parallel tensor joins that tensor's
     * loop, as nvFuser's canMergeWithPreviousForLoop maps the axes through the add.
     */
    @Test
    void aStreamOpOnAnotherInputsAxisJoinsTheLoop(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("merge.fusion");
        Files.writeString(f, """
                {"format": "hostir-fusion/1", "name": "merge", "symbols": {"S": 4, "M": 3},
                 "tensors": [{"name": "t0", "dtype": "float", "axes": ["S", "M"]},
                             {"name": "x", "dtype": "float", "axes": ["S", "M"]},
                             {"name": "t1", "dtype": "float", "axes": [{"extent": "S", "parallel": "Stream"}, "M"]},
                             {"name": "t2", "dtype": "float", "axes": [{"extent": "S", "parallel": "Stream"}, "M"]}],
                 "ops": [{"op": "set", "inputs": ["t0"], "output": "t1"},
                         {"op": "add", "inputs": ["x", "t1"], "output": "t2"}],
                 "inputs": ["t0", "x"], "outputs": ["t2"]}
                """);
        CliRun r = CliRun.of("lower", f.toString(), "--devices", "1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("T1_g_float[iS2{i3}, iS3{i4}]"), r.out());
        assertEquals(2, r.out().split("FOR StreamIdx", -1).length - 1, "one synchronising loop, one main loop\n"
                + r.out());
        CliRun run = CliRun.of("run", f.toString(), "--devices", "1", "--validate");
        assertEquals(0, run.code(), run.err());
    }

    private static int lineOf(Path f, String needle) throws IOException {
        List<String> lines = Files.readAllLines(f);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(needle)) return i + 1;
        }
        throw new IllegalStateException(needle + " not in " + f);
    }

    private static String fusion(String tensors, String ops, String inputs, String outputs) {
        return ("{'format': 'hostir-fusion/1', 'name': 'numbers', 'tensors': [" + tensors + "], 'ops': [" + ops
                + "], 'inputs': " + inputs + ", 'outputs': " + outputs + ", 'symbols': {'M': 2, 'N': 3, 'K': 5}}")
                .replace('\'', '"');
    }

    /**
     * Constant extents take numbers as nvFuser's scalars do (one counter for constants and symbols):
     * {@code makeContigConcreteTensor({8, 4})} creates 8 and 4 in {@code TensorViewBuilder::shape} (0 and 1), then
     * {@code build()} the fusion's zeroVal (2), so the symbolic tensor after it starts at {@code i3}; after a
     * symbolic tensor ({@code i0}, zeroVal 1, {@code i2}), a concrete one's constant takes 3 and its symbol is
     * {@code i4}, and an extent 1 is the fusion's oneVal, numbered once (5): the next symbol is {@code i6}.
     */
    @Test
    void constantExtentsTakeNumbersAsNvFusersScalarsDo(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("c.fusion");
        Files.writeString(f, fusion("{'name': 'x', 'dtype': 'float', 'axes': [8, 4]},"
                + " {'name': 'y', 'dtype': 'float', 'axes': ['M', 'N']},"
                + " {'name': 'z', 'dtype': 'float', 'axes': [8, 4]}",
                "{'op': 'set', 'inputs': ['x'], 'output': 'z'}", "['x', 'y']", "['z', 'y']"));
        CliRun r = CliRun.of("lower", f.toString(), "--devices", "1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("%HostIrContainer { (T0_g_float[iS0{8}, iS1{4}], T1_g_float[iS2{i3}, iS3{i4}])"),
                r.out());
        Files.writeString(f, fusion("{'name': 'x', 'dtype': 'float', 'axes': ['M', 'N']},"
                + " {'name': 'y', 'dtype': 'float', 'axes': [8, 'N']},"
                + " {'name': 'w', 'dtype': 'float', 'axes': [{'extent': 1, 'iter': 'broadcast'}, 'K']},"
                + " {'name': 'v', 'dtype': 'float', 'axes': [{'extent': 1, 'iter': 'broadcast'}, 'K']}",
                "", "['x', 'y', 'w', 'v']", "['x']"));
        r = CliRun.of("lower", f.toString(), "--devices", "1", "--passes");
        assertEquals(0, r.code(), r.err());
        assertEquals("// symbols: i0 = M, i2 = N, i4 = N, i6 = K, i7 = K", r.out().lines().findFirst().orElseThrow());
    }

    /**
     * A tensor with constant extents is nvFuser's {@code makeContigConcreteTensor}, whose tests pass the device
     * count as a number (LowerCollectiveTest.Allreduce_Concrete: {@code {num_devices, kTensorSize}}): its {@code D}
     * prints as the run's device count, {@code ideviceIdx.x0{4}}, and the reduction that reuses it as {@code rS2{4}}.
     * A symbolic tensor keeps {@code D} a symbol (seed 000's {@code ideviceIdx.x0{i0}}).
     */
    @Test
    void theDeviceCountOfAConcreteTensorPrintsAsItsValue() throws Exception {
        Path f = RepoPaths.repo().resolve(Path.of("examples", "conformance", "lower_collective_allreduce_concrete.fusion"));
        CliRun r = CliRun.of("lower", f.toString(), "--devices", "4");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("%HostIrContainer { (T0_g_float[ideviceIdx.x0{4}, iS1{4}] (DeviceMesh{0 1 2 3}))"
                + " -> (T1_g_float[rS2{4}, iS3{4}] (DeviceMesh{0 1 2 3}))"), r.out());
        assertTrue(HostIrPrinter.print(SeedFidelityTest.lower("allgather_p2p", 8)).contains("ideviceIdx.x0{i0}"));
    }
}
