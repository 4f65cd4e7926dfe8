package org.hostir.studio.file;

import java.util.Objects;

/** A fusion file as read: its name (for diagnostics), the document, and the lines of its JSON paths. */
public record ParsedFusion(String file, FusionDocument document, SourceMap lines) {
    public ParsedFusion {
        Objects.requireNonNull(document, "document");
        file = file == null || file.isEmpty() ? "<fusion>" : file;
        lines = lines == null ? SourceMap.NONE : lines;
    }

    /** A document built in memory (the editor's model): no lines. */
    public static ParsedFusion inMemory(String file, FusionDocument document) {
        return new ParsedFusion(file, document, SourceMap.NONE);
    }
}
