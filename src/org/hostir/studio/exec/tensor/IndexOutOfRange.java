package org.hostir.studio.exec.tensor;

import java.util.List;

import org.hostir.studio.diag.RunFailure;
import org.hostir.studio.ir.FusionOp;

/**
 * An index outside its axis (index_select's or take_along_axis's {@code indices}): the run fails naming the op and
 * the value, as {@code at::index_select} and {@code at::take_along_dim} raise "index out of range in self"
 * (PyTorch's gather); a value would be a silent wrong answer. A failure
 * of the run about the op's output and index, put at the op's file line.
 */
public final class IndexOutOfRange extends RunFailure {
    private static final long serialVersionUID = 1L;

    IndexOutOfRange(FusionOp op, int dim, long index, long size) {
        super(OpKernels.describe(op) + ": index " + index + " is outside [0, " + size + ") of input axis " + dim
                + " (at::" + (op instanceof FusionOp.IndexSelect ? "index_select"
                : op instanceof FusionOp.Scatter ? "scatter" : "take_along_dim") + ": index out of range in self)", List.of(op.output().subject(), op.inputs().get(1).subject()));
    }
}
