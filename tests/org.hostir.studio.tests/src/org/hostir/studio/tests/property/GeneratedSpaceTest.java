package org.hostir.studio.tests.property;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.hostir.studio.file.OpKind;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.tests.property.SpaceGenerator.Change;
import org.hostir.studio.tests.property.SpaceGenerator.Layout;
import org.hostir.studio.tests.property.SpaceGenerator.MeshKind;
import org.junit.jupiter.api.Test;

/**
 * Issue 30, deliverable 2: every fusion of the enumerated space ({@link SpaceGenerator}) and of the random fusions on
 * top ({@link RandomSpace}) that check accepts lowers and validates on the CPU backend at its device count, and
 * every one that check refuses is refused with a rule and a file line: never a wrong answer, a run-time failure
 * after check said ok, a refusal without a rule, or an internal error.
 *
 * <p>CI runs a sample: every {@code generated.stride}-th enumerated case (default 71) and {@code generated.random}
 * random ones (default 60, seeds from {@code generated.seed}, default 30), a few seconds. {@code -Dgenerated.full=true}
 * (through {@code HIRSTUDIO_JAVA_OPTS}) runs the whole enumeration and 2,000 random fusions. {@code
 * -Dgenerated.failing=DIR} writes the smallest failing fusion of each class there, with the command that replays it.
 */
class GeneratedSpaceTest {
    private static final boolean FULL = Boolean.getBoolean("generated.full");
    private static final int STRIDE = Integer.getInteger("generated.stride", 71);
    private static final int RANDOM = Integer.getInteger("generated.random", FULL ? 2000 : 60);
    private static final long SEED = Long.getLong("generated.seed", 30);
    private static final String FAILING = System.getProperty("generated.failing");
    /** {@code -Dgenerated.verbose=true}: one line per fusion, its id, outcome and message. */
    private static final boolean VERBOSE = Boolean.getBoolean("generated.verbose");

    static List<SpaceCase> cases() {
        List<SpaceCase> all = new ArrayList<>(FULL ? SpaceGenerator.all() : SpaceGenerator.sample(STRIDE, (int) SEED));
        LongStream.range(0, RANDOM).forEach(i -> all.add(RandomSpace.generate(SEED * 1_000_003L + i)));
        return all;
    }

    @Test
    void everyAcceptedFusionValidatesAndEveryRefusalIsClean() throws IOException {
        long start = System.nanoTime();
        List<SpaceCase> cases = cases();
        Map<Outcome.Kind, Integer> kinds = new EnumMap<>(Outcome.Kind.class);
        Map<String, Integer> rules = new TreeMap<>();
        FailureClasses failures = new FailureClasses();
        for (SpaceCase c : cases) {
            Outcome o = Outcome.of(c);
            kinds.merge(o.kind(), 1, Integer::sum);
            if (!o.rule().isEmpty()) rules.merge(o.rule(), 1, Integer::sum);
            if (VERBOSE) System.out.println("  " + c.id() + " " + o.kind() + " " + o.detail());
            if (!o.kind().allowed()) failures.add(o.kind().name(), c, o.detail());
        }
        System.out.printf("generated-space: %s, %d fusions (stride %d, %d random from seed %d) in %.1f s: %s%n"
                + "  refusals by rule: %s%n", FULL ? "full" : "sample", cases.size(), STRIDE, RANDOM, SEED,
                (System.nanoTime() - start) / 1e9, kinds, rules);
        System.out.print(failures.report());
        if (FAILING != null) failures.save(Path.of(FAILING));
        assertTrue(failures.isEmpty(), () -> "accepted fusions that do not validate, or unclean refusals:\n"
                + failures.report());
        assertTrue(kinds.getOrDefault(Outcome.Kind.VALIDATED, 0) >= cases.size() / 4,
                "most generated fusions are accepted, not refused: " + kinds);
    }

    /** The space is derived from the declarations: every op, dtype, change, mesh kind, layout and option value. */
    @Test
    void theSpaceCoversEveryOpDtypeChangeMeshLayoutAndOption() {
        List<SpaceCase> all = SpaceGenerator.all();
        String text = all.stream().map(SpaceCase::text).collect(Collectors.joining());
        for (OpKind k : OpKind.values()) assertTrue(text.contains("\"op\": \"" + k.fileName() + "\""), k.fileName());
        for (DataType t : DataType.values()) {
            assertTrue(all.stream().anyMatch(c -> c.dtype().equals(t.fileName())), t.fileName());
            assertTrue(text.contains("\"dtype\": \"" + t.fileName() + "\""), t.fileName());
        }
        assertEquals(Set.of(Change.values()), all.stream().map(c -> Change.valueOf(c.change())).collect(Collectors.toSet()));
        assertEquals(Set.of(MeshKind.values()), all.stream().map(c -> MeshKind.valueOf(c.mesh())).collect(Collectors.toSet()));
        assertEquals(Set.of(Layout.values()), all.stream().map(c -> Layout.valueOf(c.layout())).collect(Collectors.toSet()));
        for (Map<String, String> o : SpaceGenerator.optionSettings()) {
            assertTrue(all.stream().anyMatch(c -> c.options().equals(o)), "option setting " + o);
        }
        for (String form : List.of("\"outer_split\"", "\"split\"", "\"DIDy\"", "\"Stream\"", "\"permute\"",
                "\"iter\": \"broadcast\"", "\"iter\": \"reduction\", \"parallel\": \"DIDx\"", "hostir-fusion/2")) {
            assertTrue(text.contains(form), form);
        }
        // every change reaches CI's sample too
        assertEquals(Set.of(Change.values()), cases().stream().filter(c -> !c.change().equals("RANDOM"))
                .map(c -> Change.valueOf(c.change())).collect(Collectors.toSet()));
        System.out.println("generated-space: the enumeration holds " + all.size() + " fusions");
    }

    /** Generation is a function of the declarations and the seed. */
    @Test
    void generationIsReproducible() {
        assertEquals(SpaceGenerator.sample(97, 3), SpaceGenerator.sample(97, 3));
        for (long s = 0; s < 40; s++) assertEquals(RandomSpace.generate(s), RandomSpace.generate(s));
        long distinct = LongStream.range(0, 40).mapToObj(s -> RandomSpace.generate(s).text()).distinct().count();
        assertTrue(distinct > 35, "seeds give different fusions: " + distinct);
        assertTrue(Arrays.stream(DataType.values()).allMatch(t -> LongStream.range(0, 400)
                .mapToObj(RandomSpace::generate).anyMatch(c -> c.dtype().equals(t.fileName()))), "random dtypes");
    }
}
