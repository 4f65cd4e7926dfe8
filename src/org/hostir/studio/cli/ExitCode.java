package org.hostir.studio.cli;

/** The exit codes of {@code hirstudio} (DESIGN 3). */
public final class ExitCode {
    private ExitCode() {}

    public static final int OK = 0;
    /** The command ran but its check failed (e.g. {@code run --validate} found a mismatch). */
    public static final int FAILED = 1;
    /** Bad input or bad usage: the diagnostics or the usage error are on stderr. */
    public static final int BAD_INPUT = 2;
    /** A bug: an exception nobody expected. */
    public static final int INTERNAL = 3;
}
