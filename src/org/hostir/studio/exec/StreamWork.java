package org.hostir.studio.exec;

/**
 * The tasks a backend's streams have run and been given, over every device: what moves during an iteration whose
 * ranks all finish together at its end (an AllGather ties them), where a count of ranks done stays at 0.
 */
public record StreamWork(long run, long posted) {
    /** The work since {@code start}. */
    public StreamWork since(StreamWork start) { return new StreamWork(run - start.run, posted - start.posted); }
}
