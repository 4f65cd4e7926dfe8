package org.hostir.studio.tests.property;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.lower.ValidatePass;
import org.hostir.studio.rules.ShardingPropagation;
import org.junit.jupiter.api.Test;

/**
 * Issues 33/34: {@link FusionGenerator}'s random fusions written inputs-only with a Stream split on one input
 * ({@link StreamInputsOnly}), meshed and without any mesh, lowered by nvFuser 2026-04's host_ir_lowering (the path
 * that takes Stream-parallel inputs, after the pre-segmenter's propagation) and validated on the CPU backend against
 * the unsharded reference, or refused with a rule and a file line; never a wrong answer, a run-time failure after
 * check, an unlocated refusal or an internal error. CI runs {@code -Dproperty.streamInputsOnly.count=N} (default 40)
 * generated fusions, each in both forms.
 */
class StreamInputsOnlyPropertyTest {
    private static final int COUNT = Integer.getInteger("property.streamInputsOnly.count", 40);
    private static final long SEED = Long.getLong("property.seed", 15);
    /** Where each failure class's smallest fusion is written ({@code -Dgenerated.failing=DIR}). */
    private static final String FAILING = System.getProperty("generated.failing");
    private static final Map<String, String> HOST_IR_LOWERING = Map.of(ValidatePass.NVFUSER.key(),
            NvFuserGeneration.V2026_04.label(), ValidatePass.HOST_IR_LOWERING.key(), "true");

    @Test
    void streamSplitInputsValidateAfterPropagationOrAreRefusedCleanly() throws IOException {
        long start = System.nanoTime();
        Map<Outcome.Kind, Integer> kinds = new EnumMap<>(Outcome.Kind.class);
        Map<String, Integer> rules = new TreeMap<>();
        FailureClasses failures = new FailureClasses();
        int run = 0;
        int carried = 0;
        for (int i = 0; i < COUNT; i++) {
            FusionSpec s = FusionGenerator.generate(SEED * 1_000_003L + 7_919L * i);
            for (boolean meshless : new boolean[] {false, true}) {
                Random r = new Random(s.seed() + i);
                Optional<String> text = StreamInputsOnly.of(InputsOnly.of(s.text()), r, meshless);
                if (text.isEmpty()) continue;
                run++;
                int devices = meshless ? 1 : s.devices();
                if (carriesStream(text.get(), devices)) carried++;
                Outcome o = Outcome.of(text.get(), devices, HOST_IR_LOWERING, s.seed());
                kinds.merge(o.kind(), 1, Integer::sum);
                if (!o.rule().isEmpty()) rules.merge(o.rule(), 1, Integer::sum);
                if (!o.kind().allowed()) {
                    String id = "stream-inputs-only-" + (meshless ? "meshless-" : "") + Long.toHexString(s.seed());
                    failures.add(o.kind().name(), new SpaceCase(id, "random", "float", "STREAM_INPUT", "RANDOM",
                            "RANDOM", devices, HOST_IR_LOWERING, text.get(), s.seed()), o.detail());
                }
            }
        }
        System.out.printf("stream-split inputs-only: %d fusions (%d with a Stream split propagated) in %.1f s: %s%n"
                + "  refusals by rule: %s%n", run, carried, (System.nanoTime() - start) / 1e9, kinds, rules);
        System.out.print(failures.report());
        if (FAILING != null) failures.save(Path.of(FAILING));
        assertTrue(failures.isEmpty(), () -> "stream-split inputs-only fusions that do not validate, or unclean"
                + " refusals:\n" + failures.report());
        assertTrue(run >= COUNT, "fusions run: " + run);
        assertTrue(carried >= run / 3, "propagation carried the input's Stream split in " + carried + " of " + run);
        assertTrue(kinds.getOrDefault(Outcome.Kind.VALIDATED, 0) >= run / 3, "most validate: " + kinds);
    }

    /** Whether propagation gave some tensor a Stream axis (the loader refusing it counts as not). */
    private static boolean carriesStream(String text, int devices) {
        try {
            var l = Engine.load(new FusionSource.Text(text, "generated.fusion"), devices, Map.of());
            return ShardingPropagation.propagate(l.written(), ShardingPropagation.Reach.EVERY_TENSOR).inferred()
                    .stream().anyMatch(s -> s.type() == ParallelType.STREAM);
        } catch (EngineFailure refused) {
            return false;
        }
    }
}
