package org.hostir.studio.file;

import java.util.Objects;

import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.ParallelType;

/** One axis of a tensor in a fusion file: extent, iter type (default iteration), parallel type (default Serial). */
public record AxisSpec(ExtentSpec extent, IterType iter, ParallelType parallel) {
    public AxisSpec {
        Objects.requireNonNull(extent, "extent");
        iter = iter == null ? IterType.ITERATION : iter;
        parallel = parallel == null ? ParallelType.SERIAL : parallel;
    }

    /** An iteration axis, Serial: what the file's short form ({@code "M"} or {@code 8}) means. */
    public static AxisSpec of(ExtentSpec extent) {
        return new AxisSpec(extent, IterType.ITERATION, ParallelType.SERIAL);
    }

    public static AxisSpec of(ExtentSpec extent, ParallelType parallel) {
        return new AxisSpec(extent, IterType.ITERATION, parallel);
    }

    /** Whether the file can write this axis as a bare extent. */
    public boolean isPlain() { return iter == IterType.ITERATION && parallel == ParallelType.SERIAL; }
}
