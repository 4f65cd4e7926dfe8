package org.hostir.studio.tests.property;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.cli.Main;
import org.hostir.studio.tests.RepoPaths;
import org.hostir.studio.tests.SeedGeneration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30, deliverable 3: an oracle the project did not write. Generated fusions ({@link SpaceGenerator}'s
 * enumeration, every k-th, and {@link RandomSpace}'s seeded ones) are run by the command line, {@code hirstudio run
 * FILE --backend cpu --save-npy DIR}, in this JVM; then ONE {@code python3 scripts/numpy_oracle.py} process
 * recomputes every saved output with numpy from the saved unsharded inputs and compares (docs/validation.md). Any
 * numpy mismatch, any fusion numpy (as PyTorch) refuses that ran, any run-time failure after check said ok, any
 * validation failure of the engine's own, any refusal without a rule and any internal error fails the test.
 *
 * <p>{@code -Doracle.count=N} (default 300, within about a minute here) and {@code -Doracle.seed=S} (default 30),
 * through {@code HIRSTUDIO_JAVA_OPTS}; {@code -Doracle.dir=DIR} keeps the runs ({@code python3 scripts/numpy_oracle.py
 * @DIR/manifests.txt} reruns the oracle); {@code -Dgenerated.failing=DIR} writes the smallest fusion of each failure
 * class there. Skipped, saying why, only where python3 with numpy is missing (CI installs python3-numpy).
 */
class NumpyOracleTest {
    private static final int COUNT = Integer.getInteger("oracle.count", 300);
    private static final long SEED = Long.getLong("oracle.seed", 30);
    private static final String FAILING = System.getProperty("generated.failing");
    /** {@code -Doracle.dir=DIR}: keep the fusions and saved runs there (else a temporary folder), to rerun the oracle. */
    private static final String KEEP = System.getProperty("oracle.dir");
    /** A refusal: {@code error: FILE[:LINE]: ...: what [rule]}. */
    private static final Pattern CLEAN = Pattern.compile("error: .*\\[[a-z0-9]+(\\.[a-z0-9-]+)*]");
    private static final Pattern ORACLE_LINE = Pattern.compile("(OK|MISMATCH|REFUSED|ERROR) (\\S+)[^:]*(?:: (.*))?");

    /** Half the enumeration's cases, evenly spread, half random ones. */
    static List<SpaceCase> cases(int count, long seed) {
        List<SpaceCase> all = SpaceGenerator.all();
        int enumerated = count / 2;
        List<SpaceCase> cases = new ArrayList<>();
        for (int i = 0; i < enumerated; i++) cases.add(all.get((int) ((seed + (long) i * all.size() / enumerated) % all.size())));
        for (int i = 0; cases.size() < count; i++) cases.add(RandomSpace.generate(seed * 7_000_003L + i));
        return cases;
    }

    @Test
    void numpyRecomputesEveryGeneratedRun(@TempDir Path temp) throws Exception {
        assumeTrue(numpyAvailable(), "python3 with numpy is missing here (CI installs python3-numpy): the oracle cannot run");
        recompute(cases(COUNT, SEED), KEEP == null ? temp : Files.createDirectories(Path.of(KEEP).toAbsolutePath()),
                "numpy-oracle", SEED, COUNT / 4);
    }

    /**
     * Issue 34: the same fusions written inputs-only ({@link InputsOnly}: every other tensor's mesh and shardings
     * left to propagation), run and recomputed by numpy from their saved inputs: propagation's outputs checked by an
     * oracle that knows nothing of it. {@code -Doracle.inputsOnly.count=N} (default 80).
     */
    @Test
    void numpyRecomputesEveryInputsOnlyRun(@TempDir Path temp) throws Exception {
        assumeTrue(numpyAvailable(), "python3 with numpy is missing here (CI installs python3-numpy): the oracle cannot run");
        int count = Integer.getInteger("oracle.inputsOnly.count", 80);
        List<SpaceCase> cases = new ArrayList<>();
        for (SpaceCase c : cases(count * 2, SEED + 1)) {
            String text = InputsOnly.of(c.text());
            if (!InputsOnly.leavesSomethingUnstated(text) || cases.size() == count) continue;
            cases.add(new SpaceCase(c.id() + "-inputs-only", c.template(), c.dtype(), c.change(), c.mesh(), c.layout(),
                    c.devices(), c.options(), text, c.seed()));
        }
        recompute(cases, temp, "numpy-oracle inputs-only", SEED + 1, cases.size() / 4);
    }

