package org.hostir.studio.tests.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.cli.Main;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.Pass;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.lower.ValidatePass;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * Issue 33 item 1: the nvFuser generation, one lowering option ({@code nvfuser}, spelled {@code --nvfuser} on the
 * command line), picks the pipeline and the dialect; the default is the newest.
 */
class NvFuserGenerationTest {
    private static final String ROW_PARALLEL = RepoPaths.repo()
            .resolve("examples/conformance/row_parallel_linear_forward_stream.fusion").toString();

    /** As typed: no generation named by the test harness. */
    private static CliRun typed(String... args) { return CliRun.of(new Main(), args); }

    @Test
    void theDefaultIsTheNewestAndChoosesItsPipeline() {
        assertEquals(NvFuserGeneration.V2026_04, LoweringOptions.DEFAULTS.nvFuser());
        assertEquals(NvFuserGeneration.newest(), ValidatePass.NVFUSER.defaultValue());
        assertEquals(NvFuserGeneration.V2026_04, Pipeline.of(LoweringOptions.DEFAULTS).generation());
        // host_ir_lowering is an EnableOption, off unless asked for (csrc/options.cpp:178 at 81c4b22fd)
        assertEquals(names(Pipeline.standard()), names(Pipeline.of(LoweringOptions.DEFAULTS)));
        LoweringOptions hostIr = LoweringOptions.parse(Map.of("hostIrLowering", "true"));
        assertEquals(List.of("PropagateShardings", "Validate", "DecomposeReshardings", "ReorderShardedAxis",
                "FinalizeMultideviceDomains", "Segment", "ConvertToCommunication", "HostIrLowering",
                "AllocateAndDeallocate", "AssignStreams"),
                names(Pipeline.of(hostIr)));
        assertEquals(NvFuserGeneration.V2026_04, Pipeline.of(hostIr).generation());
        LoweringOptions seeds = LoweringOptions.parse(Map.of("nvfuser", "2025-06"));
        assertEquals(names(Pipeline.standard()), names(Pipeline.of(seeds)));
    }

    @Test
    void theFlagIsTheOptionSpelledOnceAndBothAtOnceAreRefused() {
        CliRun flag = typed("lower", ROW_PARALLEL, "--devices", "2", "--nvfuser", "2026-04");
        CliRun option = typed("lower", ROW_PARALLEL, "--devices", "2", "--option", "nvfuser=2026-04");
        CliRun neither = typed("lower", ROW_PARALLEL, "--devices", "2");
        assertEquals(0, flag.code(), flag.err());
        assertEquals(flag.out(), option.out());
        assertEquals(flag.out(), neither.out(), "the default is 2026-04");
        CliRun both = typed("lower", ROW_PARALLEL, "--nvfuser", "2026-04", "--option", "nvfuser=2025-06");
        assertEquals(2, both.code());
        assertTrue(both.err().contains("--nvfuser and --option nvfuser both given"), both.err());
        CliRun bad = typed("check", ROW_PARALLEL, "--nvfuser", "2024-01");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("--nvfuser: unknown value '2024-01'; the values are 2025-06, 2026-04"),
                bad.err());
        CliRun early = typed("lower", ROW_PARALLEL, "--nvfuser", "2025-01");
        assertEquals(2, early.code(), "the early dialect is read, not lowered to");
    }

    @Test
    void everyLoweringCommandTakesTheFlag() {
        for (String command : List.of("check", "lower", "run", "diff", "sweep")) {
            CliRun help = typed(command, "--help");
            assertTrue(help.out().contains("--nvfuser 2025-06|2026-04"), command + ":\n" + help.out());
        }
        CliRun check = typed("check", ROW_PARALLEL, "--nvfuser", "2026-04");
        assertEquals(0, check.code(), check.err());
    }

    @Test
    void theSeedsGenerationRefusesAStreamParallelInputAndTheNewestLowersIt() {
        CliRun seeds = typed("check", ROW_PARALLEL, "--nvfuser", "2025-06");
        assertEquals(2, seeds.code());
        assertTrue(seeds.err().contains("[stream.input]"), seeds.err());
        CliRun executor = typed("check", ROW_PARALLEL, "--option", "hostIrLowering=false");
        assertFalse(executor.err().contains("[stream.input]"), "2026-04's StreamParallelType dropped the check:\n"
                + executor.err());
    }

    @Test
    void theGenerationIsPrintedInTheLoweringHeaderAndTheRunOptions() {
        CliRun passes = typed("lower", ROW_PARALLEL, "--devices", "2", "--passes", "--option", "hostIrLowering=true");
        assertTrue(passes.out().contains("\n// nvFuser 2026-04 (81c4b22fd)\n"), passes.out());
        assertTrue(passes.out().contains("// pass 10/10 AssignStreams: changed"), passes.out());
        CliRun json = typed("lower", ROW_PARALLEL, "--devices", "2", "--json", "--option", "hostIrLowering=true");
        assertTrue(json.out().contains("\"nvfuser\": \"2026-04\""), json.out());
        CliRun run = typed("run", ROW_PARALLEL, "--devices", "2", "--backend", "cpu", "--nvfuser", "2026-04",
                "--option", "hostIrLowering=true");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().contains("nvfuser=2026-04"), run.out());
        assertTrue(run.out().contains("validation: PASS"), run.out());
    }

    @Test
    void interStreamSynchronizationIsOfTheNewestGenerationOnly() {
        String allgather = RepoPaths.repo().resolve("examples/seeds/allgather_p2p.fusion").toString();
        CliRun seeds = typed("check", allgather, "--nvfuser", "2025-06", "--option",
                "interStreamSynchronization=true");
        assertEquals(2, seeds.code());
        assertTrue(seeds.err().contains("no inter_stream_synchronization"), seeds.err());
        CliRun newest = typed("lower", allgather, "--devices", "4", "--option", "hostIrLowering=false",
                "--option", "interStreamSynchronization=true");
        assertEquals(0, newest.code(), newest.err());
        // the loop index in 2026-04's spelling, streamIdx (csrc/type.cpp:781)
        assertTrue(newest.out().contains("IF Manual ( ( streamIdx + 1 ) < numberOfStreams ):"), newest.out());
        CliRun run = typed("run", allgather, "--devices", "4", "--backend", "cpu", "--option",
                "hostIrLowering=false", "--option", "interStreamSynchronization=true");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().contains("validation: PASS"), run.out());
        // the host_ir_lowering path takes no HostIrLowerParams (csrc/host_ir/lowering.cpp:433-491 at 81c4b22fd):
        // refused, not ignored
        CliRun hostIr = typed("check", allgather, "--devices", "4", "--option", "hostIrLowering=true", "--option",
                "interStreamSynchronization=true");
        assertEquals(2, hostIr.code(), hostIr.out());
        assertTrue(hostIr.err().contains("host_ir_lowering path has no inter_stream_synchronization"), hostIr.err());
        assertEquals(1, hostIr.err().strip().lines().count(), hostIr.err());
    }

    private static List<String> names(Pipeline p) { return p.passes().stream().map(Pass::name).toList(); }
}
