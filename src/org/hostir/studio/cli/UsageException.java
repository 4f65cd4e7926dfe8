package org.hostir.studio.cli;

/** The command line itself is wrong (unknown option, bad value): exit 2 with the message and the usage. */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
