package org.hostir.studio.ir.parse;

import java.util.Objects;

/**
 * One container found in a log: where it stands (1-based lines of the log), what the log says about it, and the
 * program, or why it could not be read ({@code dump} null, {@code error} set).
 *
 * @param rank the rank the log attributes it to (a line prefix such as {@code [1,3]<stdout>:} or
 *             {@code [rank3]:}, or a preceding "rank 3"), -1 when it says none
 * @param pass the lowering pass after which it was printed ({@code Fusion after pass: X}), or null
 * @param test the test that printed it (a gtest {@code [ RUN      ] X}), or null
 * @param context the last line of other output before it, or null
 * @param error why it could not be read, or null; {@code errorLine} says where (a line of the log, 0 when readable)
 *              and {@code rule} which rule it breaks ({@link DumpFormatException#rule()})
 */
public record LogProgram(int index, int rank, String pass, String test, String context, int firstLine,
                         int lastLine, ParsedDump dump, String error, int errorLine, String rule) {
    public LogProgram {
        if ((dump == null) == (error == null)) throw new IllegalArgumentException("a dump or an error, not both");
    }

    /** {@code #2 rank 1, after pass X, test Y} (or the context line when the log says nothing else). */
    public String label() {
        StringBuilder s = new StringBuilder("#").append(index);
        if (rank >= 0) s.append(" rank ").append(rank);
        if (pass != null) s.append(rank >= 0 ? ", " : " ").append("after ").append(pass);
        if (test != null) s.append(rank >= 0 || pass != null ? ", " : " ").append(test);
        if (rank < 0 && pass == null && test == null && context != null) s.append(" ").append(context);
        return s.toString();
    }

    public boolean readable() { return dump != null; }

    public String describe() {
        return label() + " (lines " + firstLine + "-" + lastLine + ")" + (readable() ? ""
                : ": line " + errorLine + ": " + error)
                + (readable() && !Objects.requireNonNull(dump).warnings().isEmpty()
                        ? ", " + dump.warnings().size() + " warning(s)" : "");
    }
}
