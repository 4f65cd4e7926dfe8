package org.hostir.studio.lower;

/**
 * Why a schedule cannot be lowered: the expression or tensor it concerns, the rule, and what is wrong.
 * {@code tensorId} is the tensor concerned (an expression's output), or -1, so front ends can point into the file.
 */
public record LoweringError(String subject, String rule, String message, int tensorId) {
    public LoweringError(String subject, String rule, String message) { this(subject, rule, message, -1); }

    public String format() { return subject + ": " + message + " [" + rule + "]"; }
}
