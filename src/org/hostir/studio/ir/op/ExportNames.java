package org.hostir.studio.ir.op;

import java.util.List;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.TensorView;

/**
 * What an exporter gives an op definition to spell a call in its language: the variable of a tensor, a tensor's
 * concrete shape, the language's dtype constant.
 */
public interface ExportNames<X extends Exception> {
    String name(TensorView t);

    List<Long> shape(TensorView t) throws X;

    String dtype(DataType t);
}
