package org.hostir.studio.trace;

/**
 * A host bar that issued a device bar: a CUDA runtime call and the kernel it launched (a profiler's correlation
 * id), or a Host IR node's dispatch and the work it posted. The two are the very event objects of the
 * {@link TraceRun}'s timeline, matched by identity.
 */
public record Launch(TimelineEvent host, TimelineEvent device) {
}