    /**
     * Issue 39: the MoE ops' templates (topk, topk_indices, scatter, grouped_mm) over every dtype and change, every
     * {@code oracle.moe.stride}-th case (default 23, 39 fusions), run and recomputed by numpy; at least
     * an eighth must run: most of the space's changes shard a scatter tensor or a grouped_mm axis that nvFuser does
     * not shard (sharding.grouped-mm), refused with a rule, as bool topk, integer grouped_mm and fp8 are refused;
     * grouped_mm's column- and row-parallel forms run (stride 3: 297 cases, 94 run, 203 refused).
     */
    @Test
    void numpyRecomputesTheMoeOps(@TempDir Path temp) throws Exception {
        assumeTrue(numpyAvailable(), "python3 with numpy is missing here (CI installs python3-numpy): the oracle cannot run");
        int stride = Integer.getInteger("oracle.moe.stride", 23);
        List<SpaceCase> moe = SpaceGenerator.all().stream().filter(c -> c.template().startsWith("topk")
                || c.template().startsWith("scatter") || c.template().startsWith("grouped_mm")).toList();
        List<SpaceCase> cases = new ArrayList<>();
        for (int i = (int) (SEED % stride); i < moe.size(); i += stride) cases.add(moe.get(i));
        recompute(cases, temp, "numpy-oracle moe ops", SEED, cases.size() / 8);
    }

    private static void recompute(List<SpaceCase> cases, Path dir, String label, long seed, int leastSaved)
            throws Exception {
        long start = System.nanoTime();
        Map<String, Integer> tally = new TreeMap<>();
        FailureClasses failures = new FailureClasses();
        Map<String, SpaceCase> byManifest = new HashMap<>();
        for (int i = 0; i < cases.size(); i++) {
            SpaceCase c = cases.get(i);
            Path home = Files.createDirectories(dir.resolve("c" + i));
            Files.deleteIfExists(home.resolve("npy/manifest.json")); // a kept folder's last run (--force replaces the rest)
            String status = run(c, home, failures);
            tally.merge(status, 1, Integer::sum);
            Path manifest = home.resolve("npy/manifest.json");
            if (Files.exists(manifest)) byManifest.put(manifest.toString(), c);
        }
        double runSeconds = (System.nanoTime() - start) / 1e9;
        String summary = oracle(dir, byManifest, failures, tally);
        System.out.printf("%s: %d fusions (seed %d) run in %.1f s, oracle %.1f s: %s%n  %s%n", label, cases.size(),
                seed, runSeconds, (System.nanoTime() - start) / 1e9 - runSeconds, tally, summary);
        System.out.print(failures.report());
        if (FAILING != null) failures.save(Path.of(FAILING));
        assertTrue(failures.isEmpty(), () -> "the numpy oracle or the run disagree:\n" + failures.report());
        assertTrue(tally.getOrDefault("saved", 0) >= leastSaved, "most generated fusions run: " + tally);
    }

