package org.hostir.studio.ir;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * A tensor's loop domain and how it derives from the logical one (nvFuser's TensorDomain: logical, loop and
 * allocation domains). Built by nvFuser's scheduling calls, each returning a new domain: {@link #split},
 * {@link #merge}, {@link #reorder}, {@link #parallelize}. {@code allocationIsLoop} records
 * {@code setAllocationDomain(getLoopDomain(), true)}; otherwise the allocation domain is the logical one.
 *
 * @param logical    the logical axes (the tensor's {@code axes}), as the transforms see them
 * @param transforms splits and merges in the order they were applied
 * @param loop       the loop domain, printed where nvFuser prints a tensor
 */
public record LoopDomain(List<IterDomain> logical, List<IterTransform> transforms, List<Axis> loop,
                         boolean allocationIsLoop) {

    /**
     * An iter domain of the loop domain or between logical and loop: like {@link IterDomain}, but its extent
     * may be an expression ({@code ceilDiv(i0, 4)}). {@code rfactor} marks nvFuser's rFactor product, printed
     * with the suffix {@code rf} ({@code ideviceIdx.x22{2}rf}, IterDomain::toString): set by dumps read from text
     * and, at nvFuser 2026-04, on the device axis of an rFactor'd partial ({@link #withRFactorProduct}).
     */
    public record Axis(int id, Scalar extent, IterType iterType, ParallelType parallelType, boolean rfactor) {
        public Axis {
            Objects.requireNonNull(extent, "extent");
            Objects.requireNonNull(iterType, "iterType");
            Objects.requireNonNull(parallelType, "parallelType");
        }

        public Axis(int id, Scalar extent, IterType iterType, ParallelType parallelType) {
            this(id, extent, iterType, parallelType, false);
        }

        static Axis of(IterDomain d) { return new Axis(d.id(), d.extent(), d.iterType(), d.parallelType()); }

        public boolean isDeviceDim() { return parallelType.isDeviceDim(); }

        public Axis withParallelType(ParallelType p) { return new Axis(id, extent, iterType, p, rfactor); }
    }

    public LoopDomain {
        logical = List.copyOf(logical);
        transforms = List.copyOf(transforms);
        loop = List.copyOf(loop);
    }

    /** The loop domain before any transform: the logical axes themselves. */
    public static LoopDomain of(List<IterDomain> logical) {
        return new LoopDomain(logical, List.of(), logical.stream().map(Axis::of).toList(), false);
    }

    /** Whether the loop domain is the logical one (nothing to print or derive beyond the logical axes). */
    public boolean isTrivial() {
        return transforms.isEmpty() && !allocationIsLoop && loop.equals(logical.stream().map(Axis::of).toList());
    }

    /** nvFuser's {@code tv->split(axis, factor, inner_split)}; ids of the two new axes come from {@code ids}. */
    public LoopDomain split(int axis, Scalar factor, boolean innerSplit, IntSupplier ids) {
        Axis in = loop.get(axis);
        Scalar rest = Scalar.ceilDiv(in.extent(), factor);
        Axis outer = new Axis(ids.getAsInt(), innerSplit ? rest : factor, in.iterType(), ParallelType.SERIAL);
        Axis inner = new Axis(ids.getAsInt(), innerSplit ? factor : rest, in.iterType(), ParallelType.SERIAL);
        List<Axis> next = new ArrayList<>(loop);
        next.set(axis, outer);
        next.add(axis + 1, inner);
        return with(new IterTransform.Split(in.id(), factor, innerSplit, outer, inner), next);
    }

    /** nvFuser's {@code tv->merge(axis)}: the axis and the next one become one. */
    public LoopDomain merge(int axis, IntSupplier ids) {
        Axis outer = loop.get(axis);
        Axis inner = loop.get(axis + 1);
        Axis out = new Axis(ids.getAsInt(), Scalar.mul(outer.extent(), inner.extent()), outer.iterType(),
                ParallelType.SERIAL);
        List<Axis> next = new ArrayList<>(loop);
        next.remove(axis + 1);
        next.set(axis, out);
        return with(new IterTransform.Merge(outer.id(), inner.id(), out), next);
    }

    /**
     * nvFuser's {@code tv->swizzle1d(axis, type)}: the axis replaced by a fresh one of the same extent, defined by
     * a {@link IterTransform.Swizzle1D} (its parallel type starts Serial, as a new iter domain's does).
     */
    public LoopDomain swizzle1d(int axis, ParallelType type, IntSupplier ids) {
        Axis in = loop.get(axis);
        Axis out = new Axis(ids.getAsInt(), in.extent(), in.iterType(), ParallelType.SERIAL);
        List<Axis> next = new ArrayList<>(loop);
        next.set(axis, out);
        return with(new IterTransform.Swizzle1D(in, type, out), next);
    }

    /**
     * The Swizzle1D defining the loop axis at {@code loopPosition}, if one does (nvFuser's
     * {@code stream_id->definition()->isA<Swizzle1D>()}).
     */
    public Optional<IterTransform.Swizzle1D> swizzleOf(int loopPosition) {
        int id = loop.get(loopPosition).id();
        for (IterTransform t : transforms) {
            if (t instanceof IterTransform.Swizzle1D s && s.out().id() == id) return Optional.of(s);
        }
        return Optional.empty();
    }

    /** The loop domain permuted: new position i holds the axis at old position {@code order.get(i)}. */
    public LoopDomain reorder(List<Integer> order) {
        return new LoopDomain(logical, transforms, order.stream().map(loop::get).toList(), allocationIsLoop);
    }

    /** nvFuser's {@code tv->axis(axis)->parallelize(type)}. */
    public LoopDomain parallelize(int axis, ParallelType type) {
        List<Axis> next = new ArrayList<>(loop);
        next.set(axis, loop.get(axis).withParallelType(type));
        return new LoopDomain(logical, transforms, next, allocationIsLoop);
    }

    public LoopDomain withAllocationIsLoop(boolean value) {
        return new LoopDomain(logical, transforms, loop, value);
    }

    private LoopDomain with(IterTransform t, List<Axis> next) {
        List<IterTransform> all = new ArrayList<>(transforms);
        all.add(t);
        return new LoopDomain(logical, all, next, allocationIsLoop);
    }

    /** How a loop axis derives from the logical domain: the logical axis it comes from and the path's kind. */
    public enum Derivation {
        /** the axis is a logical axis */
        LOGICAL,
        /** the outer part of an outer split of a logical axis: a device split (nvFuser's isValidDeviceSplit) */
        OUTER_OF_OUTER_SPLIT,
        /** reached through an inner part, an inner split, a merge or several splits */
        OTHER
    }

    /** The logical position a loop axis comes from, following splits' inputs and merges' outer inputs. */
    public record Source(int logicalPosition, Derivation derivation) {}

    /**
     * nvFuser's getProducingLogicalAxis for the loop axis at {@code loopPosition}: the logical axis it derives
     * from (through a merge, its outer input, as nvFuser follows) and how.
     */
    public Source source(int loopPosition) {
        Map<Integer, IterTransform> definition = new HashMap<>();
        for (IterTransform t : transforms) {
            t.outputs().forEach(a -> definition.put(a.id(), t));
        }
        int id = loop.get(loopPosition).id();
        int steps = 0;
        boolean deviceSplit = true;
        while (definition.containsKey(id)) {
            IterTransform t = definition.get(id);
            switch (t) {
                case IterTransform.Split s -> {
                    deviceSplit &= !s.innerSplit() && s.outer().id() == id;
                    id = s.in();
                }
                case IterTransform.Merge m -> {
                    deviceSplit = false;
                    id = m.outer();
                }
                case IterTransform.Swizzle1D z -> {
                    // a renumbering of the same extent: the axis still stands for its input
                    id = z.in().id();
                    continue;
                }
            }
            steps++;
        }
        int position = positionOf(id);
        Derivation d = steps == 0 ? Derivation.LOGICAL
                : steps == 1 && deviceSplit ? Derivation.OUTER_OF_OUTER_SPLIT : Derivation.OTHER;
        return new Source(position, d);
    }

    private int positionOf(int logicalId) {
        for (int i = 0; i < logical.size(); i++) {
            if (logical.get(i).id() == logicalId) return i;
        }
        throw new IllegalStateException("iter domain " + logicalId + " is not in the logical domain");
    }

    /**
     * This loop domain replayed onto {@code newLogical} (the same logical axes with fresh ids), each derived axis
     * given a fresh id from {@code ids}, as nvFuser's TransformReplay::selfReplay does for a new tensor like another.
     * Swizzles are left out: their outputs stand for their inputs (a slice's index is written out where it is taken).
     */
    public LoopDomain replay(List<IterDomain> newLogical, IntSupplier ids) {
        Map<Integer, Axis> map = new HashMap<>();
        for (int i = 0; i < logical.size(); i++) map.put(logical.get(i).id(), Axis.of(newLogical.get(i)));
        List<IterTransform> replayed = new ArrayList<>();
        for (IterTransform t : transforms) {
            switch (t) {
                case IterTransform.Split s -> {
                    Axis outer = fresh(s.outer(), ids);
                    Axis inner = fresh(s.inner(), ids);
                    map.put(s.outer().id(), outer);
                    map.put(s.inner().id(), inner);
                    replayed.add(new IterTransform.Split(map.get(s.in()).id(), s.factor(), s.innerSplit(), outer,
                            inner));
                }
                case IterTransform.Merge m -> {
                    Axis out = fresh(m.out(), ids);
                    map.put(m.out().id(), out);
                    replayed.add(new IterTransform.Merge(map.get(m.outer()).id(), map.get(m.inner()).id(), out));
                }
                case IterTransform.Swizzle1D z -> map.put(z.out().id(), map.get(z.in().id()));
            }
        }
        List<Axis> newLoop = loop.stream().map(a -> map.get(a.id()).withParallelType(a.parallelType())).toList();
        return new LoopDomain(newLogical, replayed, newLoop, allocationIsLoop);
    }

    /**
     * This domain without its reduction axes and what derives from them: the loop of a pointwise op's output
     * scheduled like a reduction's (nvFuser's TransformReplay::selfReplay onto a domain without them).
     */
    public LoopDomain withoutReductions() {
        Set<Integer> dropped = new HashSet<>();
        logical.stream().filter(IterDomain::isReduction).forEach(a -> dropped.add(a.id()));
        List<IterTransform> kept = new ArrayList<>();
        for (IterTransform t : transforms) {
            if (t.inputs().stream().anyMatch(dropped::contains)) t.outputs().forEach(a -> dropped.add(a.id()));
            else kept.add(t);
        }
        return new LoopDomain(logical.stream().filter(a -> !dropped.contains(a.id())).toList(), kept,
                loop.stream().filter(a -> !dropped.contains(a.id())).toList(), allocationIsLoop);
    }

    private static Axis fresh(Axis a, IntSupplier ids) {
        return new Axis(ids.getAsInt(), a.extent(), a.iterType(), a.parallelType());
    }

    /**
     * This domain with the loop axis {@code id} marked an rFactor product, as {@code TensorView::rFactor} marks the
     * iter domains it makes ({@code IterDomain::isRFactorProduct}); unchanged when no loop axis has that id.
     */
    public LoopDomain withRFactorProduct(int id) {
        List<Axis> marked = loop.stream()
                .map(a -> a.id() == id ? new Axis(a.id(), a.extent(), a.iterType(), a.parallelType(), true) : a)
                .toList();
        return new LoopDomain(logical, transforms, marked, allocationIsLoop);
    }

    /** The loop axis of a parallel type that is not a reduction, nvFuser's getShardedIterDomain on the loop. */
    public Optional<Integer> loopPositionOf(ParallelType type) {
        for (int i = 0; i < loop.size(); i++) {
            Axis a = loop.get(i);
            if (a.parallelType() == type && a.iterType() != IterType.REDUCTION) return Optional.of(i);
        }
        return Optional.empty();
    }
}
