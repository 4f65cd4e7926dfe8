package org.hostir.studio.exec.tensor;

/**
 * An integer division by zero: the run fails, naming the op, as nvFuser's and PyTorch's integer division
 * refuses (a value would be a silent wrong answer: C++ leaves it undefined). A failure of the run, not a bug:
 * the backends report it in words (exec.tensor cannot see exec's ExecutionException, so it is its own type).
 */
public final class IntegerDivisionByZero extends ArithmeticException {
    private static final long serialVersionUID = 1L;

    IntegerDivisionByZero(String op) {
        super(op + ": integer division by zero (PyTorch raises ZeroDivisionError, nvFuser \"Integer division by"
                + " zero detected\")");
    }

    /** The message alone: a run's failure line shows it to the user, who needs no Java class name. */
    @Override
    public String toString() { return getMessage(); }
}
