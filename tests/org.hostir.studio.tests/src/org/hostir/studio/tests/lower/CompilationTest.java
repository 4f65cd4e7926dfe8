package org.hostir.studio.tests.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.lower.LoweringContext;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.lower.Pipeline;
import org.hostir.studio.tests.SeedGeneration;
import org.hostir.studio.tests.TestPaths;
import org.junit.jupiter.api.Test;

/**
 * A {@link Compilation} runs the fusion passes once and lowers each rank once, on demand, keeping the program (or
 * the refusal); a trace is kept only for the ranks asked for up front. Lowering from the shared fusion passes gives
 * every example's every rank the program and trace the whole per-rank pipeline gives.
 */
class CompilationTest {
    private static final LoweringOptions DEFAULTS = SeedGeneration.DEFAULTS;

    @Test
    void theFusionPassesRunOnceAndEachRankIsLoweredOnceThenKept() {
        Compilation c = Compilation.of(TestFusions.agMatmulP2p(4), 4, DEFAULTS, Set.of());
        assertEquals(0, c.fusionStageRuns()); // nothing before it is asked
        HostIrContainer first = c.program(2);
        for (int rank = 0; rank < 4; rank++) c.program(rank);
        assertSame(first, c.program(2));
        assertEquals(4, c.programs(rank -> true).size());
        assertEquals(1, c.fusionStageRuns());
        for (int rank = 0; rank < 4; rank++) assertEquals(1, c.lowerings(rank), "rank " + rank);
    }

    /**
     * Issue 38: ranks whose programs are equal share one kept instance, so that a 16,384-rank simulation keeps one
     * program, not one per rank (a traced rank's too).
     */
    @Test
    void equalProgramsOfRanksAreKeptOnce() {
        Compilation c = Compilation.of(TestFusions.agMatmulP2p(8), 8, DEFAULTS, Set.of());
        Map<Integer, HostIrContainer> all = c.programs(rank -> true);
        for (int rank = 1; rank < 8; rank++) {
            assertEquals(all.get(0), all.get(rank), "rank " + rank); // the all-pairs program names no rank
            assertSame(all.get(0), all.get(rank), "rank " + rank);
        }
        Compilation traced = Compilation.of(TestFusions.agMatmulP2p(8), 8, DEFAULTS, Set.of(3));
        assertSame(traced.program(3), traced.program(4));
    }

    @Test
    void aTracedRankKeepsItsTraceAndIsLoweredOnce() {
        Compilation c = Compilation.of(TestFusions.agMatmulP2p(2), 2, DEFAULTS, Set.of(1));
        HostIrContainer program = c.program(1);
        PassTrace.RankTrace trace = c.trace(1);
        assertSame(trace, c.trace(1));
        assertEquals(HostIrPrinter.print(program, DEFAULTS.nvFuser()), trace.result().print());
        assertEquals(1, c.lowerings(1));
    }

    @Test
    void anUntracedRankKeepsNoTrace() {
        Compilation c = Compilation.of(TestFusions.agMatmulP2p(2), 2, DEFAULTS, Set.of());
        HostIrContainer program = c.program(0);
        assertEquals(1, c.lowerings(0));
        PassTrace.RankTrace asked = c.trace(0); // made now, lowering the rank again with the instrumentations
        assertEquals(2, c.lowerings(0));
        assertEquals(HostIrPrinter.print(program, DEFAULTS.nvFuser()), asked.result().print());
        c.trace(0);
        assertEquals(3, c.lowerings(0), "an untraced rank's trace is not kept");
        assertSame(program, c.program(0), "the first program stays");
        assertEquals(1, c.fusionStageRuns());
    }

    @Test
    void aRefusalIsKeptAsTheProgramIs() {
        Fusion bad = TestFusions.setBetween(DeviceMesh.of(0), DeviceMesh.of(5), false, false);
        Compilation c = Compilation.of(bad, 2, DEFAULTS, Set.of());
        LoweringException first = assertThrows(LoweringException.class, () -> c.program(0));
        assertSame(first, assertThrows(LoweringException.class, () -> c.program(1)));
        assertSame(first, assertThrows(LoweringException.class, c::fused));
        assertEquals(1, c.fusionStageRuns());
    }

    /** Every example, every rank: the shared fusion passes change nothing in what each rank gets. */
    @Test
    void everyExampleLowersAsThePerRankPipelineDoes() throws Exception {
        int compared = 0;
        for (Path file : exampleFiles()) {
            for (int devices : List.of(2, 4)) {
                LoadedFusion loaded;
                try {
                    loaded = Engine.load(new FusionSource.File(file), devices, Map.of());
                } catch (EngineFailure meshesNeedMore) {
                    continue;
                }
                Compilation c = Compilation.of(loaded.fusion(), devices, DEFAULTS, Set.of(0));
                for (int rank = 0; rank < devices; rank++) compared += sameAsPipeline(c, loaded.fusion(), rank);
                assertEquals(1, c.fusionStageRuns(), file.toString());
            }
        }
        assertEquals(true, compared > 300, "compared " + compared + " ranks");
    }

    private static int sameAsPipeline(Compilation c, Fusion fusion, int rank) {
        String what = fusion.name() + " rank " + rank + " of " + c.devices();
        LoweringContext context = new LoweringContext(rank, c.devices(), DEFAULTS);
        String expected;
        try {
            expected = HostIrPrinter.print(Pipeline.of(context.options()).lower(fusion, context));
        } catch (LoweringException refused) {
            assertEquals(refused.errors(), assertThrows(LoweringException.class, () -> c.program(rank)).errors(),
                    what);
            return 1;
        }
        assertEquals(expected, HostIrPrinter.print(c.program(rank)), what);
        if (rank == 0) {
            PassTrace.RankTrace whole = Pipeline.of(DEFAULTS).trace(fusion, c.devices(), DEFAULTS, List.of(0)).rank(0);
            PassTrace.RankTrace shared = c.trace(0);
            assertEquals(steps(whole), steps(shared), what);
            assertEquals(whole.input().print(), shared.input().print(), what);
        }
        return 1;
    }

    private static List<String> steps(PassTrace.RankTrace t) {
        return t.steps().stream().map(s -> s.pass() + " " + s.changed() + "\n" + s.after().print()).toList();
    }

    private static List<Path> exampleFiles() throws IOException {
        try (Stream<Path> s = Files.walk(TestPaths.repo("examples"))) {
            return s.filter(p -> p.toString().endsWith(".fusion")).sorted().toList();
        }
    }
}
