package org.hostir.studio.diff;

import java.util.List;
import java.util.Objects;

/**
 * One hunk of a unified diff: a run of changed lines with up to the requested context around them.
 * The starts are as the header prints them: 1-based, or, for an empty range, the number of the line before it
 * (0 at the top), as GNU diff does.
 */
public record Hunk(int beforeStart, int beforeCount, int afterStart, int afterCount, List<Line> lines) {

    public enum Kind {
        CONTEXT(' '), REMOVED('-'), ADDED('+');

        private final char prefix;

        Kind(char prefix) { this.prefix = prefix; }

        public char prefix() { return prefix; }
    }

    /** A line without its terminator; {@code terminated} is false only for a last line that has no newline. */
    public record Line(Kind kind, String text, boolean terminated) {
        public Line {
            Objects.requireNonNull(kind);
            Objects.requireNonNull(text);
        }
    }

    public Hunk {
        lines = List.copyOf(lines);
    }

    /** {@code @@ -a,b +c,d @@}, counts always written. */
    public String header() {
        return "@@ -" + beforeStart + "," + beforeCount + " +" + afterStart + "," + afterCount + " @@";
    }

    /** The header, then each line with its prefix; a line without newline gets the usual marker after it. */
    public void appendTo(StringBuilder out) {
        out.append(header()).append('\n');
        for (Line line : lines) {
            out.append(line.kind().prefix()).append(line.text()).append('\n');
            if (!line.terminated()) out.append("\\ No newline at end of file\n");
        }
    }
}
