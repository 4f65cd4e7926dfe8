package org.hostir.studio.exec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.hostir.studio.exec.tensor.Box;
import org.hostir.studio.exec.tensor.Comparison;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.SamplePlan;
import org.hostir.studio.exec.tensor.SampledReference;
import org.hostir.studio.exec.tensor.Sharding;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.TensorView;

/**
 * Validation of outputs too large to recompute: each output (gathered from its shards, or each replica of a
 * replicated one) is compared with the reference at the boxes of its {@link SamplePlan}, which
 * {@link SampledReference} computes from only the operand rows and columns they need. An output within the
 * full-check budget on its own is checked whole.
 */
final class SampledValidation {
    private SampledValidation() {}

    static Validation validate(Fusion fusion, SampledReference reference,
                               Map<Integer, Map<Integer, DenseTensor>> outputs, long fullUpTo, long grid, long seed) {
        OutputValidator.Verdict verdict = new OutputValidator.Verdict();
        for (int i = 0; i < fusion.outputs().size(); i++) {
            TensorView out = fusion.outputs().get(i);
            Map<String, DenseTensor> actual = actual(out, i, outputs);
            if (actual.isEmpty()) {
                verdict.fail(out.label() + ": no rank produced it");
                continue;
            }
            long[] shape = reference.shape(out);
            List<Box> boxes;
            if (OutputValidator.numel(shape) <= fullUpTo) {
                boxes = List.of(Box.all(shape.length));
                verdict.covered(out.label() + ": all " + OutputValidator.numel(shape) + " elements");
            } else {
                SamplePlan plan = SamplePlan.of(shape, grid, seed + out.id());
                boxes = plan.boxes();
                verdict.covered(out.label() + ": " + plan.describe());
            }
            Map<String, Comparison.Result> worst = new LinkedHashMap<>();
            for (Box box : boxes) {
                SampledReference.Sample s = reference.sample(out, box);
                actual.forEach((what, t) -> worst.merge(what, compare(s, box.gather(t), out),
                        (x, y) -> y.worstFraction() > x.worstFraction() ? y : x));
            }
            worst.forEach((what, r) -> {
                verdict.note(r);
                if (!r.passed()) verdict.fail(what + ": " + r.summary());
            });
        }
        return verdict.validation();
    }

    /** The output as the run holds it: gathered from its shards, or each replica by rank. */
    private static Map<String, DenseTensor> actual(TensorView out, int position,
                                                   Map<Integer, Map<Integer, DenseTensor>> outputs) {
        Map<Integer, DenseTensor> locals = new LinkedHashMap<>();
        for (var e : new TreeMap<>(outputs).entrySet()) {
            DenseTensor t = e.getValue().get(position);
            if (t != null) locals.put(e.getKey(), t);
        }
        Map<String, DenseTensor> actual = new LinkedHashMap<>();
        if (locals.isEmpty()) return actual;
        if (Sharding.deviceAxis(out) >= 0) {
            actual.put(out.label(), Sharding.gather(out, locals).tensor());
        } else {
            List<Integer> ranks = out.mesh() != null ? out.mesh().deviceIds() : List.copyOf(locals.keySet());
            for (int r : ranks) {
                DenseTensor t = locals.get(r);
                if (t == null) throw new IllegalArgumentException("rank " + r + " holds no part of " + out.name());
                actual.put(out.label() + " on rank " + r, t);
            }
        }
        return actual;
    }

    /** One box, its worst element at its index in the whole output. */
    private static Comparison.Result compare(SampledReference.Sample s, DenseTensor actual, TensorView out) {
        Comparison.Result r = Comparison.compare(s.value(), actual, () -> s.tolerance(out));
        List<Long> at = r.worstIndex().isEmpty() ? r.worstIndex() : s.box().global(r.worstIndex());
        return new Comparison.Result(r.passed(), r.maxAbsError(), r.worstFraction(), at, r.expected(), r.actual(),
                r.explanation(), r.problem());
    }
}
