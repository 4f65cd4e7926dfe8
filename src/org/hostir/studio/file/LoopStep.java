package org.hostir.studio.file;

import java.util.List;
import java.util.Objects;

import org.hostir.studio.ir.ParallelType;

/**
 * One scheduling call on a tensor's loop domain in a {@code hostir-fusion/2} file, in nvFuser's words:
 * {@code split}/{@code outer_split} by a factor, {@code merge}, {@code reorder}, {@code parallelize},
 * {@code swizzle1d}. Positions
 * are loop positions at the time of the step, as in nvFuser.
 */
public sealed interface LoopStep {

    /** {@code tv->split(axis, factor, innerSplit)}; {@code "outer_split"} in the file is innerSplit = false. */
    record Split(int axis, ExtentSpec factor, boolean innerSplit) implements LoopStep {
        public Split {
            Objects.requireNonNull(factor, "factor");
        }
    }

    /** {@code tv->merge(axis)}: the axis and the next one. */
    record Merge(int axis) implements LoopStep {}

    /** The loop domain permuted: new position i holds old position {@code order.get(i)}. */
    record Reorder(List<Integer> order) implements LoopStep {
        public Reorder {
            order = List.copyOf(order);
        }
    }

    /** {@code tv->swizzle1d(axis, type)}: the axis renumbered by a device parallel type (nvFuser's Swizzle1D). */
    record Swizzle1D(int axis, ParallelType type) implements LoopStep {
        public Swizzle1D {
            Objects.requireNonNull(type, "type");
        }
    }

    /** {@code tv->axis(axis)->parallelize(type)}. */
    record Parallelize(int axis, ParallelType type) implements LoopStep {
        public Parallelize {
            Objects.requireNonNull(type, "type");
        }
    }
}
