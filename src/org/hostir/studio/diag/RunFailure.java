package org.hostir.studio.diag;

import java.util.List;

/**
 * A run that cannot go on, typed: what it is about ({@link #tensors}, the IR tensors its message names, in the
 * order it names them) and the rule it breaks, so that the engine puts it at the file line of the op that writes
 * the first of them by its locator, never by reading the message. In {@code diag} so that the kernels of
 * {@code exec.tensor}, the evaluator and every backend throw the one type.
 */
public class RunFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The rule of a failure during a run, as the command line prints it. */
    public static final String RULE = "run";

    private final transient List<Subject.Tensor> tensors;
    private final String rule;

    public RunFailure(String message, List<Subject.Tensor> tensors, String rule, Throwable cause) {
        super(message, cause);
        this.tensors = List.copyOf(tensors);
        this.rule = rule;
    }

    public RunFailure(String message, List<Subject.Tensor> tensors) { this(message, tensors, RULE, null); }

    /** A failure about no tensor of the program (a backend's, the watchdog's, a launcher's). */
    public RunFailure(String message) { this(message, List.of(), RULE, null); }

    /** The tensors it is about, in the order its message names them; empty when it is about none. */
    public List<Subject.Tensor> tensors() { return tensors; }

    public String rule() { return rule; }

    /** What it is about: its first tensor, else the run itself. */
    public Subject subject() { return tensors.isEmpty() ? new Subject.Setting(RULE) : tensors.getFirst(); }

    /** The same failure said where it happened ({@code rank 1: ...}, a stream thread's name). */
    public RunFailure within(String where) { return new RunFailure(where + ": " + getMessage(), tensors, rule, this); }

    /** Any throwable as a failure of the run: a run failure as itself, anything else by its message alone. */
    public static RunFailure of(Throwable t) {
        return t instanceof RunFailure f ? f : new RunFailure(String.valueOf(t.getMessage()), List.of(), RULE, t);
    }

    /** The message alone: a run's failure line shows it to the user, who needs no Java class name. */
    @Override
    public String toString() { return getMessage(); }
}
