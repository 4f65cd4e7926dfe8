package org.hostir.studio.exec;

import java.util.List;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.diag.Subject;

/**
 * A run that cannot go on: a program the evaluator cannot execute, or a backend failure it reports. A
 * {@link RunFailure}, so it names the tensors it is about where it has them.
 */
public class ExecutionException extends RunFailure {
    private static final long serialVersionUID = 1L;

    public ExecutionException(String message) { super(message); }

    public ExecutionException(String message, Throwable cause) { super(message, List.of(), RULE, cause); }

    /** A failure about these tensors of the program, in the order the message names them. */
    public ExecutionException(String message, List<Subject.Tensor> tensors) { super(message, tensors); }

    /** The run's failure (the first, which ended it) thrown where the run is waited for. */
    public ExecutionException(RunFailure failure) {
        super(failure.getMessage(), failure.tensors(), failure.rule(), failure);
    }
}
