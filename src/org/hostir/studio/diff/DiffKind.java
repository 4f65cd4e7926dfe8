package org.hostir.studio.diff;

/** How a node fares between a pass's input and output. */
public enum DiffKind {
    /** Only in the after program. */
    ADDED,
    /** Only in the before program. */
    REMOVED,
    /** Matched, but its own fields differ, or something in its bodies was added, removed, changed or moved. */
    CHANGED,
    /** Matched and identical, bodies included (ids aside when it was matched by structure). */
    UNCHANGED
}
