package org.hostir.studio.lower;

import java.util.List;

import org.hostir.studio.ir.FusionOp;

/** A schedule the pipeline cannot lower; carries one error per problem found. */
public final class LoweringException extends RuntimeException {
    private final List<LoweringError> errors;

    public LoweringException(List<LoweringError> errors) {
        super(errors.isEmpty() ? "lowering failed" : errors.get(0).format());
        this.errors = List.copyOf(errors);
    }

    public LoweringException(String subject, String rule, String message) {
        this(List.of(new LoweringError(subject, rule, message)));
    }

    /** An error about an expression, located by its output tensor. */
    public LoweringException(FusionOp op, String rule, String message) {
        this(List.of(new LoweringError(CommunicationPlanner.subject(op), rule, message, op.output().subject())));
    }

    public List<LoweringError> errors() { return errors; }
}
