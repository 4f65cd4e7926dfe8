package org.hostir.studio.lower;

/** Why a schedule cannot be lowered: the expression or tensor it concerns, the rule, and what is wrong. */
public record LoweringError(String subject, String rule, String message) {
    public String format() { return subject + ": " + message + " [" + rule + "]"; }
}
