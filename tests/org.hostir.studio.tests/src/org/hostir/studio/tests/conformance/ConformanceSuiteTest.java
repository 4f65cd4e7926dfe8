package org.hostir.studio.tests.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.BackendPlan;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.ValidatePass;
import org.hostir.studio.tests.TestPaths;
import org.hostir.studio.tests.print.SeedDumps;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Issue 15, item 4: nvFuser's own lowering tests, ported as {@code examples/conformance/*.fusion} with their
 * expectations ({@link ConformanceCase}). Each case: the lowering of every rank compared with the golden dump
 * (whitespace and id numbering normalised as the seed tests do, {@link SeedDumps#normalize}: symbol identity is
 * kept), or the refusal compared by rule (check or lowering, with a file line), and the CPU run validated against
 * the unsharded reference at each device count the case names. {@code -Dconformance.update=true} rewrites the
 * goldens from the current lowering, for review against nvFuser's code (see {@code docs/conformance.md}).
 */
class ConformanceSuiteTest {
    private static final boolean UPDATE = Boolean.getBoolean("conformance.update");

    static List<ConformanceCase> cases() throws IOException {
        try (Stream<Path> files = Files.list(TestPaths.repo("examples", "conformance"))) {
            List<ConformanceCase> out = new ArrayList<>();
            for (Path f : files.filter(p -> p.toString().endsWith(".fusion")).sorted().toList()) {
                out.add(ConformanceCase.read(f));
            }
            return out;
        }
    }

    @TestFactory
    Stream<DynamicNode> everyCaseLowersAndValidatesAsNvFuser() throws IOException {
        return cases().stream().map(c -> {
            List<DynamicNode> checks = new ArrayList<>();
            checks.add(DynamicTest.dynamicTest("lowering", () -> checkLowering(c)));
            for (int devices : c.validateAt()) {
                checks.add(DynamicTest.dynamicTest("validates on " + devices + " devices", () -> validate(c, devices)));
            }
            return DynamicContainer.dynamicContainer(c.name(), checks);
        });
    }

    /** Every golden case names where it validates, a rejection names none: no case is only half checked. */
    @Test
    void everyCaseIsCompleteAndDocumented() throws IOException {
        String doc = Files.readString(TestPaths.repo("docs", "conformance.md"));
        List<ConformanceCase> all = cases();
        assertTrue(all.size() >= 38, "the suite has its cases: " + all.size());
        for (ConformanceCase c : all) {
            assertEquals(c.rejectedRule().isEmpty(), !c.validateAt().isEmpty(), c.name() + ": validate iff lowered");
            assertTrue(doc.contains("`" + c.name() + "`"), c.name() + " is listed in docs/conformance.md");
        }
    }

    /** The case's options; its nvFuser generation is the seeds' (2025-06) unless it names another. */
    static LoweringOptions options(ConformanceCase c) {
        Map<String, String> pairs = new LinkedHashMap<>(c.options());
        pairs.putIfAbsent(ValidatePass.NVFUSER.key(), NvFuserGeneration.V2025_06.label());
        return LoweringOptions.parse(pairs);
    }

    private static void checkLowering(ConformanceCase c) throws Exception {
        String text = Files.readString(c.fusion());
        if (c.expect() instanceof ConformanceCase.Expect.Rejected r) {
            if (c.differs().isEmpty()) {
                assertRejected(c, text, r.rule());
            } else {
                Optional<EngineFailure> e = refusal(c, text);
                assertTrue(e.isEmpty() || !e.get().diagnostics().getFirst().rule().equals(r.rule()),
                        c.name() + ": refused as nvFuser now; remove its 'differs' line and update docs/conformance.md");
            }
            return;
        }
        Map<Integer, String> want = expectedDumps(c);
        Map<Integer, String> got = lowered(c, text, want.keySet());
        if (UPDATE && c.differs().isEmpty() && c.expect() instanceof ConformanceCase.Expect.Golden) {
            Files.writeString(c.expectedFile(), c.withGolden(got));
            return;
        }
        assertEquals(want.keySet(), got.keySet(), c.name() + ": a golden for every rank");
        boolean same = want.keySet().stream().allMatch(
                rank -> SeedDumps.normalize(want.get(rank)).equals(SeedDumps.normalize(got.get(rank))));
        if (c.differs().isEmpty()) {
            for (int rank : got.keySet()) {
                assertEquals(SeedDumps.normalize(want.get(rank)), SeedDumps.normalize(got.get(rank)),
                        () -> c.name() + " rank " + rank + "\n--- lowered ---\n" + got.get(rank)
                                + "--- nvFuser ---\n" + want.get(rank));
            }
            return;
        }
        assertFalse(same, c.name() + ": lowers as nvFuser now; remove its 'differs' line and update docs/conformance.md");
        String area = c.differs().get().area();
        if (area.equals("symbols") || area.equals("flags")) {
            UnaryOperator<String> only = area.equals("symbols") ? ConformanceSuiteTest::withoutSymbols
                    : d -> SeedDumps.normalize(d).replaceAll("flags=\\{[a-z,]*\\}", "flags=_");
            for (int rank : got.keySet()) {
                assertEquals(only.apply(want.get(rank)), only.apply(got.get(rank)),
                        () -> c.name() + " rank " + rank + ": more than the " + area + " differ\n--- lowered ---\n"
                                + got.get(rank) + "--- nvFuser ---\n" + want.get(rank));
            }
        }
    }

    /** The golden dumps by rank: the case's own, or the seed's dump for rank 0. */
    private static Map<Integer, String> expectedDumps(ConformanceCase c) {
        return switch (c.expect()) {
            case ConformanceCase.Expect.Golden g -> g.dumps().isEmpty() && UPDATE ? allRanks(c) : g.dumps();
            case ConformanceCase.Expect.Seed s -> Map.of(0, s.marker().startsWith("#")
                    ? SeedDumps.dumps(s.prefix()).get(Integer.parseInt(s.marker().substring(1)))
                    : SeedDumps.dumpAfter(s.prefix(), s.marker() + " "));
            case ConformanceCase.Expect.Rejected r -> throw new IllegalStateException(r.rule());
        };
    }

    private static Map<Integer, String> allRanks(ConformanceCase c) {
        Map<Integer, String> m = new LinkedHashMap<>();
        for (int rank = 0; rank < c.devices(); rank++) m.put(rank, "");
        return m;
    }

    private static Map<Integer, String> lowered(ConformanceCase c, String text, Iterable<Integer> ranks)
            throws Exception {
        LoadedFusion loaded = load(c, text, c.devices());
        Map<Integer, String> printed = new LinkedHashMap<>();
        LoweringOptions options = options(c);
        for (int rank : ranks) {
            printed.put(rank, HostIrPrinter.print(Engine.lowerRank(loaded, options, rank), options.nvFuser()));
        }
        return printed;
    }

    private static void assertRejected(ConformanceCase c, String text, String rule) {
        Optional<EngineFailure> failure = refusal(c, text);
        EngineFailure e = failure.orElseThrow(() -> new AssertionError(c.name() + ": lowered, nvFuser refuses it ["
                + rule + "]"));
        assertEquals(EngineFailure.Kind.BAD_INPUT, e.kind(), c.name() + ": " + e.lines());
        Diagnostic d = e.diagnostics().getFirst();
        assertEquals(rule, d.rule(), c.name() + ": " + e.lines());
        assertTrue(d.line() > 0, c.name() + ": the refusal names a line of the file: " + d);
    }

    /** Check's refusal, else the first rank's lowering refusal, else none. */
    static Optional<EngineFailure> refusal(ConformanceCase c, String text) {
        try {
            LoadedFusion loaded = load(c, text, c.devices());
            for (int rank = 0; rank < c.devices(); rank++) Engine.lowerRank(loaded, options(c), rank);
            return Optional.empty();
        } catch (EngineFailure e) {
            return Optional.of(e);
        }
    }

    private static void validate(ConformanceCase c, int devices) throws Exception {
        LoadedFusion loaded = load(c, Files.readString(c.fusion()), devices);
        RunRequest request = RunRequest.cpu(devices, options(c));
        RunResult r = Engine.run(loaded, BackendPlan.choose(request, c.name()), line -> { });
        var v = r.validation().orElseThrow(() -> new AssertionError(c.name() + ": no validation"));
        assertTrue(v.passed(), c.name() + " on " + devices + " devices: " + v.line());
        assertFalse(r.programs().isEmpty(), c.name() + ": programs ran");
    }

    /** The seed tests' normalisation with symbols made anonymous: only for a known symbol difference. */
    private static String withoutSymbols(String dump) {
        return SeedDumps.normalize(dump).replaceAll("(?<![A-Za-z0-9_.])i\\d+(?![0-9])", "i_");
    }

    static LoadedFusion load(ConformanceCase c, String text, int devices) throws EngineFailure {
        return Engine.load(new FusionSource.Text(text, "examples/conformance/" + c.name() + ".fusion"), devices,
                Map.of());
    }

}
