package org.hostir.studio.ir.op;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;

/**
 * The dtype rules the families share, as nvFuser's op builders and cuBLASLt allow them: most ops keep one dtype;
 * fp8 tensors exist to feed a matmul, so an op may only move, cast or multiply them. Where nvFuser would accept a
 * bool op that PyTorch refuses or types otherwise, PyTorch decides ({@link OpDefinition#boolRefusal}).
 */
public final class DtypeChecks {
    private DtypeChecks() {}

    /** The op's dtype rule: PyTorch's bool refusals first, then its family's rule. */
    public static void check(OpDefinition<FusionOp> definition, FusionOp op, OpChecks c) {
        if (op.inputs().stream().anyMatch(t -> t.dtype() == DataType.BOOL)) {
            var why = definition.boolRefusal(op);
            if (why.isPresent()) {
                c.fail(OpRule.DTYPE_BOOL, why.get());
                return;
            }
        }
        definition.checkDtype(op, c);
    }

    static boolean noFp8(OpChecks c, FusionOp op) {
        for (TensorView t : tensors(op)) {
            if (t.dtype().isFloat8()) {
                c.fail(OpRule.DTYPE_FP8, t.label() + " is " + t.dtype().fileName() + ": " + op.opName()
                        + " does not take fp8 (cast it, or use it as a matmul or linear operand)");
                return false;
            }
        }
        return true;
    }

    static void expect(OpChecks c, FusionOp op, DataType expected) {
        if (op.output().dtype() != expected) {
            c.fail(OpRule.DTYPE_MISMATCH, op.output().label() + " is " + op.output().dtype().fileName() + ", but "
                    + op.opName() + " of " + op.inputs().get(0).dtype().fileName() + " gives " + expected.fileName());
        }
    }

    /**
     * A gather by index (index_select, take_along_axis): an integer index (int64 or int32, as PyTorch takes it) and
     * the output in the input's dtype (csrc/ops/indexing.cpp:69, 362-364).
     */
    static void gather(OpChecks c, FusionOp op, TensorView input, TensorView indices) {
        if (!indices.dtype().isIntegral()) {
            c.fail(OpRule.DTYPE_MISMATCH, "the index " + indices.label() + " is " + indices.dtype().fileName()
                    + ", not int64 or int32");
        } else if (op.output().dtype() != input.dtype()) {
            c.fail(OpRule.DTYPE_MISMATCH, op.output().label() + " is " + op.output().dtype().fileName() + ", "
                    + op.opName() + " of " + input.dtype().fileName() + " gives " + input.dtype().fileName());
        }
    }

    /** Inputs and output of one dtype. */
    static void same(OpChecks c, FusionOp op) {
        Set<DataType> seen = new HashSet<>();
        tensors(op).forEach(t -> seen.add(t.dtype()));
        if (seen.size() > 1) c.fail(OpRule.DTYPE_MISMATCH, "dtypes differ: " + listed(op));
    }

    /** Operands (and bias) of one floating type, or fp8 operands with a wider output, as cuBLASLt takes them. */
    static void matmul(OpChecks c, FusionOp op) {
        List<TensorView> operands = op.inputs();
        TensorView a = operands.get(0);
        TensorView b = operands.get(1);
        DataType out = op.output().dtype();
        boolean gemmType = out == DataType.FLOAT || out == DataType.BFLOAT16 || out == DataType.HALF;
        if (a.dtype().isFloat8() || b.dtype().isFloat8()) {
            // cuBLASLt's fp8 GEMM writes float, bfloat16 or half
            boolean ok = a.dtype().isFloat8() && b.dtype().isFloat8() && gemmType
                    && !(a.dtype() == DataType.FLOAT8_E5M2 && b.dtype() == DataType.FLOAT8_E5M2)
                    && (operands.size() < 3 || operands.get(2).dtype() == out);
            if (!ok) {
                c.fail(OpRule.DTYPE_MATMUL, "fp8 operands must both be fp8 (not both e5m2) with a float, bfloat16"
                        + " or half output and bias: " + listed(op));
            }
            return;
        }
        Set<DataType> seen = new HashSet<>();
        tensors(op).forEach(t -> seen.add(t.dtype()));
        if (seen.size() > 1) {
            c.fail(OpRule.DTYPE_MISMATCH, "dtypes differ: " + listed(op));
        } else if (!gemmType && out != DataType.DOUBLE) {
            c.fail(OpRule.DTYPE_MATMUL, op.opName() + " of " + out.fileName() + " tensors: cuBLAS(Lt) multiplies"
                    + " float, bfloat16, half, double and fp8");
        }
    }

    private static List<TensorView> tensors(FusionOp op) {
        List<TensorView> all = new ArrayList<>(op.inputs());
        all.add(op.output());
        return all;
    }

    static String listed(FusionOp op) {
        return op.inputs().stream().map(t -> t.label() + " is " + t.dtype().fileName())
                .collect(Collectors.joining(", ")) + ", " + op.output().label() + " is " + op.output().dtype().fileName();
    }
}
