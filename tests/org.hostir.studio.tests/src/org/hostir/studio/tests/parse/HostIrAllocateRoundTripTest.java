package org.hostir.studio.tests.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.hostir.studio.diff.ProgramComparison;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.Allocate;
import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.parse.HostIrDumpReader;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * Issue 33: a 2026-04 host_ir_lowering program read back from its own print compares equal. nvFuser's
 * hir::Allocate prints only {@code ALLOCATE(mem_type=.., zero_init=..)} (csrc/host_ir/ir.cpp:527) and has no size
 * attribute (lines 510-520); an in-loop buffer allocated per Stream chunk has the chunk's size in the lowering,
 * derived from a loop domain the dump does not print, which the comparison counted as a difference that the text
 * diff could not show ("structurally different" with no changed line).
 */
class HostIrAllocateRoundTripTest {
    private static final LoweringOptions HOST_IR = LoweringOptions.parse(Map.of("nvfuser", "2026-04",
            "hostIrLowering", "true"));

    private static HostIrContainer lowered(String example, int devices) throws Exception {
        Path file = RepoPaths.repo().resolve(Path.of("examples", "conformance", example + ".fusion"));
        return Engine.lowerRank(Engine.load(new FusionSource.File(file), devices, Map.of()), HOST_IR, 0);
    }

    /** The {@code devices N} line of the example's .expected file: the count its golden is lowered for. */
    private static int expectedDevices(String example) throws Exception {
        Path expected = RepoPaths.repo().resolve(Path.of("examples", "conformance", example + ".expected"));
        for (String line : Files.readAllLines(expected)) {
            if (line.startsWith("devices ")) return Integer.parseInt(line.substring("devices ".length()).trim());
        }
        throw new AssertionError(example + ".expected has no devices line");
    }

    @Test
    void aPrintedHostIrLoweringProgramReadBackComparesEqual() throws Exception {
        for (String example : List.of("stream_two_matmuls_inlinable_2026", "stream_two_matmuls_not_inlinable_2026",
                "column_parallel_linear_broadcast_2026", "stream_kernel_in_loop_2026",
                "column_parallel_linear_collective_permute_2026", "row_parallel_linear_forward_stream")) {
            HostIrContainer studio = lowered(example, expectedDevices(example));
            String printed = HostIrPrinter.print(studio, NvFuserGeneration.V2026_04);
            HostIrContainer read = HostIrDumpReader.read(printed).program();
            assertEquals(printed, HostIrPrinter.print(read, NvFuserGeneration.V2026_04), example);
            ProgramComparison c = Engine.compare(read, studio, "dump", example);
            assertTrue(c.equal(), () -> example + ": " + c.tree().summary().describe() + "\n" + c.textDiff());
        }
    }

    /** The case the issue found: an in-loop hir::Allocate whose lowered size (one chunk) is not the read one. */
    @Test
    void theInLoopAllocateSizeIsNotPrintedAndNotCompared() throws Exception {
        HostIrContainer studio = lowered("stream_two_matmuls_inlinable_2026", 1);
        HostIrContainer read = HostIrDumpReader.read(HostIrPrinter.print(studio, NvFuserGeneration.V2026_04))
                .program();
        Allocate lowered = inLoopAllocate(studio);
        Allocate back = inLoopAllocate(read);
        assertEquals(Allocate.Form.HOST_IR, lowered.form());
        assertNotEquals(lowered.size(), back.size(), "the chunk's size is the lowering's, not the dump's");
        assertFalse(HostIrPrinter.print(studio, NvFuserGeneration.V2026_04).contains("size="));
        assertTrue(Engine.compare(read, studio, "dump", "studio").equal());
    }

    /** What the dump does carry still counts: another zero_init is a difference, and the text diff shows it. */
    @Test
    void aDifferenceTheDumpCarriesIsStillADifference() throws Exception {
        HostIrContainer studio = lowered("stream_two_matmuls_inlinable_2026", 1);
        String printed = HostIrPrinter.print(studio, NvFuserGeneration.V2026_04);
        String changed = printed.replaceFirst("zero_init=false\\)", "zero_init=true)");
        assertNotEquals(printed, changed);
        ProgramComparison c = Engine.compare(HostIrDumpReader.read(changed).program(), studio, "dump", "studio");
        assertFalse(c.equal());
        assertTrue(c.textDiff().contains("zero_init=true"), c.textDiff());
    }

    private static Allocate inLoopAllocate(HostIrContainer program) {
        for (var n : program.topLevel()) {
            if (!(n instanceof ForLoop loop)) continue;
            for (var m : loop.body()) if (m instanceof Allocate a) return a;
        }
        throw new AssertionError("no Allocate in a loop");
    }
}
