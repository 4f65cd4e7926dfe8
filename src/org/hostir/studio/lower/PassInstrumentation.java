package org.hostir.studio.lower;

/** Hooks around every pass, as MLIR's PassInstrumentation: the trace, timing and logging attach here. */
public interface PassInstrumentation {

    default void beforePass(Pass pass, Snapshot before, LoweringContext context) {}

    default void afterPass(Pass pass, Snapshot before, Snapshot after, LoweringContext context) {}
}
