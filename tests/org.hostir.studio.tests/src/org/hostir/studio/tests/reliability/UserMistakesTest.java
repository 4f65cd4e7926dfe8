package org.hostir.studio.tests.reliability;

import static org.hostir.studio.tests.reliability.ReliabilityFiles.copy;
import static org.hostir.studio.tests.reliability.ReliabilityFiles.oneLine;
import static org.hostir.studio.tests.reliability.ReliabilityFiles.small;
import static org.hostir.studio.tests.reliability.ReliabilityFiles.usage;
import static org.hostir.studio.tests.reliability.ReliabilityFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.hostir.studio.cli.Command;
import org.hostir.studio.cli.Commands;
import org.hostir.studio.cli.Main;
import org.hostir.studio.tests.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16, "user mistakes are never internal errors": each input that ended in {@code internal error:
 * java.lang...} (exit 3) or in a heap exhausted half a minute in is one {@code error: FILE:LINE: where: what
 * [rule]} line, decided before the run (exit 2); a heap that runs out all the same is a failed run (exit 1); and
 * exit 3, kept for bugs, says how to get the stack trace. The option messages of item 6 name what the user typed.
 */
class UserMistakesTest {
    private static CliRun run(Path fusion, String... more) {
        List<String> args = new ArrayList<>(List.of("run", fusion.toString(), "--backend", "cpu"));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    @Test
    void aSymbolWithoutAValueIsNamedAtItsAxis(@TempDir Path dir) throws IOException {
        Path fusion = copy(dir, "unbound", "{}", "[\"M\", 8]");
        oneLine(run(fusion), 2, fusion + ":6: $.tensors[0].axes[0]: symbol M has no value: give it a default in"
                + " \"symbols\" or run with --set M=N [run.symbol-unbound]");
    }

    @Test
    void tensorsLargerThanTheHostHoldsAreRefusedBeforeTheRun(@TempDir Path dir) throws IOException {
        long start = System.nanoTime();
        // 100 GB: 4 x 26843545600 floats
        oneLine(run(copy(dir, "hundred_gb", "{\"M\": 4}", "[\"M\", 26843545600]")), 2,
                "$.tensors[0]: in [4, 26843545600] float has 107374182400 elements (400.0 GiB); a host tensor holds"
                        + " at most 2147483639 (one Java array), and 1 more tensor is as large");
        // a 2^40-element tensor, and the same through --set M=2^40
        oneLine(run(copy(dir, "two_to_40", "{}", "[1099511627776]")), 2,
                "in [1099511627776] float has 1099511627776 elements (4.0 TiB)");
        oneLine(run(small(dir, "small"), "--set", "M=" + (1L << 40)), 2, "in [1099511627776, 8] float has");
        // [2^31, 2^31] no longer wraps; [2^40, 2^40, 2^40] overflows a long, and says so
        oneLine(run(copy(dir, "wraps", "{}", "[2147483648, 2147483648]")), 2, "has 4611686018427387904 elements");
        Path overflows = copy(dir, "overflows", "{}", "[1099511627776, 1099511627776]");
        oneLine(run(overflows), 2, "in [1099511627776, 1099511627776] float has more than 2^63 elements");
        // issue 30 item 7: the extents are in the file, so check refuses it too (it said ok), at the tensor's line
        oneLine(CliRun.of("check", overflows.toString()), 2, overflows + ":6: $.tensors[0]: in [1099511627776,"
                + " 1099511627776] float has more than 2^63 elements: lower its extents (--set) [run.size]");
        assertTrue(System.nanoTime() - start < 30_000_000_000L, "decided up front, not after allocating");
    }

    /**
     * Issue 30 item 8: an integer division by zero fails the run (exit 1) at the op's line, naming the op, as
     * nvFuser ("Integer division by zero detected", csrc/ir/internal_nodes.cpp:789) and PyTorch
     * ("ZeroDivisionError", aten/src/ATen/native/cpu/BinaryOpsKernel.cpp div_trunc_kernel) raise; it gave
     * +-2^31. The divisor is a - a, zero everywhere whatever the inputs.
     */
    @Test
    void anIntegerDivisionByZeroFailsTheRunNamingTheOp(@TempDir Path dir) throws IOException {
        Path fusion = write(dir, "int_div_zero", """
                {
                  "format": "hostir-fusion/1",
                  "name": "int_div_zero",
                  "tensors": [
                    {"name": "a", "dtype": "int32", "axes": [4, 8]},
                    {"name": "zero", "dtype": "int32", "axes": [4, 8]},
                    {"name": "q", "dtype": "int32", "axes": [4, 8]}
                  ],
                  "ops": [
                    {"op": "sub", "inputs": ["a", "a"], "output": "zero"},
                    {"op": "div", "inputs": ["a", "zero"], "output": "q"}
                  ],
                  "inputs": ["a"],
                  "outputs": ["q"]
                }
                """);
        CliRun r = run(fusion);
        oneLine(r, 1, fusion + ":11: $.ops[1]: run failed: ");
        oneLine(r, 1, "T2 = div(T0, T1): integer division by zero (PyTorch raises ZeroDivisionError");
        oneLine(r, 1, "(T2 = 'q', T0 = 'a', T1 = 'zero') [run]");
    }

    @Test
    void inputsThatDoNotFitTheHeapAreRefusedNamingTheLargest(@TempDir Path dir) throws IOException {
        // three inputs, each a third of the heap and a bit: together more than this JVM may use
        long elements = Math.min(Integer.MAX_VALUE - 8, Runtime.getRuntime().maxMemory() / Float.BYTES / 3 + 1);
        Path fusion = write(dir, "three_inputs", """
                {
                  "format": "hostir-fusion/1",
                  "name": "three_inputs",
                  "symbols": {"M": %d},
                  "tensors": [
                    {"name": "a", "dtype": "float", "axes": ["M"]},
                    {"name": "b", "dtype": "float", "axes": ["M"]},
                    {"name": "c", "dtype": "float", "axes": ["M"]},
                    {"name": "ab", "dtype": "float", "axes": ["M"]},
                    {"name": "abc", "dtype": "float", "axes": ["M"]}
                  ],
                  "ops": [{"op": "add", "inputs": ["a", "b"], "output": "ab"},
                          {"op": "add", "inputs": ["ab", "c"], "output": "abc"}],
                  "inputs": ["a", "b", "c"],
                  "outputs": ["abc"]
                }
                """.formatted(elements));
        long start = System.nanoTime();
        CliRun r = run(fusion, "--devices", "1");
        oneLine(r, 2, "of Java heap");
        for (String part : List.of("largest: ", "a [" + elements + "] float", "[run.memory]", "HIRSTUDIO_JAVA_OPTS")) {
            assertTrue(r.err().contains(part), () -> part + " missing in: " + r.err());
        }
        assertTrue(System.nanoTime() - start < 10_000_000_000L, "refused before generating the inputs");
    }

    /**
     * Issue 16 item 4: the refusal gives what one rank allocates beside the total, at the rank that allocates the
     * most: here b and c live on mesh {2 3} of 4 devices, so rank 2 (ranks 0 and 1 hold nothing).
     */
    @Test
    void theHeapRefusalNamesTheRankThatAllocatesTheMost(@TempDir Path dir) throws IOException {
        long elements = Math.min(Integer.MAX_VALUE - 8, Runtime.getRuntime().maxMemory() / Float.BYTES / 4);
        Path fusion = write(dir, "partial_mesh", """
                {
                  "format": "hostir-fusion/1",
                  "name": "partial_mesh",
                  "symbols": {"M": %d},
                  "tensors": [
                    {"name": "b", "dtype": "float", "axes": ["M"], "mesh": [2, 3]},
                    {"name": "c", "dtype": "float", "axes": ["M"], "mesh": [2, 3]}
                  ],
                  "ops": [{"op": "set", "inputs": ["b"], "output": "c"}],
                  "inputs": ["b"],
                  "outputs": ["c"]
                }
                """.formatted(elements));
        CliRun r = run(fusion, "--devices", "4", "--no-validate");
        oneLine(r, 2, "of Java heap");
        // rank 2 allocates b and c, 2 * M floats: printed in the largest unit it reaches, as the engine prints sizes
        double rank2 = 2.0 * elements * Float.BYTES;
        int unit = 0;
        while (rank2 >= 1024 && unit < 3) {
            rank2 /= 1024;
            unit++;
        }
        String perRank = String.format(Locale.ROOT, "per rank up to %.1f %s (rank 2)", rank2,
                List.of("bytes", "KiB", "MiB", "GiB").get(unit));
        assertTrue(r.err().contains(perRank), () -> perRank + " missing in: " + r.err());
        assertTrue(r.err().contains("largest: "), r.err());
    }

    /**
     * The budget counts the buffers the lowering adds: here the allgathered operand {@code [Stream D, M, K]}, whole on
     * each of the 4 ranks, is two thirds of what the run needs; without it the estimate (half the heap) would pass
     * and the heap run out late. The refusal lists it first and stays at a line of the file.
     */
    @Test
    void theHeapRefusalCountsTheBuffersTheLoweringAdds(@TempDir Path dir) throws IOException {
        long mk = Runtime.getRuntime().maxMemory() / 64; // M * K, K = 16
        Path fusion = write(dir, "gathered", """
                {
                  "format": "hostir-fusion/1",
                  "name": "gathered",
                  "symbols": {"M": %d, "K": 16},
                  "tensors": [
                    {"name": "a", "dtype": "float", "axes": [{"extent": "D", "parallel": "DIDx"}, "M", "K"], "mesh": "all"},
                    {"name": "b", "dtype": "float", "axes": ["K", 1], "mesh": "all"},
                    {"name": "c", "dtype": "float", "axes": [{"extent": "D", "parallel": "Stream"}, "M", 1,
                                                              {"extent": "K", "iter": "reduction"}], "mesh": "all"}
                  ],
                  "ops": [{"op": "matmul", "inputs": ["a", "b"], "output": "c"}],
                  "inputs": ["a", "b"],
                  "outputs": ["c"]
                }
                """.formatted(mk / 16));
        long start = System.nanoTime();
        CliRun r = run(fusion, "--devices", "4", "--no-validate");
        oneLine(r, 2, "[run.memory]");
        assertTrue(r.err().contains("largest: T3 (a buffer the lowering adds) [4, " + mk / 16 + ", 16] float"), r.err());
        assertTrue(r.err().startsWith("error: " + fusion + ":6: $.tensors[0]: "), r.err());
        assertTrue(System.nanoTime() - start < 10_000_000_000L, "refused before generating the inputs");
    }

    @Test
    void optionMistakesNameWhatTheUserTyped(@TempDir Path dir) throws IOException {
        Path fusion = small(dir, "f");
        usage(run(fusion, "--option", "allgather=magic"),
                "--option allgather: unknown value 'magic'; the values are collective, p2p, broadcast");
        usage(run(fusion, "--streams", "0"), "--streams must be between 1 and 1024, got 0");
        usage(run(fusion, "--timeout", "99999999999999999999"),
                "--timeout must be between 1 and 86400, got 99999999999999999999");
        usage(run(fusion, "--devices", "99999999999999999999"), "--devices must be between 1 and");
        usage(run(fusion, "--timeout", "soon"), "--timeout expects an integer (ASCII digits 0-9), got 'soon'");
    }

    @Test
    void exitThreeIsForBugsAndSaysHowToGetTheStackTrace() {
        Map<String, Command> commands = new LinkedHashMap<>(Commands.standard());
        commands.put("bug", command("bug", () -> { throw new IllegalStateException("an invariant broke"); }));
        commands.put("heap", command("heap", () -> { throw new OutOfMemoryError("Java heap space"); }));
        CliRun bug = CliRun.of(new Main(commands, name -> null), "bug");
        assertEquals(3, bug.code());
        assertEquals(List.of("internal error: java.lang.IllegalStateException: an invariant broke (a bug in"
                + " hirstudio; HIRSTUDIO_DEBUG=1 prints the stack trace)"), bug.err().lines().toList());
        CliRun heap = CliRun.of(new Main(commands, name -> null), "heap");
        assertEquals(1, heap.code(), "a heap that runs out is a failed run, not a bug");
        assertEquals(1, heap.err().lines().count(), heap.err());
        assertTrue(heap.err().startsWith("error: heap: the Java heap (") && heap.err().contains("HIRSTUDIO_JAVA_OPTS"),
                heap.err());
    }

    private static Command command(String name, Runnable body) {
        return new Command() {
            public String name() { return name; }

            public String usage() { return name; }

            public String summary() { return "fails"; }

            public int run(List<String> args, PrintStream out, PrintStream err) {
                body.run();
                return 0;
            }
        };
    }
}
