package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.regex.Pattern;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;

/**
 * Issue 30 item 10. A tensor the lowering creates in front of a resharding op is sharded like the op's output, as
 * nvFuser's insertReshardingSetsBefore does with {@code shardLoopLike(output, new_input, ...)}
 * (csrc/preseg_passes/decompose_reshardings.cpp:140-151 at 81c4b22fd): with a loop-split output it prints the
 * split, {@code ideviceIdx.x{2}, iS{( ceilDiv(i0, 2) )}}; it printed {@code ideviceIdx.x6{i0}}, a device axis of
 * the full extent 4 on a 2-device mesh that a file could not write ({@code mesh.did-extent}). The op has two
 * inputs: whereToReshard (lines 40-50) sets before only those; a one-input op such as a cast is resharded after
 * it (item 9, ReshardingPlacementTest), its created tensor taking the input's sharding. And a reshape that
 * keeps a sharded axis whole into an unannotated output is refused for the output, not blamed for splitting.
 */
class LoweredShardingPrintTest {
    private static final String ADD = """
            {"format": "hostir-fusion/2", "name": "scatter_add", "symbols": {"M": 4, "N": 3},
             "tensors": [{"name": "in", "dtype": "half", "axes": ["M", "N"], "mesh": [0]},
                         {"name": "bias", "dtype": "half", "axes": ["M", "N"], "mesh": "all",
                          "loop": [{"outer_split": 0, "factor": "D"}, {"parallelize": 0, "type": "DIDx"}]},
                         {"name": "out", "dtype": "half", "axes": ["M", "N"], "mesh": "all",
                          "loop": [{"outer_split": 0, "factor": "D"}, {"parallelize": 0, "type": "DIDx"}]}],
             "ops": [{"op": "add", "inputs": ["in", "bias"], "output": "out"}], "inputs": ["in", "bias"],
             "outputs": ["out"]}
            """;

    private static LoadedFusion load(String text, int devices) throws Exception {
        return Engine.load(new FusionSource.Text(text, "t.fusion"), devices, Map.of());
    }

    @Test
    void aCreatedTensorPrintsTheOutputsLoopSplitAndValidates() throws Exception {
        for (int d : new int[] {2, 4}) {
            LoadedFusion loaded = load(ADD, d);
            String program = HostIrPrinter.print(Engine.lowerRank(loaded, SeedGeneration.DEFAULTS, 0));
            assertTrue(program.contains("type=Scatter"), program);
            // every device axis prints the mesh's extent, the created half tensor's included
            var deviceAxis = Pattern.compile("ideviceIdx\\.x\\d+\\{([^}]*)\\}").matcher(program);
            int seen = 0;
            while (deviceAxis.find()) {
                assertEquals(String.valueOf(d), deviceAxis.group(1), program);
                seen++;
            }
            assertTrue(seen > 0, program);
            assertTrue(Pattern.compile("T\\d+_g___half\\[ideviceIdx\\.x\\d+\\{" + d + "\\}, iS\\d+\\{\\( ceilDiv\\(i0, "
                    + d + "\\) \\)\\}").matcher(program).find(), program);
            try (CpuBackend backend = new CpuBackend(d, 10_000)) {
                RunResult r = Runs.run(loaded, d, Map.of(), backend, s -> { });
                assertTrue(r.validation().orElseThrow().passed(), r.validation().orElseThrow().line());
            }
        }
    }

    @Test
    void aReshapeKeepingTheShardedAxisIntoAnUnannotatedOutputNamesTheOutput() {
        String text = """
                {"format": "hostir-fusion/1", "name": "reshape", "tensors": [
                  {"name": "x", "dtype": "float", "axes": [{"extent": "D", "parallel": "DIDx"}, 6], "mesh": "all"},
                  {"name": "y", "dtype": "float", "axes": ["D", 2, 3], "mesh": "all"}],
                 "ops": [{"op": "reshape", "inputs": ["x"], "output": "y"}], "inputs": ["x"], "outputs": ["y"]}
                """;
        EngineFailure e = assertThrows(EngineFailure.class, () -> load(text, 2));
        Diagnostic d = e.diagnostics().getFirst();
        assertEquals("reshape.sharded-axis", d.rule());
        assertFalse(d.message().contains("splits or merges"), d.message());
        assertTrue(d.message().contains("keeps it whole as output axis 0, which is Serial; annotate output axis 0"
                + " DIDx"), d.message());
    }
}
