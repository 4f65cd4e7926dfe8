package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.Runner;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Allocate;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.HirAliasSelect;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/**
 * nvFuser's symmetric memory (MemoryType::Symmetric, SymmetricContiguousView; #5520): the file's
 * {@code "memory": "symmetric"} through the lowering (csrc/host_ir/lower.cpp:166-173 at 81c4b22fd), the stream
 * loop's symmetric allocation (csrc/host_ir/pass/stream_parallel_type.cpp:270-274), the set that takes a
 * resharding op's symmetric output (csrc/preseg_passes/decompose_reshardings.cpp:143-146), and CPU runs of the
 * symmetric forms against the unsharded reference.
 */
class SymmetricMemoryTest {
    /** An allgather ([DIDx D, N] to [D, N]) whose output is symmetric, as LowerCollectiveCudaTest.Allgather has it. */
    private static final String ALLGATHER = """
            {"format": "hostir-fusion/1", "name": "symmetric_allgather", "symbols": {"N": 6},
             "tensors": [
               {"name": "in", "dtype": "float", "axes": [{"extent": "D", "parallel": "DIDx"}, "N"], "mesh": "all"},
               {"name": "out", "dtype": "float", "memory": "symmetric", "axes": ["D", "N"], "mesh": "all"}],
             "ops": [{"op": "set", "inputs": ["in"], "output": "out"}],
             "inputs": ["in"], "outputs": ["out"]}
            """;

