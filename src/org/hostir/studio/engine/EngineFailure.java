package org.hostir.studio.engine;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.diag.Diagnostic;

/**
 * Why the engine could not do what a front end asked, as data: the kind (the user's input, or a run that failed),
 * one {@link Diagnostic} per problem (file, line, typed subject, rule) and, for a failed run, the lines of detail
 * the backend gave (which ranks wait for what). Front ends print or mark it; none of them formats it twice.
 */
public final class EngineFailure extends Exception {
    /** {@code BAD_INPUT}: the file, its symbols, options or flags; {@code RUN_FAILED}: execution went wrong. */
    public enum Kind { BAD_INPUT, RUN_FAILED }

    private final Kind kind;
    private final List<Diagnostic> diagnostics;
    private final List<String> details;

    public EngineFailure(Kind kind, List<Diagnostic> diagnostics, List<String> details) {
        super(diagnostics.isEmpty() ? kind.toString() : diagnostics.getFirst().format(), null, false, false);
        this.kind = kind;
        this.diagnostics = List.copyOf(diagnostics);
        this.details = List.copyOf(details);
    }

    public EngineFailure(Kind kind, List<Diagnostic> diagnostics) { this(kind, diagnostics, List.of()); }

    public Kind kind() { return kind; }

    public List<Diagnostic> diagnostics() { return diagnostics; }

    public List<String> details() { return details; }

    /** One {@code error:} line per diagnostic, then the details indented: what a console shows. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        for (Diagnostic d : diagnostics) out.add(d.format());
        for (String d : details) out.add("  " + d);
        return out;
    }
}
