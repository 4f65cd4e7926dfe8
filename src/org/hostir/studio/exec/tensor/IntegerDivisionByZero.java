package org.hostir.studio.exec.tensor;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.diag.Subject;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;

/**
 * An integer division by zero: the run fails, naming the op, as nvFuser's and PyTorch's integer division
 * refuses (a value would be a silent wrong answer: C++ leaves it undefined). A failure of the run, not a bug:
 * a {@link RunFailure} about the op's output and inputs, so the run's failure is put at the op's file line.
 */
public final class IntegerDivisionByZero extends RunFailure {
    private static final long serialVersionUID = 1L;

    IntegerDivisionByZero(FusionOp op) {
        super(OpKernels.describe(op) + ": integer division by zero (PyTorch raises ZeroDivisionError, nvFuser"
                + " \"Integer division by zero detected\")", named(op));
    }

    /** The tensors as {@code T2 = div(T0, T1)} names them: the output, then each input once. */
    private static List<Subject.Tensor> named(FusionOp op) {
        List<Subject.Tensor> out = new ArrayList<>();
        out.add(op.output().subject());
        for (TensorView t : op.inputs()) if (!out.contains(t.subject())) out.add(t.subject());
        return out;
    }
}
