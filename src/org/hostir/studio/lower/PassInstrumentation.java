package org.hostir.studio.lower;

/**
 * Hooks around the pipeline and every pass, as MLIR's PassInstrumentation: timing, change detection, snapshot
 * collection and logging attach here instead of living in the pipeline's loop. Before-hooks run in the order the
 * instrumentations were added, after-hooks (and the failure hook) in the reverse order, so the last one added
 * sits closest to the pass. One run of the pipeline lowers one rank.
 */
public interface PassInstrumentation {

    default void beforePipeline(Snapshot input, LoweringContext context) {}

    default void beforePass(Pass pass, Snapshot before, LoweringContext context) {}

    default void afterPass(Pass pass, Snapshot before, Snapshot after, LoweringContext context) {}

    /** {@code pass} threw {@code failure} (a {@link LoweringException}: a schedule it cannot lower); rethrown after. */
    default void afterPassFailed(Pass pass, Snapshot before, LoweringContext context, RuntimeException failure) {}

    /** The pipeline ran every pass; {@code result} is the last pass's snapshot. Not called after a failure. */
    default void afterPipeline(Snapshot result, LoweringContext context) {}
}
