package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.trace.Breakdown;
import org.hostir.studio.trace.ChromeTraceReader;
import org.hostir.studio.trace.ChromeTraceWriter;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.analysis.ExchangeMatrix;
import org.junit.jupiter.api.Test;

/**
 * Issue 39, Deliver 4: the bars of a MoeDispatch's and a MoeCombine's AllToAllvs carry the bytes each rank sends
 * to each rank, on the CPU backend at 4 ranks with a skewed routing (most tokens to rank 0's experts); the
 * dispatch's matrix is what the routing says, the combine's is its transpose, and the Chrome trace keeps them.
 * {@code -Dhirstudio.moeTrace=FILE} writes the run's trace (examples/moe/dispatch_combine_skewed.trace.json, which
 * the guide's picture opens; {@link #theCommittedTraceIsThisRunsMatrices} keeps it true).
 */
class MoeExchangeTraceTest {
    private static final int WORLD = 4, PER_RANK = 2, TOKENS = 8, HIDDEN = 4;

    /** Token t of rank r goes to expert 0 (rank 0's) for t < 5, else to expert (t + 2 r) mod E: a hot rank 0. */
    static long expert(int rank, int token, int world) { return token < 5 ? 0 : (token + 2L * rank) % (world * PER_RANK); }

    static Timeline run() throws Exception {
        try (CpuBackend backend = new CpuBackend(WORLD, 10_000)) {
            return run(backend, WORLD);
        }
    }

    /** The dispatch + combine program on {@code backend}'s first {@code world} devices, and its timeline. */
    static Timeline run(Backend backend, int world) throws Exception {
        MoePrograms.Built b = MoePrograms.build(world, world * PER_RANK, DataType.FLOAT);
        MoePrograms.Tensors t = b.t();
        List<Map<Integer, DenseTensor>> in = new ArrayList<>();
        for (int rank = 0; rank < world; rank++) {
            long[] idx = new long[TOKENS];
            float[] x = new float[TOKENS * HIDDEN];
            float[] w = new float[TOKENS];
            for (int k = 0; k < TOKENS; k++) idx[k] = expert(rank, k, world);
            for (int k = 0; k < x.length; k++) x[k] = k + rank * 1000f;
            in.add(Map.of(t.inX().id(), DenseTensor.of(DataType.FLOAT, new long[] {TOKENS, HIDDEN}, x),
                    t.inTopkIdx().id(), DenseTensor.ofLongs(DataType.INT64, new long[] {TOKENS, 1}, idx),
                    t.inTopkWeights().id(), DenseTensor.of(DataType.FLOAT, new long[] {TOKENS, 1}, w)));
        }
        var program = MoePrograms.program(b, List.of(b.dispatch(), b.combine()),
                List.of(t.inX(), t.inTopkIdx(), t.inTopkWeights()), List.of(t.combined()));
        backend.resetTimeline();
        MoePrograms.run(program, world, in, backend);
        return backend.timeline();
    }

    /** Tokens rank {@code from} routes to rank {@code to}'s experts. */
    private static long tokens(int from, int to, int world) {
        long n = 0;
        for (int k = 0; k < TOKENS; k++) if (expert(from, k, world) / PER_RANK == to) n++;
        return n;
    }

    private static ExchangeMatrix matrix(Timeline timeline, String exchange) {
        TimelineEvent bar = timeline.events().stream().filter(e -> e.breakdown().map(Breakdown::exchange)
                .filter(exchange::equals).isPresent()).findFirst().orElseThrow(() -> new AssertionError(exchange));
        return ExchangeMatrix.of(timeline, bar).orElseThrow();
    }

    private static void assertMatrices(Timeline timeline) { assertMatrices(timeline, WORLD); }

    /** Every exchange's matrix is the routing's, the combine's the dispatch's transpose, on {@code world} ranks. */
    static void assertMatrices(Timeline timeline, int world) {
        String dispatch = timeline.events().stream().flatMap(e -> e.breakdown().stream()).map(Breakdown::exchange)
                .filter(x -> x.startsWith("Dispatch ") && x.endsWith(" x")).findFirst().orElseThrow();
        String combine = timeline.events().stream().flatMap(e -> e.breakdown().stream()).map(Breakdown::exchange)
                .filter(x -> x.startsWith("Combine ") && x.endsWith(" x")).findFirst().orElseThrow();
        String idx = dispatch.replace(" x", " topk_idx");
        ExchangeMatrix d = matrix(timeline, dispatch), c = matrix(timeline, combine), i = matrix(timeline, idx);
        assertEquals(world, d.ranks(), "ranks of " + dispatch);
        for (int from = 0; from < world; from++) {
            for (int to = 0; to < world; to++) {
                assertEquals(tokens(from, to, world) * HIDDEN * 4, d.bytes(from, to), dispatch + " " + from + "->" + to);
                assertEquals(tokens(from, to, world) * 8, i.bytes(from, to), idx + " " + from + "->" + to);
                assertEquals(d.bytes(from, to), c.bytes(to, from), combine + " is the dispatch's transpose");
            }
        }
        assertEquals((long) world * TOKENS * HIDDEN * 4, d.total());
        assertEquals(0, d.hottestReceiver(), "rank 0's experts take most tokens");
        if (world > 1) assertArrayEquals(new int[] {1, 0}, d.hottest().orElseThrow(), "the busiest link: 1 to 0");
        else assertTrue(d.hottest().isEmpty(), "one rank: its local copy, no link");
    }

    @Test
    void exchangesCarryTheBytesEachRankSendsToEachRank() throws Exception {
        Timeline timeline = run();
        assertMatrices(timeline);
        String out = System.getProperty("hirstudio.moeTrace");
        if (out != null) ChromeTraceWriter.write(timeline, Map.of("run", "MoeExchangeTraceTest"), Path.of(out));
    }

    /** One rank (what one GPU runs, CudaMoeKernelsTest): every exchange is the rank's local copy, a 1 x 1 matrix. */
    @Test
    void atOneRankTheMatrixIsTheLocalCopy() throws Exception {
        try (CpuBackend backend = new CpuBackend(1, 10_000)) {
            assertMatrices(run(backend, 1), 1);
        }
    }

    @Test
    void theChromeTraceKeepsTheBreakdowns() throws Exception {
        Timeline timeline = run();
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        ChromeTraceWriter.write(timeline, Map.of(), bytes);
        Timeline back = ChromeTraceReader.read(bytes.toString(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(timeline.events().stream().map(TimelineEvent::breakdown).toList(),
                back.events().stream().map(TimelineEvent::breakdown).toList());
        assertMatrices(back);
    }

    @Test
    void theCommittedTraceIsThisRunsMatrices() throws Exception {
        Path file = RepoPaths.repo().resolve("examples/moe/dispatch_combine_skewed.trace.json");
        assertTrue(Files.isRegularFile(file), file + " (write it with -Dhirstudio.moeTrace)");
        assertMatrices(ChromeTraceReader.read(file));
    }
}