    /** The oracle's rounding (bfloat16, fp8, half) and integer rules against values worked out by hand. */
    @Test
    void theOracleAgreesWithHandWorkedValues() throws Exception {
        assumeTrue(numpyAvailable(), "python3 with numpy is missing here (CI installs python3-numpy): the oracle cannot run");
        Result r = python(List.of("--self-test"));
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("self-test passed"), r.output());
    }

    /** The oracle is no check that cannot fail: a saved output changed by one element is a mismatch. */
    @Test
    void theOracleFindsAChangedElement(@TempDir Path dir) throws Exception {
        assumeTrue(numpyAvailable(), "python3 with numpy is missing here (CI installs python3-numpy): the oracle cannot run");
        SpaceCase c = SpaceGenerator.make(SpaceTemplates.of(org.hostir.studio.file.OpKind.SUM,
                org.hostir.studio.ir.DataType.FLOAT).getFirst(), org.hostir.studio.ir.DataType.FLOAT,
                SpaceGenerator.Change.REDUCE_SCATTER, SpaceGenerator.MeshKind.IN_ORDER, SpaceGenerator.Layout.LOGICAL,
                Map.of(), 4);
        Path manifest = dir.resolve("npy/manifest.json");
        assertEquals("saved", run(c, dir, new FailureClasses()), c.text());
        assertEquals(0, python(List.of(manifest.toString())).exitCode());
        Path out = Files.list(dir.resolve("npy")).filter(p -> p.getFileName().toString().startsWith("out_"))
                .findFirst().orElseThrow();
        byte[] b = Files.readAllBytes(out);
        b[b.length - 2] ^= 0x40; // the last float's exponent
        Files.write(out, b);
        Result r = python(List.of(manifest.toString()));
        assertEquals(1, r.exitCode(), r.output());
        assertTrue(r.output().startsWith("MISMATCH"), r.output());
    }

    /**
     * One fusion through {@code hirstudio check}, then, where check says ok, {@code hirstudio run}: "saved",
     * "refused", "raised" (an integer division by a zero of the random inputs, as PyTorch raises) or the failure's
     * kind (recorded).
     */
    private static String run(SpaceCase c, Path home, FailureClasses failures) throws IOException {
        Path file = home.resolve("case.fusion");
        Files.writeString(file, c.text());
        List<String> check = new ArrayList<>(List.of("check", file.toString(), "--devices",
                Integer.toString(c.devices())));
        check.addAll(List.of(c.optionArguments()));
        String checked = cli(check, c, failures);
        if (checked != null) return checked;
        List<String> args = new ArrayList<>(List.of("run", file.toString(), "--backend", "cpu", "--devices",
                Integer.toString(c.devices()), "--iterations", "1", "--warmup", "0", "--timeout", "5", "--seed",
                Long.toString(c.seed() & 0x7fffffffL), "--save-npy", home.resolve("npy").toString(), "--force"));
        args.addAll(List.of(c.optionArguments()));
        String ran = cli(args, c, failures);
        return ran == null ? "saved" : ran;
    }

    /** One command line in this JVM: null when it exits 0, else "refused", "raised" or the failure's kind. */
    private static String cli(List<String> args, SpaceCase c, FailureClasses failures) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            // the generation under test (the seeds' unless -Dhirstudio.tests.nvfuser names another), not the
            // command line's default (the newest), as GeneratedSpaceTest's Outcome lowers
            rc = new Main().run(SeedGeneration.pin(args.toArray(String[]::new)), o, e);
        }
        String stdout = out.toString(StandardCharsets.UTF_8);
        String stderr = err.toString(StandardCharsets.UTF_8);
        String kind = switch (rc) {
            case 0 -> null;
            case 2 -> stderr.lines().allMatch(l -> CLEAN.matcher(l).matches()) && !stderr.isBlank() ? "refused"
                    : "UNCLEAN_REFUSAL";
            case 1 -> stdout.contains("validation: FAIL") ? "WRONG_ANSWER"
                    : stderr.contains(Outcome.ZERO_DIVISOR) ? "raised" : "RUN_TIME_FAILURE";
            default -> "INTERNAL_ERROR";
        };
        if (kind != null && !kind.equals("refused") && !kind.equals("raised")) {
            String what = stdout.lines().filter(l -> l.startsWith("validation: FAIL")).findFirst().orElse(stderr.strip());
            failures.add(kind, c, what);
        }
        return kind;
    }

    /** Runs the oracle once over every saved manifest; records its mismatches; returns its summary line. */
    private static String oracle(Path dir, Map<String, SpaceCase> byManifest, FailureClasses failures,
                                 Map<String, Integer> tally) throws Exception {
        if (byManifest.isEmpty()) return "numpy-oracle: nothing saved";
        Path list = dir.resolve("manifests.txt");
        Files.write(list, byManifest.keySet());
        Result r = python(List.of("--quiet", "@" + list));
        String summary = "";
        for (String line : r.output().lines().toList()) {
            if (line.startsWith("numpy-oracle:")) {
                summary = line;
                continue;
            }
            Matcher m = ORACLE_LINE.matcher(line);
            SpaceCase c = m.matches() ? byManifest.get(m.group(2)) : null;
            if (c == null) {
                failures.add("ORACLE_OUTPUT", byManifest.values().iterator().next(), line);
                continue;
            }
            String kind = "NUMPY_" + m.group(1);
            tally.merge(kind, 1, Integer::sum);
            failures.add(kind, c, m.group(3) == null ? line : m.group(3));
        }
        assertTrue(!summary.isEmpty() && r.exitCode() <= 1, "the oracle ran: " + r.output());
        return summary;
    }

    record Result(int exitCode, String output) {}

    private static Result python(List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("python3", RepoPaths.repo().resolve("scripts/numpy_oracle.py")
                .toString()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "the oracle finished");
        return new Result(p.exitValue(), output);
    }

    static boolean numpyAvailable() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import numpy").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