    private static Map<String, String> options(String... pairs) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) m.put(pairs[i], pairs[i + 1]);
        return m;
    }

    private static RunResult run(LoadedFusion loaded, int devices, Map<String, String> o) {
        try (CpuBackend backend = new CpuBackend(devices, 10_000)) {
            return Runs.run(loaded, devices, o, backend, line -> { });
        }
    }

    @Test
    void aSymmetricFileTensorStaysSymmetricAndPrintsAsNvFuserDoes() throws Exception {
        LoadedFusion loaded = FusionLoader.load(ALLGATHER, "symmetric_allgather.fusion", 2);
        HostIrContainer p = Engine.lowerRank(loaded, SeedGeneration.DEFAULTS, 0);
        String printed = HostIrPrinter.print(p);
        // TensorView::toString's "_sym" (csrc/tensor_view.cpp:80-81), memory_type2string's "symmetric" (type.cpp:851)
        assertTrue(printed.contains("T1_sym_float["), printed);
        assertTrue(printed.contains("mem_type=symmetric"), printed);
        assertTrue(printed.contains("T0_g_float["), printed);
    }

    @Test
    void theSymmetricAllgatherValidatesUnderEveryBackendAndProtocol() throws Exception {
        for (int d : new int[] {2, 3, 4}) {
            LoadedFusion loaded = FusionLoader.load(ALLGATHER, "symmetric_allgather.fusion", d);
            for (Map<String, String> o : List.of(options(), options("backend", "cuda"), options("backend", "cuda",
                    "multicastProtocol", "memcpy"), options("backend", "cuda", "multicastProtocol", "multimem"))) {
                RunResult r = run(loaded, d, o);
                assertTrue(r.validation().orElseThrow().passed(), d + " " + o + ": " + r.validation().get().line());
            }
        }
    }

    /** The allocation of a stream loop's resharding output, per backend and offset (stream_parallel_type.cpp:270). */
    @Test
    void theStreamLoopAllocatesItsReshardedOutputSymmetricWithTheCudaBackend() throws Exception {
        LoadedFusion loaded = Runs.load("seeds/allgather_p2p", 2, Map.of());
        Map<Map<String, String>, MemoryType> expected = Map.of(
                options("backend", "cuda"), MemoryType.SYMMETRIC,
                options("backend", "cuda", "allgather", "broadcast"), MemoryType.SYMMETRIC,
                options("backend", "cuda", "offsetStreamIndexingByRank", "true"), MemoryType.GLOBAL,
                options(), MemoryType.GLOBAL);
        for (var e : expected.entrySet()) {
            HostIrContainer p = Engine.lowerRank(loaded, SeedGeneration.options(e.getKey()), 0);
            Allocate a = p.topLevel().stream().filter(n -> n instanceof Allocate).map(n -> (Allocate) n)
                    .findFirst().orElseThrow();
            assertEquals(e.getValue(), a.memoryType(), e.getKey().toString());
            assertEquals(e.getValue(), a.buffer().memoryType(), e.getKey().toString());
            // every mention of the tensor says the same memory
            TensorView out = p.outputs().getFirst();
            assertEquals(e.getValue(), out.memoryType(), e.getKey() + ": the program's output");
        }
        for (int d : new int[] {2, 3}) {
            for (String allgather : List.of("p2p", "broadcast")) {
                RunResult r = Runs.run("seeds/allgather_p2p", d, options("backend", "cuda", "allgather", allgather));
                assertTrue(r.validation().orElseThrow().passed(), d + " " + allgather);
            }
        }
    }

    /** decompose_reshardings.cpp:143-146: the inserted set takes the symmetric memory, the matmul's output global. */
    @Test
    void theSetInFrontOfAReshardingOpTakesItsSymmetricOutput() throws Exception {
        LoadedFusion loaded = Runs.loadText("seeds/ag_matmul", 2, "\"name\": \"tv2\",\n      \"dtype\": \"float\",",
                "\"name\": \"tv2\",\n      \"dtype\": \"float\",\n      \"memory\": \"symmetric\",");
        HostIrContainer p = Engine.lowerRank(loaded, SeedGeneration.options(options("allgather", "collective")), 0);
        String printed = HostIrPrinter.print(p);
        List<HostNode> all = p.allNodes();
        Allocate gathered = all.stream().filter(n -> n instanceof Allocate a && a.memoryType() == MemoryType.SYMMETRIC)
                .map(n -> (Allocate) n).findFirst().orElseThrow(() -> new AssertionError(printed));
        // the symmetric buffer is what the per-iteration Allgather (the set put in front of the matmul) fills
        assertEquals(1, all.stream().filter(n -> n instanceof Allocate a && a.memoryType() == MemoryType.SYMMETRIC)
                .count(), printed);
        List<Integer> slices = all.stream().filter(n -> n instanceof HirAliasSelect s
                && s.in().id() == gathered.buffer().id()).map(n -> ((HirAliasSelect) n).out().id()).toList();
        assertTrue(all.stream().anyMatch(n -> n instanceof Communication c && c.type() == CommunicationType.ALLGATHER
                && slices.contains(c.output().id())), printed);
        assertEquals(MemoryType.GLOBAL, p.outputs().getFirst().memoryType(), printed);
        RunResult r = run(loaded, 2, options("allgather", "collective"));
        assertTrue(r.validation().orElseThrow().passed(), r.validation().get().line());
    }

    /**
     * MultiDeviceHostIrTest.SymmetricContiguousView (tests/cpp/test_multidevice_host_ir.cpp:442-511): each rank's
     * symmetric shard of [DIDx D, N] viewed as the whole [D, N]; here its values, checked against the reference.
     */
    @Test
    void aContiguousViewHoldsEveryRanksShardOnTheCpu() throws Exception {
        for (int d : new int[] {2, 3, 4}) {
            LoadedFusion loaded = FusionLoader.load(ALLGATHER.replace("\"dtype\": \"float\", \"axes\": [{",
                    "\"dtype\": \"float\", \"memory\": \"symmetric\", \"axes\": [{"), "view.fusion", d);
            Fusion fusion = loaded.fusion();
            TensorView in = fusion.inputs().getFirst();
            TensorView out = fusion.outputs().getFirst();
            assertEquals(MemoryType.SYMMETRIC, in.memoryType());
            Map<Integer, HostIrContainer> programs = new HashMap<>();
            for (int rank = 0; rank < d; rank++) {
                HostIrBuilder h = new HostIrBuilder(new IrBuilder(fusion.counters(), fusion.symbols()));
                programs.put(rank, h.container(List.of(in), List.of(out), List.of(h.symmetricContiguousView(out, in))));
            }
            RunConfig config = Runs.config(loaded, d, Map.of());
            try (CpuBackend backend = new CpuBackend(d, 10_000)) {
                RunResult r = Runner.run(fusion, programs, config, backend, line -> { });
                assertTrue(r.validation().orElseThrow().passed(), d + ": " + r.validation().get().line());
            }
        }
    }
}
