package org.hostir.studio.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.exec.tensor.Allowance;
import org.hostir.studio.exec.tensor.Comparison;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Reference;
import org.hostir.studio.exec.tensor.SamplePlan;
import org.hostir.studio.exec.tensor.SampledReference;
import org.hostir.studio.exec.tensor.Sharding;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.TensorView;

/**
 * Compares the outputs the ranks downloaded (rank -> output position -> local tensor, as {@link RunResult} holds
 * them) with the unsharded reference, each element within its error-bounded tolerance (docs/validation.md).
 */
public final class OutputValidator {
    /** Outputs of up to this many elements in all are checked whole by default; larger ones are sampled. */
    public static final long FULL_UP_TO = 1L << 22;

    private OutputValidator() {}

    /**
     * Validates as {@code mode} says: {@link ValidationMode#FULL} evaluates the whole reference; {@code AUTO}
     * does too while the outputs hold at most {@link #FULL_UP_TO} elements, and samples them beyond
     * ({@link SamplePlan}, drawn with {@code seed}; in launcher mode each local shard at its part of the sample).
     */
    public static Validation validate(Fusion fusion, Map<Integer, DenseTensor> inputs,
                                      Map<Integer, Map<Integer, DenseTensor>> outputs, boolean allRanks,
                                      ValidationMode mode, long seed) {
        return validate(fusion, inputs, outputs, allRanks, mode, seed, true);
    }

    /** As above, checking a backend that computes double in float64 or not ({@code float64Backend}). */
    public static Validation validate(Fusion fusion, Map<Integer, DenseTensor> inputs,
                                      Map<Integer, Map<Integer, DenseTensor>> outputs, boolean allRanks,
                                      ValidationMode mode, long seed, boolean float64Backend) {
        return validate(fusion, inputs, outputs, allRanks, mode, FULL_UP_TO, SamplePlan.DEFAULT_GRID, seed,
                float64Backend);
    }

    /** As above with the budget ({@code fullUpTo} output elements) and the sample's grid size given. */
    public static Validation validate(Fusion fusion, Map<Integer, DenseTensor> inputs,
                                      Map<Integer, Map<Integer, DenseTensor>> outputs, boolean allRanks,
                                      ValidationMode mode, long fullUpTo, long grid, long seed) {
        return validate(fusion, inputs, outputs, allRanks, mode, fullUpTo, grid, seed, true);
    }

    /**
     * As above for a backend that computes double and int64 in float64 ({@code float64Backend}, the CPU backend)
     * or in float32 ({@link org.hostir.studio.exec.Backend#computesWideInFloat64}).
     */
    public static Validation validate(Fusion fusion, Map<Integer, DenseTensor> inputs,
                                      Map<Integer, Map<Integer, DenseTensor>> outputs, boolean allRanks,
                                      ValidationMode mode, long fullUpTo, long grid, long seed,
                                      boolean float64Backend) {
        SampledReference sampled = new SampledReference(fusion, inputs, float64Backend);
        long total = 0;
        for (TensorView out : fusion.outputs()) total += numel(sampled.shape(out));
        return switch (mode) {
            case OFF -> throw new IllegalArgumentException("validation is off");
            case FULL -> validate(fusion, Reference.evaluate(fusion, inputs, float64Backend), outputs, allRanks);
            case AUTO -> total <= fullUpTo
                    ? validate(fusion, Reference.evaluate(fusion, inputs, float64Backend), outputs, allRanks)
                    : allRanks ? SampledValidation.validate(fusion, sampled, outputs, fullUpTo, grid, seed)
                    : SampledValidation.shards(fusion, sampled, outputs, fullUpTo, grid, seed);
        };
    }

    static long numel(long[] shape) {
        long n = 1;
        for (long s : shape) n *= s;
        return n;
    }

    /**
     * {@code allRanks}: every rank of the run is in {@code outputs}, so sharded outputs are gathered and each
     * replica of a replicated one is checked; otherwise (launcher mode, this process holds some ranks) each
     * local shard is checked against its slice of the reference.
     */
    public static Validation validate(Fusion fusion, Reference reference,
                                      Map<Integer, Map<Integer, DenseTensor>> outputs, boolean allRanks) {
        return allRanks ? gathered(fusion, reference, outputs) : shards(fusion, reference, outputs);
    }

