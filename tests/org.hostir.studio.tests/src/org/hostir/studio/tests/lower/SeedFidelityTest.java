package org.hostir.studio.tests.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.hostir.studio.file.FusionConverter;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.print.SeedDumps;
import org.junit.jupiter.api.Test;

/**
 * {@code examples/seeds/NAME.fusion}, lowered for rank 0, prints the seed's program: whitespace and id numbering
 * aside, symbol identity kept (see {@link SeedDumps}).
 */
class SeedFidelityTest {

    static Fusion load(String name, int devices) throws Exception {
        var parsed = FusionReader.read(RepoPaths.repo().resolve(Path.of("examples", "seeds", name + ".fusion")));
        return FusionConverter.convert(parsed, parsed.document().bindings(devices, Map.of())).fusion();
    }

    static HostIrContainer lower(String name, int devices) throws Exception {
        return Pipeline.standard().lower(load(name, devices), new LoweringContext(0, devices, SeedGeneration.DEFAULTS));
    }

    private static void assertLowersTo(String seedDump, String example, int devices) throws Exception {
        String printed = HostIrPrinter.print(lower(example, devices));
        assertEquals(SeedDumps.normalize(seedDump), SeedDumps.normalize(printed),
                () -> "lowering " + example + " differs from the seed\n--- lowered ---\n" + printed + "--- seed ---\n"
                        + seedDump);
    }

    private static String seed001(String test) {
        return SeedDumps.dumpAfter("001", "MultiDeviceStreamParallelTypeTest." + test + " ");
    }

    @Test
    void allgatherP2p() throws Exception {
        assertLowersTo(SeedDumps.dumps("000").get(0), "allgather_p2p", 8);
    }

    @Test
    void agMatmulP2p() throws Exception {
        assertLowersTo(SeedDumps.dumps("000").get(1), "ag_matmul_p2p", 8);
    }

    @Test
    void allgather() throws Exception {
        assertLowersTo(seed001("Allgather"), "allgather", 8);
    }

    @Test
    void allreduce() throws Exception {
        assertLowersTo(seed001("Allreduce"), "allreduce", 8);
    }

    @Test
    void reduceScatter() throws Exception {
        assertLowersTo(seed001("ReduceScatter"), "reduce_scatter", 8);
    }

    @Test
    void agMatmul() throws Exception {
        assertLowersTo(seed001("AG_matmul"), "ag_matmul", 8);
    }

    @Test
    void matmulAllreduce() throws Exception {
        assertLowersTo(seed001("matmul_AR"), "matmul_ar", 8);
    }

    /**
     * One known difference: nvFuser prints broadcast flags in the logical axis order ({true, false, true, ...}: the
     * new axes at 0 and 2), while its test reordered the DID axis outermost for printing. Our tensors have one
     * axis order, so the flags follow the printed axes ({false, true, true, ...}). Only that token is aligned.
     */
    @Test
    void matmulReduceScatterThroughBroadcast() throws Exception {
        String seed = seed001("matmul_RS_through_bcast");
        String seedFlags = "flags = {true, false, true, false, false}";
        assertEquals(2, seed.split(java.util.regex.Pattern.quote(seedFlags), -1).length, "the seed has the flags once");
        assertLowersTo(seed.replace(seedFlags, "flags = {false, true, true, false, false}"),
                "matmul_rs_through_bcast", 8);
    }

    @Test
    void scatterTwoStagesOnFourDevices() throws Exception {
        assertLowersTo(SeedDumps.dumpContaining("003", "type=Scatter"), "scatter_two_stages", 4);
    }

    private static List<String> kinds(List<org.hostir.studio.ir.host.HostNode> nodes) {
        return nodes.stream().map(n -> n.getClass().getSimpleName()).toList();
    }

    /** Seed 002's AG+GEMM with linear, in the current generation: the AG_matmul pipeline with a linear. */
    @Test
    void agLinearIsTheCollectivePipelineWithALinear() throws Exception {
        HostIrContainer c = lower("ag_linear", 8);
        assertEquals(List.of("Allocate", "Allocate", "GetCurrentStream", "ForLoop", "ForLoop"), kinds(c.topLevel()));
        var main = (org.hostir.studio.ir.host.ForLoop) c.topLevel().get(4);
        assertEquals(List.of("SetCurrentStream", "HirAliasSelect", "HirAliasSelect", "Allocate", "Communication",
                "Wait", "HirAliasSelect", "HostOp", "SetCurrentStream", "Synchronize"), kinds(main.body()));
        String printed = HostIrPrinter.print(c);
        assertEquals(1, printed.split("= linear\\(", -1).length - 1, printed);
        assertEquals(1, printed.split("type=Allgather", -1).length - 1, printed);
    }

    /** Seed 003: one set becomes one stream loop. */
    @Test
    void singleSet() throws Exception {
        HostIrContainer c = lower("single_set", 1);
        assertEquals(List.of("Allocate", "GetCurrentStream", "ForLoop", "ForLoop"), kinds(c.topLevel()));
        var main = (org.hostir.studio.ir.host.ForLoop) c.topLevel().get(3);
        assertEquals(List.of("SetCurrentStream", "HirAliasSelect", "HirAliasSelect", "HostOp", "SetCurrentStream",
                "Synchronize"), kinds(main.body()));
    }

    /** Seed 003's TwoSetOps: the two loops are merged into one. */
    @Test
    void twoSetsShareOneLoop() throws Exception {
        HostIrContainer c = lower("two_sets", 1);
        assertEquals(List.of("Allocate", "Allocate", "GetCurrentStream", "ForLoop", "ForLoop"), kinds(c.topLevel()));
        var main = (org.hostir.studio.ir.host.ForLoop) c.topLevel().get(4);
        assertEquals(List.of("SetCurrentStream", "HirAliasSelect", "HirAliasSelect", "HostOp", "HirAliasSelect",
                "HostOp", "SetCurrentStream", "Synchronize"), kinds(main.body()));
    }

    /**
     * Seed 003's ThreeSetOpsWithDisjointsForLoops: a set without a stream axis separates two loops, and each loop
     * captures the current stream anew, into its own Stream (nvFuser's addStreamManagement; its test at the seeds'
     * revision expects the nine top-level expressions below, GetCurrentStream at 1 and 6; seed 003's older text
     * captures into Stream 0 and then Stream 2).
     */
    @Test
    void threeSetsDisjointGiveTwoLoopsAroundAPlainSet() throws Exception {
        HostIrContainer c = lower("three_sets_disjoint", 1);
        assertEquals(List.of("Allocate", "GetCurrentStream", "ForLoop", "ForLoop", "HostOp", "Allocate",
                "GetCurrentStream", "ForLoop", "ForLoop"), kinds(c.topLevel()));
        String printed = HostIrPrinter.print(c);
        assertEquals(List.of("GetCurrentStream into Stream 0", "GetCurrentStream into Stream 2"),
                printed.lines().map(String::strip).filter(l -> l.startsWith("GetCurrentStream")).toList(), printed);
    }
}
