package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.tests.CliRun;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code hirstudio debug --backend cuda} on one GPU (D = 1) prints the same stops as {@code --backend cpu}: stepping
 * into every node (loops and their iterations included) and stopping at breakpoints, the same stops, the same
 * nodes and loop frames, the same live tensors (name, dtype, shape, mesh, bytes), and the run validates. A stop
 * synchronizes the rank's streams first, so a tensor whose CPU values equal the unsharded reference's shard has
 * CUDA values within float32 rounding of it too (a tensor allocated and not yet written, shown so on both, holds
 * whatever memory it got on CUDA, zeros on the CPU: its values are not compared). Skipped without a GPU, saying so. Multi-rank CUDA
 * debugging needs a GPU per rank (NCCL); its rule runs on the CPU backend in {@code DebugSynchronizedTest}.
 */
class CudaDebugTest {
    private static final List<String> EXAMPLES = List.of("examples/seeds/ag_matmul_p2p.fusion",
            "examples/seeds/allgather.fusion", "examples/transpose_add.fusion", "examples/mlp_two_layer.fusion");
    /** float32 kernels against the CPU's float64 accumulation, values of magnitude about 1. */
    private static final double TOLERANCE = 1e-3;
    private static final Pattern TENSOR = Pattern.compile("^(.*), rank (\\d+) \\((cpu|cuda)\\), (\\d+) B: (.*)$");
    private static final Pattern DIFFER = Pattern.compile("; reference: (equal|\\d+ of \\d+ differ, max \\|diff\\| (\\S+))");

    @TestFactory
    Stream<DynamicTest> stepIntoEveryNodeStopsAsOnTheCpu() {
        return EXAMPLES.stream().map(f -> dynamicTest(f, () -> compare(f, "--step", "into", "--max-stops", "500")));
    }

    @TestFactory
    Stream<DynamicTest> aBreakpointOnEveryNodeStopsAsOnTheCpu() {
        return EXAMPLES.stream().map(f -> dynamicTest(f, () -> compare(f, "--break", "all", "--max-stops", "500")));
    }

    private static void compare(String example, String... how) {
        Assumptions.assumeTrue(CudaBackend.available(1), CudaSkip.message(1));
        String file = TestPaths.repo(example).toString();
        CliRun cpu = CliRun.of(args(file, "cpu", how));
        CliRun cuda = CliRun.of(args(file, "cuda", how));
        assertEquals(0, cpu.code(), cpu.err() + cpu.out());
        assertEquals(0, cuda.code(), cuda.err() + cuda.out());
        List<String> c = cpu.out().lines().toList();
        List<String> g = cuda.out().lines().toList();
        assertTrue(c.stream().anyMatch(l -> l.startsWith("stop ")), "no stop:\n" + cpu.out());
        assertEquals(c.size(), g.size(), "cpu:\n" + cpu.out() + "\ncuda:\n" + cuda.out());
        for (int i = 0; i < c.size(); i++) sameLine(example + " line " + (i + 1), c.get(i), g.get(i));
    }

    private static String[] args(String file, String backend, String... how) {
        return Stream.concat(Stream.of("debug", file, "--devices", "1", "--backend", backend), Stream.of(how))
                .toArray(String[]::new);
    }

    private static void sameLine(String where, String cpu, String cuda) {
        Matcher c = TENSOR.matcher(cpu);
        if (!c.matches()) {
            if (cpu.startsWith("finished: validation: PASS")) {
                assertTrue(cuda.startsWith("finished: validation: PASS"), where + ": " + cuda);
            } else {
                assertEquals(cpu, cuda, where);
            }
            return;
        }
        Matcher g = TENSOR.matcher(cuda);
        assertTrue(g.matches(), where + ": not a tensor on CUDA: " + cuda);
        assertEquals(c.group(1), g.group(1), where + ": the tensor");
        assertEquals(c.group(2), g.group(2), where + ": the rank");
        assertEquals("cpu", c.group(3), where);
        assertEquals("cuda", g.group(3), where);
        assertEquals(c.group(4), g.group(4), where + ": bytes");
        Matcher cr = DIFFER.matcher(c.group(5));
        if (!cr.find() || !cr.group(1).equals("equal")) return; // not written yet, or not a tensor of the file
        Matcher gr = DIFFER.matcher(g.group(5));
        assertTrue(gr.find(), where + ": no reference on CUDA: " + cuda);
        if (gr.group(1).equals("equal")) return;
        assertTrue(Double.parseDouble(gr.group(2)) <= TOLERANCE, where + ": not the final values at the stop: " + cuda
                + " (cpu: " + cpu + ")");
    }
}
