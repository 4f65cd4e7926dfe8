package org.hostir.studio.exec.debug;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.hostir.studio.exec.tensor.Allowance;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.print.IrText;

/**
 * A rank's live tensor at a stop, as the Variables view and {@code hirstudio debug} show it: its IR name and the
 * file's label, this rank's shape, dtype, mesh, device and bytes, statistics over its values, the first values,
 * and, for a tensor of the fusion the reference has computed, how far this rank's values are from its shard of
 * the unsharded reference. {@code written}: whether anything has been issued to write it yet (an allocation nothing
 * wrote holds no value of the program, and is not compared with the reference).
 */
public record TensorSummary(int id, String name, String label, List<Long> shape, String dtype, String mesh,
                            String device, long bytes, Statistics statistics, List<Double> slice,
                            Optional<ReferenceDifference> reference, boolean written) {
    /** How many values {@link #slice} holds at most. */
    public static final int SLICE = 8;

    public TensorSummary {
        shape = List.copyOf(shape);
        slice = List.copyOf(slice);
    }

    /** Over every value; {@code nonFinite} counts NaN and infinities, left out of min, max and mean. */
    public record Statistics(double min, double max, double mean, long nonFinite) {}

    /** The largest absolute difference from the reference's shard and how many of the values differ at all. */
    public record ReferenceDifference(double maxAbs, long differing, long compared) {}

    /** {@code label}: the file's name of the tensor (a dump's tensors have none of their own). */
    public static TensorSummary of(TensorView tv, String label, DenseTensor values, String device,
                                   Optional<DenseTensor> reference) {
        return of(tv, label, values, device, reference, true);
    }

    /** As above, {@code written} or an allocation nothing has written yet (then {@code reference} is not used). */
    public static TensorSummary of(TensorView tv, String label, DenseTensor values, String device,
                                   Optional<DenseTensor> reference, boolean written) {
        return of(tv, label, values, device, reference, written, Optional.empty());
    }

    /**
     * As above, a value counting as differing only beyond {@code tolerance} where there is one (validation's error
     * bound of an output: a rounding difference it accepts is no wrong value); exactly otherwise.
     */
    public static TensorSummary of(TensorView tv, String label, DenseTensor values, String device,
                                   Optional<DenseTensor> reference, boolean written, Optional<Allowance> tolerance) {
        double[] v = values.toDoubleArray();
        List<Long> shape = Arrays.stream(values.shape()).boxed().toList();
        List<Double> slice = Arrays.stream(v).limit(SLICE).boxed().toList();
        return new TensorSummary(tv.id(), tv.name(), label, shape, values.dtype().fileName(),
                tv.mesh() == null ? "" : IrText.mesh(tv.mesh()), device, values.bytes(), statistics(v), slice,
                reference.filter(r -> written && Arrays.equals(r.shape(), values.shape())).map(r -> difference(v, r, tolerance)),
                written);
    }

    private static Statistics statistics(double[] v) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        double sum = 0;
        long finite = 0;
        for (double x : v) {
            if (!Double.isFinite(x)) continue;
            min = Math.min(min, x);
            max = Math.max(max, x);
            sum += x;
            finite++;
        }
        return finite == 0 ? new Statistics(Double.NaN, Double.NaN, Double.NaN, v.length)
                : new Statistics(min, max, sum / finite, v.length - finite);
    }

    private static ReferenceDifference difference(double[] v, DenseTensor reference, Optional<Allowance> tolerance) {
        double[] r = reference.toDoubleArray();
        double maxAbs = 0;
        long differing = 0;
        for (int i = 0; i < v.length; i++) {
            if (Double.compare(v[i], r[i]) == 0) continue;
            double d = Math.abs(v[i] - r[i]);
            int at = i;
            if (Double.isNaN(d) || tolerance.map(t -> d > t.allowed(at, r[at])).orElse(true)) differing++;
            maxAbs = Double.isNaN(d) ? Double.NaN : Math.max(maxAbs, d);
        }
        return new ReferenceDifference(maxAbs, differing, v.length);
    }
}
