package org.hostir.studio.lower;

import java.util.ArrayList;
import java.util.List;

/** Wall time of each pass of one pipeline run, in pass order (MLIR's PassTiming, without the nesting). */
public final class PassTiming implements PassInstrumentation {
    private final List<Long> nanos = new ArrayList<>();
    private long start;

    @Override
    public void beforePass(Pass pass, Snapshot before, LoweringContext context) { start = System.nanoTime(); }

    @Override
    public void afterPass(Pass pass, Snapshot before, Snapshot after, LoweringContext context) {
        nanos.add(System.nanoTime() - start);
    }

    /** The nanoseconds of each pass that completed, in order. */
    public List<Long> nanos() { return List.copyOf(nanos); }
}
