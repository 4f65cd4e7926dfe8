package org.hostir.studio.tests.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33: a kernel segment inside a host_ir_lowering Stream loop (nvFuser 2026-04, csrc/host_ir/lowering.cpp:369-407
 * at 81c4b22fd): launched in the loop after an ALLOCATE of each output, with its whole inputs; it computes the chunk
 * of the loop index (kernel_ir.cpp:64-77). Where nvFuser's own lowering would lose chunks, it is refused.
 */
class KernelInStreamLoopTest {
    private static final String[] HOST_IR_LOWERING = {"--nvfuser", "2026-04", "--option", "hostIrLowering=true"};

    private static String[] args(String command, String file, String... more) {
        List<String> all = new ArrayList<>(List.of(command, file));
        all.addAll(List.of(HOST_IR_LOWERING));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    private static String kernelCase() {
        return TestPaths.repo("examples", "conformance", "stream_kernel_in_loop_2026.fusion").toString();
    }

    @Test
    void theKernelIsLaunchedInTheLoopAfterTheAllocateOfItsOutput() {
        CliRun r = CliRun.of(args("lower", kernelCase()));
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        int loop = indexOf(lines, "  FOR i");
        // host_ir_lowering launches the kernel as LaunchKernel (csrc/host_ir/lowering.cpp:393-406 at 81c4b22fd)
        int post = indexOf(lines, "    LaunchKernel(");
        assertTrue(loop >= 0 && post > loop, r.out());
        assertTrue(lines.get(post - 1).startsWith("    T1_g_float[") && lines.get(post - 1).endsWith(
                "= ALLOCATE(mem_type=global, zero_init=false)"), "the output's ALLOCATE right before it:\n" + r.out());
        assertFalse(r.out().contains("ShardByStream(T0_"), "the kernel's input is passed whole:\n" + r.out());
        assertEquals(1, r.out().lines().filter(l -> l.startsWith("  FOR i")).count() - 1,
                "one loop and AssignStreams' joining loop: the add shares the kernel's loop\n" + r.out());
    }

    @Test
    void theKernelComputesTheLoopsChunkAndTheRunValidates() {
        for (String devices : List.of("1", "2")) {
            CliRun r = CliRun.of(args("run", kernelCase(), "--backend", "cpu", "--devices", devices));
            assertEquals(0, r.code(), r.out() + r.err());
            assertTrue(r.out().contains("validation: PASS"), r.out());
        }
    }

    @Test
    void aKernelInALoopWritingAWholeAllocatedTensorIsRefused(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("kernel_writes_output.fusion");
        Files.writeString(f, """
                {"format": "hostir-fusion/2", "name": "kernel_writes_output", "symbols": {"M": 6, "K": 4}, "tensors": [
                  {"name": "x", "dtype": "float", "axes": ["M", "K"], "loop": [{"outer_split": 0, "factor": 3}, {"parallelize": 0, "type": "Stream"}]},
                  {"name": "y", "dtype": "float", "axes": ["M", {"iter": "broadcast"}, "K"], "loop": [{"outer_split": 0, "factor": 3}, {"parallelize": 0, "type": "Stream"}]}],
                 "ops": [{"op": "broadcast", "inputs": ["x"], "output": "y", "flags": [false, true, false]}],
                 "inputs": ["x"], "outputs": ["y"]}
                """);
        CliRun r = CliRun.of(args("lower", f.toString()));
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("error: " + f + ":3: y: a kernel inside the Stream loop writes it"), r.err());
        assertTrue(r.err().endsWith("[stream.kernel-in-loop-2026]\n"), r.err());
    }

    private static int indexOf(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).startsWith(prefix)) return i;
        return -1;
    }
}
