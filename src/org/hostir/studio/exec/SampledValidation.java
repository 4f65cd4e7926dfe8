package org.hostir.studio.exec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.hostir.studio.diag.Texts;
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
 * full-check budget on its own is checked whole. In launcher mode ({@link #shards}) each local shard is compared
 * at the part of each box that falls in its slice.
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
                verdict.fail(Texts.quote(out.label()) + ": no rank produced it");
                continue;
            }
            List<Box> boxes = boxes(verdict, out, reference.shape(out), fullUpTo, grid, seed);
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

    /** Launcher mode: each rank's shard at the part of each box within its slice of the device axis. */
    static Validation shards(Fusion fusion, SampledReference reference,
                             Map<Integer, Map<Integer, DenseTensor>> outputs, long fullUpTo, long grid, long seed) {
        OutputValidator.Verdict verdict = new OutputValidator.Verdict();
        for (int i = 0; i < fusion.outputs().size(); i++) {
            TensorView out = fusion.outputs().get(i);
            List<Box> boxes = boxes(verdict, out, reference.shape(out), fullUpTo, grid, seed);
            int axis = Sharding.deviceAxis(out);
            for (var e : new TreeMap<>(outputs).entrySet()) {
                int rank = e.getKey();
                if (out.mesh() != null && !out.mesh().contains(rank)) continue;
                DenseTensor local = e.getValue().get(i);
                String what = Texts.quote(out.label()) + " on rank " + rank;
                if (local == null) {
                    verdict.fail(Texts.quote(out.label()) + ": rank " + rank + " did not produce its shard");
                    continue;
                }
                Comparison.Result worst = null;
                for (Box box : boxes) {
                    Box[] part = axis < 0 ? new Box[] {box, box} : box.within(axis,
                            out.mesh().indexOf(rank) * (int) local.size(axis), (int) local.size(axis));
                    if (part == null) continue;
                    Comparison.Result r = compare(reference.sample(out, part[0]), part[1].gather(local), out);
                    if (worst == null || r.worstFraction() > worst.worstFraction()) worst = r;
                }
                if (worst == null) continue;
                verdict.note(worst);
                if (!worst.passed()) verdict.fail(what + ": " + worst.summary());
            }
        }
        return verdict.validation();
    }

    /** The whole output within the budget, else its sample; what is checked goes to the verdict's coverage. */
    private static List<Box> boxes(OutputValidator.Verdict verdict, TensorView out, long[] shape, long fullUpTo,
                                   long grid, long seed) {
        if (OutputValidator.numel(shape) <= fullUpTo) {
            verdict.covered(Texts.quote(out.label()) + ": all " + OutputValidator.numel(shape) + " elements");
            return List.of(Box.all(shape.length));
        }
        SamplePlan plan = SamplePlan.of(shape, grid, seed + out.id());
        verdict.covered(Texts.quote(out.label()) + ": " + plan.describe());
        return plan.boxes();
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
            actual.put(Texts.quote(out.label()), Sharding.gather(out, locals).tensor());
        } else {
            List<Integer> ranks = out.mesh() != null ? out.mesh().deviceIds() : List.copyOf(locals.keySet());
            for (int r : ranks) {
                DenseTensor t = locals.get(r);
                if (t == null) throw new IllegalArgumentException("rank " + r + " holds no part of " + out.name());
                actual.put(Texts.quote(out.label()) + " on rank " + r, t);
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
