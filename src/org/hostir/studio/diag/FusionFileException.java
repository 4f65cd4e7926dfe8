package org.hostir.studio.diag;

import java.util.List;

/**
 * A fusion file (or a fusion) that cannot be used, with every diagnostic found. Checked, so that each caller
 * decides how to show the diagnostics instead of letting a stack trace reach the user.
 */
public final class FusionFileException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient List<Diagnostic> diagnostics;

    public FusionFileException(List<Diagnostic> diagnostics) {
        super(summary(diagnostics));
        if (diagnostics.isEmpty()) throw new IllegalArgumentException("a FusionFileException needs a diagnostic");
        this.diagnostics = List.copyOf(diagnostics);
    }

    public FusionFileException(Diagnostic diagnostic) { this(List.of(diagnostic)); }

    public List<Diagnostic> diagnostics() { return diagnostics; }

    private static String summary(List<Diagnostic> diagnostics) {
        if (diagnostics.isEmpty()) return "no diagnostics";
        String first = diagnostics.getFirst().format();
        return diagnostics.size() == 1 ? first : first + " (and " + (diagnostics.size() - 1) + " more)";
    }
}
