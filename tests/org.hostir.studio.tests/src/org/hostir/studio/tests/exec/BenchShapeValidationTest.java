package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.OutputValidator;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.Validation;
import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.SamplePlan;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Issue 17's validation at the four AG+GEMM bench shapes (fp32 32768 x 32768 x 1024; bf16 32768 x 8192 x 8192,
 * 16384 x 8192 x 4096, 8192 x 4096 x 4096) of ag_matmul_p2p on 2 ranks: the correct run PASSes under the
 * default validation (sampled at these sizes), and chunk faults injected into its outputs (or the inputs the
 * reference sees) FAIL. {@link #benchShapesOnTheGpu} is the real thing, for the GPU suite (2 GPUs, or 2 ranks
 * sharing one); {@link #benchShapesAtOneSixteenthOnTheCpu} runs the same checks on the CPU backend at 1/16 of
 * each extent, in CI. The time validation takes is printed (a figure for docs/benchmarks.md, not asserted).
 */
class BenchShapeValidationTest {
    private record Shape(String dtype, long m, long k, long n) {}

    private static final List<Shape> SHAPES = List.of(new Shape("float", 32768, 32768, 1024),
            new Shape("bfloat16", 32768, 8192, 8192), new Shape("bfloat16", 16384, 8192, 4096),
            new Shape("bfloat16", 8192, 4096, 4096));

    @Test
    void benchShapesAtOneSixteenthOnTheCpu() throws Exception {
        for (Shape s : SHAPES) {
            Shape small = new Shape(s.dtype(), s.m() / 16, s.k() / 16, s.n() / 16);
            try (CpuBackend backend = new CpuBackend(2, 600_000)) {
                check(small, backend, Map.of(), OutputValidator.FULL_UP_TO / 256); // outputs 256 times smaller
            }
        }
    }

    @Test
    void benchShapesOnTheGpu() throws Exception {
        int gpus = CudaBackend.localDeviceCount();
        Assumptions.assumeTrue(gpus >= 1, CudaSkip.message(1));
        for (Shape s : SHAPES) {
            try (CudaBackend backend = gpus >= 2 ? new CudaBackend(2, 600_000)
                    : CudaBackend.sharingGpus(2, 600_000)) {
                check(s, backend, gpus >= 2 ? Map.of() : Map.of("backend", "cuda"), OutputValidator.FULL_UP_TO);
            }
        }
    }

    private static void check(Shape shape, Backend backend, Map<String, String> options, long fullUpTo)
            throws Exception {
        LoadedFusion loaded = load(shape);
        LoweringOptions lowering = SeedGeneration.options(options);
        RunConfig config = new RunConfig(2, new HashMap<>(loaded.bindings().asMap()), lowering.numberOfStreams(),
                1, 0, ValidationMode.OFF, 17, 600_000);
        RunResult r = Runs.lowered(loaded.fusion(), config, lowering, backend, line -> { });
        Faults run = new Faults(loaded, r.inputs(), r.outputs(), null, false);
        Budget budget = new Budget(fullUpTo);
        long t0 = System.nanoTime();
        Validation correct = budget.validate(run, r.outputs());
        assertTrue(correct.line().contains(": sampled "), correct.line());
        System.out.printf(Locale.ROOT, "%s %d x %d x %d on %s: validated in %.1f s: %s%n", shape.dtype(), shape.m(),
                shape.k(), shape.n(), backend.name(), (System.nanoTime() - t0) / 1e9, correct.line());
        assertTrue(correct.passed(), correct.line());
        String at = " (" + shape + ")";
        fails(budget, run, "stream chunk zeroed" + at, outs -> Faults.out(outs, 0).select(0, 1).fill(0));
        fails(budget, run, "slice one row off" + at, outs -> {
            DenseTensor chunk = Faults.out(outs, 1).select(0, 0);
            long rows = chunk.size(0) - 1;
            chunk.narrow(0, 0, rows).copyFrom(chunk.narrow(0, 1, rows).copy());
        });
        fails(budget, run, "wrong peer" + at, outs -> Faults.out(outs, 0).select(0, 1).copyFrom(Faults.out(outs, 0).select(0, 0)));
        fails(budget, run, "zeroed output buffer" + at, outs -> Faults.out(outs, 1).fill(0));
        Map<Integer, DenseTensor> swapped = run.inputsCopy();
        int a = loaded.fusion().inputs().getFirst().id();
        swapped.get(a).narrow(0, 0, 1).copyFrom(run.inputs().get(a).narrow(0, 1, 1));
        swapped.get(a).narrow(0, 1, 1).copyFrom(run.inputs().get(a).narrow(0, 0, 1));
        Validation v = OutputValidator.validate(loaded.fusion(), swapped, r.outputs(), true, ValidationMode.AUTO, fullUpTo,
                SamplePlan.DEFAULT_GRID, 17);
        assertFalse(v.passed(), "two ranks' shards of A swapped" + at + ": " + v.line());
    }

    /** The default validation, as {@code run} does it, with the full-check budget given. */
    private record Budget(long fullUpTo) {
        Validation validate(Faults run, Map<Integer, Map<Integer, DenseTensor>> outs) {
            return OutputValidator.validate(run.fusion(), run.inputs(), outs, true, ValidationMode.AUTO, fullUpTo,
                    SamplePlan.DEFAULT_GRID, 17);
        }
    }

    private static void fails(Budget budget, Faults run, String fault,
                              Consumer<Map<Integer, Map<Integer, DenseTensor>>> inject) {
        Map<Integer, Map<Integer, DenseTensor>> outs = run.copy();
        inject.accept(outs);
        Validation v = budget.validate(run, outs);
        assertFalse(v.passed(), fault + " went unnoticed: " + v.line());
    }

    /** ag_matmul_p2p in the shape's dtype, M rows of A in all (M / 2 per rank). */
    private static LoadedFusion load(Shape s) throws Exception {
        Path file = RepoPaths.repo().resolve("examples/seeds/ag_matmul_p2p.fusion");
        String text = Files.readString(file).replace("\"float\"", "\"" + s.dtype() + "\"");
        return FusionLoader.load(FusionReader.read(text, "ag_matmul_p2p." + s.dtype()), 2,
                Map.of("M", s.m() / 2, "K", s.k(), "N", s.n()));
    }
}
