package org.hostir.studio.exec.debug;

/** Why a rank's host is held: a breakpoint matched, a step ended, or it was asked to suspend. */
public enum StopReason {
    BREAKPOINT("breakpoint"), STEP("step"), SUSPEND("suspended");

    private final String label;

    StopReason(String label) { this.label = label; }

    public String label() { return label; }
}