    private static Validation shards(Fusion fusion, Reference reference,
                                     Map<Integer, Map<Integer, DenseTensor>> outputs) {
        Verdict verdict = new Verdict();
        verdict.covered("every element of this process's shards");
        for (int i = 0; i < fusion.outputs().size(); i++) {
            TensorView out = fusion.outputs().get(i);
            for (var e : new TreeMap<>(outputs).entrySet()) {
                int rank = e.getKey();
                Optional<DenseTensor> expected = reference.shard(out, rank);
                DenseTensor actual = e.getValue().get(i);
                if (expected.isEmpty()) continue;
                if (actual == null) {
                    verdict.fail(Texts.quote(out.label()) + ": rank " + rank + " did not produce its shard");
                    continue;
                }
                verdict.compare(Texts.quote(out.label()) + " on rank " + rank, expected.get(), actual,
                        () -> reference.shardTolerance(out, rank));
            }
        }
        return verdict.validation();
    }

    private static Validation gathered(Fusion fusion, Reference reference,
                                       Map<Integer, Map<Integer, DenseTensor>> outputs) {
        Verdict verdict = new Verdict();
        long total = 0;
        for (TensorView out : fusion.outputs()) total += reference.value(out).numel();
        verdict.covered("all " + total + " elements");
        for (int i = 0; i < fusion.outputs().size(); i++) {
            TensorView out = fusion.outputs().get(i);
            Map<Integer, DenseTensor> locals = new HashMap<>();
            for (var e : outputs.entrySet()) {
                DenseTensor t = e.getValue().get(i);
                if (t != null) locals.put(e.getKey(), t);
            }
            if (locals.isEmpty()) {
                verdict.fail(Texts.quote(out.label()) + ": no rank produced it");
            } else if (Sharding.deviceAxis(out) < 0) {
                replicas(verdict, out, reference, locals);
            } else {
                verdict.compare(Texts.quote(out.label()), reference.value(out), Sharding.gather(out, locals).tensor(),
                        () -> reference.tolerance(out));
            }
        }
        return verdict.validation();
    }

    /**
     * A replicated output: the first mesh device's copy (the lowest rank without a mesh) is the output; every
     * other copy must be within the tolerance of the reference too, else its rank is named.
     */
    private static void replicas(Verdict verdict, TensorView out, Reference reference,
                                 Map<Integer, DenseTensor> locals) {
        List<Integer> ranks = out.mesh() != null ? out.mesh().deviceIds() : locals.keySet().stream().sorted().toList();
        for (int r : ranks) {
            if (!locals.containsKey(r)) throw new IllegalArgumentException("rank " + r + " holds no part of " + out.name());
        }
        Supplier<Allowance> tolerance = memoized(() -> reference.tolerance(out));
        verdict.compare(Texts.quote(out.label()), reference.value(out), locals.get(ranks.getFirst()), tolerance);
        List<Integer> disagreeing = new ArrayList<>();
        String first = "";
        for (int r : ranks.subList(1, ranks.size())) {
            Comparison.Result cmp = verdict.note(Comparison.compare(reference.value(out), locals.get(r), tolerance));
            if (cmp.passed()) continue;
            if (disagreeing.isEmpty()) first = " (rank " + r + ": " + cmp.summary() + ")";
            disagreeing.add(r);
        }
        if (!disagreeing.isEmpty()) {
            verdict.fail(Texts.quote(out.label()) + ": replicas on ranks " + disagreeing + " disagree" + first);
        }
    }

    private static Supplier<Allowance> memoized(Supplier<Allowance> s) {
        Allowance[] cell = new Allowance[1];
        return () -> cell[0] != null ? cell[0] : (cell[0] = s.get());
    }

    /** What the validations accumulate: pass/fail, the largest error and fraction, one line per problem. */
    static final class Verdict {
        private boolean passed = true;
        private double maxErr = 0;
        private double worst = 0;
        private final List<String> details = new ArrayList<>();
        private final List<String> coverage = new ArrayList<>();

        void covered(String what) { coverage.add(what); }

        void fail(String detail) {
            passed = false;
            details.add(detail);
        }

        void compare(String what, DenseTensor expected, DenseTensor actual, Supplier<? extends Allowance> allowance) {
            Comparison.Result cmp = note(Comparison.compare(expected, actual, allowance));
            if (!cmp.passed()) fail(what + ": " + cmp.summary());
        }

        /** Counts a comparison's errors into the largest ones, without a line of its own. */
        Comparison.Result note(Comparison.Result cmp) {
            maxErr = Math.max(maxErr, cmp.maxAbsError());
            worst = Math.max(worst, cmp.worstFraction());
            return cmp;
        }

        Validation validation() { return new Validation(passed, maxErr, worst, details, coverage); }
    }
}
