package org.hostir.studio.tests.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31, Deliver 6: the project's own hostile-input suite. Several hundred cases are generated (seeded, the same
 * on every machine) over every command and its flags: hostile names and descriptions, paths, numbers, repeated
 * flags, profiles, dumps, JSON, traces and signals mid-write. Each is classified by its result ({@link Verdict}); none may
 * be a wrong acceptance, a destroyed file, an internal error or an unclear error. In CI the runs and simulations
 * are sampled; {@code -Dhostile.full=true} runs every case ({@code HIRSTUDIO_JAVA_OPTS=-Dhostile.full=true
 * ./hirstudio unit Hostile}), {@code -Dhostile.report=FILE} writes the whole report to a file.
 */
class HostileSuiteTest {
    private static final long SEED = 31;
    /** In CI, one heavy case (a run or a simulation) of this many. */
    private static final int HEAVY_EVERY = 5;

    static List<HostileCase> generated() {
        List<HostileCase> all = new ArrayList<>();
        all.addAll(TextCases.all());
        all.addAll(PathCases.all());
        all.addAll(NumberCases.all());
        all.addAll(FlagCases.all());
        all.addAll(ProfileCases.all());
        all.addAll(DumpCases.all());
        all.addAll(JsonCases.all());
        all.addAll(TraceCases.all());
        return all;
    }

    @Test
    void everyHostileInputIsAcceptedCorrectlyOrRefusedClearly(@TempDir Path root) throws Exception {
        boolean full = Boolean.getBoolean("hostile.full");
        List<HostileCase> cases = HostileSuite.select(generated(), full, SEED, HEAVY_EVERY);
        HostileSuite suite = new HostileSuite();
        List<HostileSuite.Result> results = new ArrayList<>();
        Map<HostileSuite.Result, Path> dirs = new IdentityHashMap<>();
        long start = System.nanoTime();
        try {
            for (int i = 0; i < cases.size(); i++) {
                Path dir = root.resolve("case" + i);
                HostileSuite.Result r = suite.run(cases.get(i), dir);
                results.add(r);
                dirs.put(r, dir);
            }
            List<SignalCases.Interruption> signals = SignalCases.all();
            for (SignalCases.Interruption i : full ? signals : signals.subList(0, 2)) {
                Path dir = root.resolve("signal" + results.size());
                HostileSuite.Result r = SignalCases.run(i, dir);
                results.add(r);
                dirs.put(r, dir);
            }
        } finally {
            suite.close();
        }
        long seconds = (System.nanoTime() - start) / 1_000_000_000;
        String report = HostileReport.counts(results, "hostile-input suite: " + results.size() + " cases in "
                + seconds + " s (" + (full ? "full run" : "CI sample: 1 heavy case of " + HEAVY_EVERY + ", seed "
                + SEED) + ")") + HostileReport.failures(results, dirs::get);
        System.out.println(report);
        String file = System.getProperty("hostile.report");
        if (file != null) Files.writeString(Path.of(file), report);
        Map<Verdict, Integer> bad = new EnumMap<>(Verdict.class);
        results.stream().filter(r -> r.outcome().verdict().bad()).forEach(r -> bad.merge(r.outcome().verdict(), 1,
                Integer::sum));
        assertTrue(results.size() >= 500, "at least 500 cases, got " + results.size());
        assertTrue(results.stream().anyMatch(r -> r.hostile().family().equals("signals")
                && !r.outcome().reason().equals(SignalCases.ENDED_FIRST)), "no signal reached a run mid-write");
        assertEquals(Map.of(), bad, () -> "bad outcomes (each case is listed above):\n"
                + HostileReport.failures(results, dirs::get).lines().limit(60).reduce("", (a, l) -> a + l + "\n"));
    }

    /** Every command is reached in CI, by at least 500 cases; the families are all there. */
    @Test
    void theGeneratorCoversEveryCommand() {
        List<HostileCase> ci = HostileSuite.select(generated(), false, SEED, HEAVY_EVERY);
        assertTrue(ci.size() >= 500, "cases in CI: " + ci.size());
        assertEquals(Set.of("names", "paths", "numbers", "flags", "profiles", "dumps", "json", "traces"),
                Set.copyOf(ci.stream().map(HostileCase::family).toList()));
        Set<String> commands = new TreeSet<>();
        for (HostileCase c : ci) commands.add(c.command());
        assertEquals(new TreeSet<>(List.of("check", "debug", "diff", "dump", "export --cpp", "export --python", "lower",
                "run --backend cpu", "run --backend sim", "sweep", "trace")), commands);
    }
}
