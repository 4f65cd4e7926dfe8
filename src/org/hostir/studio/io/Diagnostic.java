package org.hostir.studio.io;

import java.util.Objects;

/**
 * One problem found in a fusion: where it is (file, line, JSON path or IR element), which rule it breaks, and
 * what is wrong. {@link #format()} gives the single line the command line prints, so a user can jump to it.
 *
 * @param file    the file as the user named it, or {@code <fusion>} for a fusion built in memory
 * @param line    1-based line, or 0 when unknown (a fusion built in memory)
 * @param path    a JSON path such as {@code $.tensors[1].axes[0].parallel}, or an IR name such as {@code T2}
 * @param rule    the rule id, e.g. {@code shape.matmul} (see {@link Rule})
 * @param message what is wrong, one line
 */
public record Diagnostic(String file, int line, String path, String rule, String message) {
    public Diagnostic {
        file = file == null || file.isEmpty() ? "<fusion>" : file;
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(message, "message");
        line = Math.max(0, line);
    }

    public Diagnostic(String file, int line, String path, Rule rule, String message) {
        this(file, line, path, rule.id(), message);
    }

    /** {@code error: <file>:<line>: <path>: <message> [<rule>]}, always exactly one line. */
    public String format() {
        String where = line > 0 ? file + ":" + line : file;
        return oneLine("error: " + where + ": " + path + ": " + message + " [" + rule + "]");
    }

    /** Control characters (from a hostile file) must not break the one-line-per-diagnostic contract. */
    private static String oneLine(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(Character.isISOControl(c) ? ' ' : c);
        }
        return b.toString();
    }

    @Override
    public String toString() { return format(); }
}
