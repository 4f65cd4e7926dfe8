package org.hostir.studio.exec;

/** A run that cannot go on: a program the evaluator cannot execute, or a backend failure it reports. */
public class ExecutionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ExecutionException(String message) { super(message); }

    public ExecutionException(String message, Throwable cause) { super(message, cause); }
}
