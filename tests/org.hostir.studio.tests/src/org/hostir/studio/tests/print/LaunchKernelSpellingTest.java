package org.hostir.studio.tests.print;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.hostir.studio.diff.Canonical;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.LaunchKernel;
import org.hostir.studio.ir.host.PostOnStream;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.parse.ParsedDump;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kernel segment prints as the node nvFuser's lowering path creates for it: host_ir_lowering (2026-04) launches
 * it as {@code LaunchKernel} (csrc/host_ir/lowering.cpp:393-406 at 81c4b22fd, printed by LaunchKernel::toString,
 * csrc/host_ir/ir.cpp:150-160), MultiDeviceExecutor's HostIrLower posts a HostUnit (csrc/host_ir/lower.cpp:154),
 * and the seeds' revision only has the latter. The dump reader reads nvFuser's spelling back as that node.
 */
class LaunchKernelSpellingTest {

    private static HostIrContainer lowered(Map<String, String> options) throws Exception {
        Path file = RepoPaths.repo().resolve(Path.of("examples", "conformance", "stream_kernel_in_loop_2026.fusion"));
        var loaded = Engine.load(new FusionSource.File(file), 1, Map.of());
        return Engine.lowerRank(loaded, LoweringOptions.parse(options), 0);
    }

    private static HostIrContainer hostIrLowering() throws Exception {
        return lowered(Map.of("nvfuser", "2026-04", "hostIrLowering", "true"));
    }

    /** nvFuser's LaunchKernel::toString for this program's kernel, one level inside the FOR loop. */
    private static final String NVFUSER_LAUNCH = """
                LaunchKernel(
                  Group ID: 0,
                  Inputs: {T0_g_float[istreamIdx8{3}, iS9{( ceilDiv(i0, 3) )}, iS1{i2}]},
                  Outputs: {T1_g_float[istreamIdx10{3}, iS11{( ceilDiv(i0, 3) )}, bS3{1}, iS4{i2}]},
                )
            """;

    @Test
    void hostIrLoweringPrintsNvFusersLaunchKernelAndNoHostUnitBlock() throws Exception {
        String printed = HostIrPrinter.print(hostIrLowering(), NvFuserGeneration.V2026_04);
        assertTrue(printed.contains(NVFUSER_LAUNCH), printed);
        assertFalse(printed.contains("PostOnStream"), printed);
        assertFalse(printed.contains("HostUnit0"), "host_ir_lowering's container holds no HostUnit:\n" + printed);
        // a row joins its lines: LaunchKernel( / Group ID: 0, / Inputs: {..}, / Outputs: {..}, / )
        assertEquals("LaunchKernel(Group ID: 0, Inputs: {T0_g_float[istreamIdx8{3}, iS9{( ceilDiv(i0, 3) )}, iS1{i2}]},"
                + " Outputs: {T1_g_float[istreamIdx10{3}, iS11{( ceilDiv(i0, 3) )}, bS3{1}, iS4{i2}]})",
                HostIrPrinter.headline(kernel(hostIrLowering().topLevel()), NvFuserGeneration.V2026_04));
    }

    @Test
    void theDumpReaderReadsItBackAsTheSameLaunchAndPrintsItEqually() throws Exception {
        HostIrContainer studio = hostIrLowering();
        String printed = HostIrPrinter.print(studio, NvFuserGeneration.V2026_04);
        ParsedDump read = HostIrDumpReader.read(printed);
        assertEquals(NvFuserGeneration.V2026_04, read.generation());
        assertEquals(printed, HostIrPrinter.print(read.program(), read.generation()));
        HostNode node = kernel(read.program().topLevel());
        LaunchKernel launch = assertInstanceOf(LaunchKernel.class, node);
        PostOnStream kernel = (PostOnStream) kernel(studio.topLevel());
        assertEquals(kernel.unit().number(), launch.groupId());
        assertEquals(kernel.inputs().stream().map(t -> t.name()).toList(),
                launch.inputs().stream().map(t -> t.name()).toList());
        assertEquals(kernel.outputs().stream().map(t -> t.name()).toList(),
                launch.outputs().stream().map(t -> t.name()).toList());
        // compared as the Dump view compares a dump with a lowering: the Studio's kernel canonicalises to the
        // LaunchKernel the dump reads as, and the printed programs show no difference
        assertEquals(kernel(Canonical.of(read.program()).topLevel()), kernel(Canonical.of(studio).topLevel()));
        var cmp = Engine.compare(read.program(), studio, "dump", "studio");
        assertEquals("", cmp.textDiff());
    }

    /** A kernel segment with no Stream axis, which every path lowers: a broadcast is no standalone host op. */
    private static final String BROADCAST = """
            {"format": "hostir-fusion/2", "name": "kernel_alone", "symbols": {"M": 6, "K": 4}, "tensors": [
              {"name": "x", "dtype": "float", "axes": ["M", "K"]},
              {"name": "y", "dtype": "float", "axes": ["M", {"iter": "broadcast"}, "K"]}],
             "ops": [{"op": "broadcast", "inputs": ["x"], "output": "y", "flags": [false, true, false]}],
             "inputs": ["x"], "outputs": ["y"]}
            """;

    @Test
    void onlyHostIrLoweringLaunchesTheSeedsRevisionAndMultiDeviceExecutorPostOnStream(@TempDir Path dir)
            throws Exception {
        Path f = Files.writeString(dir.resolve("kernel_alone.fusion"), BROADCAST);
        Map<Map<String, String>, Boolean> launches = Map.of(Map.of("nvfuser", "2026-04", "hostIrLowering", "true"),
                true, Map.of("nvfuser", "2026-04", "hostIrLowering", "false"), false, Map.of("nvfuser", "2025-06"),
                false);
        for (var e : launches.entrySet()) {
            LoweringOptions options = LoweringOptions.parse(e.getKey());
            var loaded = Engine.load(new FusionSource.File(f), 1, Map.of());
            String printed = HostIrPrinter.print(Engine.lowerRank(loaded, options, 0), options.nvFuser());
            String tag = e.getKey() + "\n" + printed;
            assertEquals(e.getValue(), printed.contains("\n  LaunchKernel(\n    Group ID: 0,\n    Inputs: {T0_g_float["),
                    tag);
            assertEquals(!e.getValue(), printed.contains("\n  PostOnStream (HostUnit0, Inputs:{T0_g_float["), tag);
            assertEquals(!e.getValue(), printed.contains("\nHostUnit0: Inputs={"), tag);
        }
    }

    /** The one kernel node, looked for in loop bodies too. */
    private static HostNode kernel(List<HostNode> nodes) {
        for (HostNode n : nodes) {
            if (n instanceof PostOnStream || n instanceof LaunchKernel) return n;
            if (n instanceof ForLoop f) {
                HostNode inner = kernel(f.body());
                if (inner != null) return inner;
            }
        }
        return null;
    }
}
