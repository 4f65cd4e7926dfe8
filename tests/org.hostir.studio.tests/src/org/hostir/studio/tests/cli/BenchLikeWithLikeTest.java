package org.hostir.studio.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.hostir.studio.bench.cuda.GemmLikeWithLike;
import org.hostir.studio.exec.cuda.AlgoConfig;

/**
 * The like-with-like GEMM bench's parts that need no GPU (issue 38.2): its options refused in one line before any
 * GPU is looked for, the rotation of which side goes first, and how a cuBLASLt algorithm is printed.
 */
class BenchLikeWithLikeTest {
    /** Exit 2 and the error in the first line (a usage error is followed by the usage line). */
    private static void refused(String expected, String... args) {
        CliRun r = CliRun.run(args);
        assertEquals(2, r.exitCode(), r.err());
        String first = r.errLines().getFirst();
        assertTrue(first.startsWith("error: ") && first.contains(expected), r.err());
        assertTrue(r.errLines().size() == 1 || r.errLines().get(1).startsWith("usage: "), r.err());
    }

    @Test
    void badShapesAndVariantsAreRefusedInOneLine() {
        refused("--shapes must be between 1 and 4, got 5", "bench", "agmm", "--like-with-like", "--shapes", "5");
        refused("--shapes: shape 4 given twice", "bench", "agmm", "--like-with-like", "--shapes", "4,4");
        refused("--variants: unknown variant 'lt2m' (lt1m, gemmex)", "bench", "agmm", "--like-with-like",
                "--variants", "lt2m");
        refused("--variants: variant gemmex given twice", "bench", "agmm", "--like-with-like", "--variants",
                "gemmex,gemmex");
    }

    @Test
    void goodShapesAndVariantsAreAcceptedBeforeTheTorchCheck() {
        // parsed, then refused for --torch none, which is checked after them and before any GPU is looked for
        refused("--like-with-like compares with torch.matmul", "bench", "agmm", "--like-with-like", "--shapes",
                "4,3", "--variants", "lt1m,gemmex", "--torch", "none");
    }

    @Test
    void twoSidesAlternateAbba() {
        List<String> firsts = new ArrayList<>();
        for (int r = 0; r < 4; r++) firsts.add(GemmLikeWithLike.order(List.of("ours", "torch"), r).getFirst());
        assertEquals(List.of("ours", "torch", "torch", "ours"), firsts);
    }

    @Test
    void everySideGoesFirstAndLastEquallyOften() {
        List<String> sides = List.of("ours", "ours-lt1m", "ours-gemmex", "torch");
        Map<String, Integer> first = new HashMap<>(), last = new HashMap<>();
        for (int r = 0; r < 8; r++) {
            List<String> o = GemmLikeWithLike.order(sides, r);
            assertEquals(sides.size(), o.stream().distinct().count(), o.toString());
            first.merge(o.getFirst(), 1, Integer::sum);
            last.merge(o.getLast(), 1, Integer::sum);
        }
        for (String s : sides) {
            assertEquals(2, first.get(s), first.toString());
            assertEquals(2, last.get(s), last.toString());
        }
    }

    private static Map<String, double[]> run(double oursIdle, double oursQueued) {
        return Map.of("ours", new double[] {oursIdle, oursQueued}, "torch", new double[] {0.380, 0.350});
    }

    @Test
    void theCheckIsOnTheQueuedSeriesInEveryRun() {
        // the idle series 7 % off (the launch from an idle GPU) does not decide; the queued one does
        Map<String, List<Map<String, double[]>>> close = Map.of("bfloat16 8192 4096 4096",
                List.of(run(0.407, 0.351), run(0.370, 0.349), run(0.395, 0.3595)));
        assertTrue(GemmLikeWithLike.checkHolds(close));
        Map<String, List<Map<String, double[]>>> oneRunOff = Map.of("bfloat16 8192 4096 4096",
                List.of(run(0.380, 0.351), run(0.380, 0.3615), run(0.380, 0.350)));
        assertEquals(false, GemmLikeWithLike.checkHolds(oneRunOff));
    }

    @Test
    void algorithmIsPrintedWithCublasLtNames() {
        AlgoConfig c = new AlgoConfig(66, 24, 1, 0, 0, 0, 35, 0, 5, 0, 32L << 20, 1.25f);
        assertEquals("algo 66 tile 256x128 stages 64xAUTO cluster 1x2x1 splitK 1 reduction 0 swizzle 0 custom 0"
                + " inner 0, workspace 0 of 33554432 B, waves 1.25", c.describe());
        AlgoConfig unknown = new AlgoConfig(71, 40, 1, 0, 0, 0, 29, 0, 60, 4096, 1L << 20, 0.5f);
        assertTrue(unknown.describe().startsWith("algo 71 tile #40 stages #29 cluster #60 "), unknown.describe());
    }
}
