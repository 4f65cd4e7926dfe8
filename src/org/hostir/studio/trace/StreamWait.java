package org.hostir.studio.trace;

/**
 * A wait a trace states rather than one inferred from times: an event recorded on one stream after device bar
 * {@code before} ended and waited for on another stream before bar {@code after} (cudaEventRecord then
 * cudaStreamWaitEvent, paired by the profiler's event id and correlation ids). Both are the very event objects of
 * the {@link TraceRun}'s timeline, matched by identity.
 */
public record StreamWait(TimelineEvent before, TimelineEvent after) {
}
