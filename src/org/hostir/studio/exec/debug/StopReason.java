package org.hostir.studio.exec.debug;

/**
 * Why a rank's host is held: a breakpoint matched, a step ended, it was asked to suspend, or (where the debugger
 * synchronizes at stops, {@link Meetings}) it waits to post a communication with its team, some of which is held.
 * A rank held for its team is let go by its team, not by a command.
 */
public enum StopReason {
    BREAKPOINT("breakpoint"), STEP("step"), SUSPEND("suspended"), TEAM("waits for its team");

    private final String label;

    StopReason(String label) { this.label = label; }

    public String label() { return label; }
}
