package org.hostir.studio.exec;

import java.util.List;
import java.util.Locale;

/**
 * The run's outputs gathered from the ranks against the reference interpreter's: the largest absolute error, and
 * the worst element's error as a fraction of its allowed error (the error-bounded tolerance of
 * docs/validation.md; above 1 means FAIL); {@code coverage} says per output which elements were checked (all, or
 * a sample and what it can miss).
 */
public record Validation(boolean passed, double maxAbsError, double worstFraction, List<String> details,
                         List<String> coverage) {
    public Validation {
        details = List.copyOf(details);
        coverage = List.copyOf(coverage);
    }

    /**
     * {@code validation: PASS max_abs_err=... worst=... of allowed} or {@code validation: FAIL ...}, as DESIGN 3
     * fixes the start of the line.
     */
    public String line() {
        String checked = coverage.isEmpty() ? "" : " (" + String.join("; ", coverage) + ")";
        return passed ? String.format(Locale.ROOT, "validation: PASS max_abs_err=%.3g worst=%.3g of allowed%s",
                maxAbsError, worstFraction, checked) : "validation: FAIL " + String.join("; ", details) + checked;
    }
}
