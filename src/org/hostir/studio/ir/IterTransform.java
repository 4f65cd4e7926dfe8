package org.hostir.studio.ir;

import java.util.List;
import java.util.Objects;

/**
 * A transform between iter domains of one tensor, as nvFuser records them ({@code Split}, {@code Merge} in
 * csrc/ir/internal_base_nodes.h): the loop domain is derived from the logical one by these. Inputs and outputs
 * are named by iter domain id; reorder has no record (it only permutes the loop domain). {@code Swizzle1D}
 * (csrc/ir/internal_nodes.h) renumbers an axis's indices by a device parallel type without changing its extent.
 */
public sealed interface IterTransform {

    /** The ids this transform reads. */
    List<Integer> inputs();

    /** The axes it creates. */
    List<LoopDomain.Axis> outputs();

    /**
     * {@code in} split by {@code factor}: an outer split ({@code innerSplit == false}) gives the outer part the
     * factor as extent ({@code [factor, ceilDiv(in, factor)]}), an inner split the inner part
     * ({@code [ceilDiv(in, factor), factor]}).
     */
    record Split(int in, Scalar factor, boolean innerSplit, LoopDomain.Axis outer, LoopDomain.Axis inner)
            implements IterTransform {
        public Split {
            Objects.requireNonNull(factor, "factor");
            Objects.requireNonNull(outer, "outer");
            Objects.requireNonNull(inner, "inner");
        }

        @Override
        public List<Integer> inputs() { return List.of(in); }

        @Override
        public List<LoopDomain.Axis> outputs() { return List.of(outer, inner); }
    }

    /** {@code outer} and {@code inner} merged into one axis of extent {@code outer * inner}. */
    record Merge(int outer, int inner, LoopDomain.Axis out) implements IterTransform {
        public Merge {
            Objects.requireNonNull(out, "out");
        }

        @Override
        public List<Integer> inputs() { return List.of(outer, inner); }

        @Override
        public List<LoopDomain.Axis> outputs() { return List.of(out); }
    }

    /**
     * nvFuser's {@code Swizzle1D}: {@code out} has {@code in}'s extent, index i standing for
     * {@code (i + deviceIdx) % n} of {@code in}, n being the mesh's size along {@code parallelType} (a device
     * type). A Stream axis so defined makes the DID-to-Stream allgather a CollectivePermute.
     */
    record Swizzle1D(LoopDomain.Axis in, ParallelType parallelType, LoopDomain.Axis out) implements IterTransform {
        public Swizzle1D {
            Objects.requireNonNull(in, "in");
            Objects.requireNonNull(parallelType, "parallelType");
            Objects.requireNonNull(out, "out");
        }

        @Override
        public List<Integer> inputs() { return List.of(in.id()); }

        @Override
        public List<LoopDomain.Axis> outputs() { return List.of(out); }
    }
}
