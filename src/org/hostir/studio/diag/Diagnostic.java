package org.hostir.studio.diag;

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
 * @param subject what it is about, typed (front ends map it to a graph node without reading {@code path})
 */
public record Diagnostic(String file, int line, String path, String rule, String message, Subject subject) {
    public Diagnostic {
        file = file == null || file.isEmpty() ? "<fusion>" : file;
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(subject, "subject");
        line = Math.max(0, line);
    }

    /** A problem at a place of the JSON text (reading, schema): its subject is that path. */
    public Diagnostic(String file, int line, String path, String rule, String message) {
        this(file, line, path, rule, message, new Subject.Json(path));
    }

    public Diagnostic(String file, int line, String path, Rule rule, String message) {
        this(file, line, path, rule.id(), message);
    }

    /** A problem about a subject that a locator resolved. */
    public static Diagnostic at(String file, FusionLocator.Location at, String rule, String message) {
        return new Diagnostic(file, at.line(), at.path(), rule, message, at.subject());
    }

    /** {@code error: <file>:<line>: <path>: <message> [<rule>]}, always exactly one line. */
    public String format() {
        String where = line > 0 ? file + ":" + line : file;
        // control characters from a hostile file (or its path) must not break the one-line contract or the terminal
        return TerminalText.escape("error: " + where + ": " + path + ": " + message + " [" + rule + "]");
    }

    @Override
    public String toString() { return format(); }
}
