package org.hostir.studio.lower;

import org.hostir.studio.diag.Subject;

/**
 * Why a schedule cannot be lowered: where (the expression or tensor, as text for the message), the rule, what is
 * wrong, and the typed {@link Subject} it concerns (an expression's output tensor, an option, ...), which front
 * ends resolve to a file line through the fusion's locator.
 */
public record LoweringError(String where, String rule, String message, Subject subject) {
    /** An error about something that is not an element of the fusion (an option, a pipeline setting). */
    public LoweringError(String where, String rule, String message) {
        this(where, rule, message, new Subject.Setting(where));
    }

    public String format() { return where + ": " + message + " [" + rule + "]"; }
}
