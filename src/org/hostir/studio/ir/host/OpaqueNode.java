package org.hostir.studio.ir.host;

import java.util.List;
import java.util.Objects;

/**
 * A statement of a Host IR dump that the reader does not understand (a node kind or field of a newer nvFuser),
 * kept as its text so that nothing is dropped: printed back verbatim, shown in trees and diffs, refused by every
 * backend and pass with a clear error. {@code lines} are the statement's lines, indentation removed.
 */
public record OpaqueNode(int id, List<String> lines, String reason) implements HostNode {
    public OpaqueNode {
        lines = List.copyOf(lines);
        Objects.requireNonNull(reason);
        if (lines.isEmpty()) throw new IllegalArgumentException("an opaque node keeps at least one line");
    }

    /** The statement's first line, for messages. */
    public String headline() { return lines.get(0); }
}
