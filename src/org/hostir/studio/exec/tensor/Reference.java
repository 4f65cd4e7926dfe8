package org.hostir.studio.exec.tensor;

import java.util.Map;
import java.util.Optional;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.TensorView;

/**
 * The reference's outputs with their error bounds, what validation compares a run with. The values come from
 * {@link ReferenceInterpreter}; the magnitude bounds ({@link MagnitudeBounds}) are computed on first use, for all
 * outputs at once, since a backend that matches the reference bit for bit never needs them.
 */
public final class Reference {
    private final Fusion fusion;
    private final Map<Integer, DenseTensor> values;
    /** Whether the checked backend computes double and int64 in float64, as this reference does. */
    private final boolean float64Backend;
    private Map<Integer, MagnitudeBounds.Bound> bounds;

    private Reference(Fusion fusion, Map<Integer, DenseTensor> values, boolean float64Backend) {
        this.fusion = fusion;
        this.values = values;
        this.float64Backend = float64Backend;
    }

    /** Evaluates the unsharded fusion on {@code inputs} (every input by id at its full shape). */
    public static Reference evaluate(Fusion fusion, Map<Integer, DenseTensor> inputs) {
        return evaluate(fusion, inputs, true);
    }

    /**
     * As above, for checking a backend that computes double and int64 in float64 ({@code float64Backend}) or in
     * float32, whose double outputs get float32's tolerance ({@link BoundTolerance#of(DenseTensor, ErrorBudget,
     * org.hostir.studio.ir.DataType, boolean)}).
     */
    public static Reference evaluate(Fusion fusion, Map<Integer, DenseTensor> inputs, boolean float64Backend) {
        return new Reference(fusion, ReferenceInterpreter.evaluateAll(fusion, inputs), float64Backend);
    }

    /** The reference value of output {@code out}. */
    public DenseTensor value(TensorView out) { return values.get(out.id()); }

    /** The magnitude bound of output {@code out}, in its shape, in float32. */
    public DenseTensor magnitude(TensorView out) { return bound(out).magnitude(); }

    public ErrorBudget budget(TensorView out) { return bound(out).budget(); }

    /** The error-bounded tolerance of the whole output. */
    public BoundTolerance tolerance(TensorView out) {
        return BoundTolerance.of(magnitude(out), budget(out), out.dtype(), float64Backend);
    }

    /** The value rank {@code rank} holds of output {@code out} (empty off its mesh). */
    public Optional<DenseTensor> shard(TensorView out, int rank) { return Sharding.shard(out, value(out), rank); }

    /** The tolerance of rank {@code rank}'s shard of {@code out}. */
    public BoundTolerance shardTolerance(TensorView out, int rank) {
        DenseTensor m = Sharding.shard(out, magnitude(out), rank).orElseThrow();
        return BoundTolerance.of(m, budget(out), out.dtype(), float64Backend);
    }

    private synchronized MagnitudeBounds.Bound bound(TensorView out) {
        if (bounds == null) bounds = MagnitudeBounds.outputs(fusion, values);
        MagnitudeBounds.Bound b = bounds.get(out.id());
        if (b == null) throw new IllegalArgumentException(out.name() + " is not an output of " + Texts.quote(fusion.name()));
        return b;
    }
}
