package org.hostir.studio.exec;

import java.util.List;

/** The run's outputs gathered from the ranks against the reference interpreter's. */
public record Validation(boolean passed, double maxAbsError, List<String> details) {
    public Validation {
        details = List.copyOf(details);
    }

    /** {@code validation: PASS max_abs_err=...} or {@code validation: FAIL ...}, as DESIGN 3 fixes it. */
    public String line() {
        return passed ? String.format(java.util.Locale.ROOT, "validation: PASS max_abs_err=%.3g", maxAbsError)
                : "validation: FAIL " + String.join("; ", details);
    }
}
