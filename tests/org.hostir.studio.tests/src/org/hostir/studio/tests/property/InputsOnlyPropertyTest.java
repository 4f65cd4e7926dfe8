package org.hostir.studio.tests.property;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.hostir.studio.tests.property.SpaceGenerator.Change;
import org.hostir.studio.tests.property.SpaceGenerator.MeshKind;
import org.junit.jupiter.api.Test;

/**
 * Issue 34 item 4: the property generators' fusions written inputs-only ({@link InputsOnly}): the generated space
 * (every op family, dtype, mesh kind, 1-D and 2-D, and sharding change; {@link GeneratedSpaceTest}'s cases, CI's
 * sample unless {@code -Dgenerated.full=true}) and {@link FusionGenerator}'s random fusions
 * ({@code -Dproperty.inputsOnly.count=N}, default 100). Each lowers after propagation and validates on the CPU
 * backend against the unsharded reference of the same fusion (the OutputValidator path: propagation must not
 * change results), or is refused with a rule and a file line; never a wrong answer, a run-time failure after check,
 * an unlocated refusal or an internal error.
 */
class InputsOnlyPropertyTest {
    private static final int COUNT = Integer.getInteger("property.inputsOnly.count", 100);
    private static final long SEED = Long.getLong("property.seed", 15);

    /** A generated fusion inputs-only, with what it came from. */
    record Case(SpaceCase c, String text) {}

    static List<Case> cases() {
        List<Case> out = new ArrayList<>();
        for (SpaceCase c : GeneratedSpaceTest.cases()) out.add(new Case(c, InputsOnly.of(c.text())));
        for (int i = 0; i < COUNT; i++) {
            FusionSpec s = FusionGenerator.generate(SEED * 1_000_003L + i);
            SpaceCase c = new SpaceCase("random-" + Long.toHexString(s.seed()), "random", "float", "RANDOM",
                    "RANDOM", "RANDOM", s.devices(), s.options(), s.text(), s.seed());
            out.add(new Case(c, InputsOnly.of(s.text())));
        }
        return out;
    }

    @Test
    void everyInputsOnlyFusionValidatesOrIsRefusedCleanly() {
        long start = System.nanoTime();
        Map<Outcome.Kind, Integer> kinds = new EnumMap<>(Outcome.Kind.class);
        Map<String, Integer> rules = new TreeMap<>();
        FailureClasses failures = new FailureClasses();
        int unstated = 0;
        for (Case k : cases()) {
            if (!InputsOnly.leavesSomethingUnstated(k.text())) continue;
            unstated++;
            Outcome o = Outcome.of(k.text(), k.c().devices(), k.c().options(), k.c().seed());
            kinds.merge(o.kind(), 1, Integer::sum);
            if (!o.rule().isEmpty()) rules.merge(o.rule(), 1, Integer::sum);
            if (!o.kind().allowed()) {
                failures.add(o.kind().name(), new SpaceCase(k.c().id() + "-inputs-only", k.c().template(),
                        k.c().dtype(), k.c().change(), k.c().mesh(), k.c().layout(), k.c().devices(), k.c().options(),
                        k.text(), k.c().seed()), o.detail());
            }
        }
        System.out.printf("inputs-only: %d fusions in %.1f s: %s%n  refusals by rule: %s%n", unstated,
                (System.nanoTime() - start) / 1e9, kinds, rules);
        System.out.print(failures.report());
        assertTrue(failures.isEmpty(), () -> "inputs-only fusions that do not validate, or unclean refusals:\n"
                + failures.report());
        assertTrue(unstated >= 100, "inputs-only fusions run: " + unstated);
        assertTrue(kinds.getOrDefault(Outcome.Kind.VALIDATED, 0) >= unstated / 3,
                "most inputs-only fusions lower and validate: " + kinds);
    }

    /** The inputs-only cases reach every sharding change and mesh kind of the space (1-D and 2-D) and op family. */
    @Test
    void theInputsOnlyCasesCoverTheSpace() {
        List<Case> all = cases().stream().filter(k -> InputsOnly.leavesSomethingUnstated(k.text())).toList();
        Set<String> changes = all.stream().map(k -> k.c().change()).collect(Collectors.toSet());
        for (Change c : Change.values()) {
            if (c != Change.NO_MESH) assertTrue(changes.contains(c.name()), "change " + c);
        }
        Set<String> meshes = all.stream().map(k -> k.c().mesh()).collect(Collectors.toSet());
        for (MeshKind m : MeshKind.values()) assertTrue(meshes.contains(m.name()), "mesh " + m);
        String text = all.stream().map(Case::text).collect(Collectors.joining());
        for (String op : List.of("set", "add", "sum", "matmul", "linear", "broadcast", "reshape", "cast")) {
            assertTrue(text.contains("\"op\": \"" + op + "\""), op);
        }
    }

    /** Only the inputs keep a mesh or a parallel type; a fusion without meshes is left as it is. */
    @Test
    void onlyInputsKeepTheirShardings() {
        String text = InputsOnly.of(FusionGenerator.generate(3).text());
        var doc = com.google.gson.JsonParser.parseString(text).getAsJsonObject();
        Set<String> inputs = doc.getAsJsonArray("inputs").asList().stream().map(e -> e.getAsString())
                .collect(Collectors.toSet());
        doc.getAsJsonArray("tensors").forEach(e -> {
            var t = e.getAsJsonObject();
            if (!inputs.contains(t.get("name").getAsString())) {
                assertEquals(false, t.has("mesh") || t.has("loop") || t.toString().contains("\"parallel\""), t.toString());
            }
        });
    }
}
