package org.hostir.studio.rules;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.hostir.studio.diag.Rule;
import org.hostir.studio.ir.BinaryOpType;
import org.hostir.studio.ir.CastFunctions;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.UnaryOpType;

/**
 * The dtypes through each op, as nvFuser's op builders and cuBLASLt allow them: most ops keep one dtype; a cast
 * needs a cast function for its pair (csrc/type.cpp's supported_casts2string); float ops (exp, log, ...) give
 * float for an integer or bool input (NVFUSER_DEFINE_UNARY_FLOAT_OP); fp8 tensors exist to feed a matmul, so an
 * op may only move, cast or multiply them. Where nvFuser would accept a bool op that PyTorch refuses or types
 * otherwise, PyTorch decides ({@link #bool}).
 */
final class DtypeRules {
    private DtypeRules() {}

    static void check(ShapeRules.Checker c, FusionOp op) {
        if (!bool(c, op)) return;
        switch (op) {
            case FusionOp.Unary u when u.op() == UnaryOpType.CAST -> cast(c, u);
            case FusionOp.Unary u -> {
                if (noFp8(c, op)) expect(c, op, u.op().resultType(u.input().dtype()));
            }
            case FusionOp.Binary _, FusionOp.Reduction _ -> {
                if (noFp8(c, op)) same(c, op);
            }
            case FusionOp.Set _, FusionOp.Broadcast _, FusionOp.Squeeze _, FusionOp.Expand _, FusionOp.Reshape _ ->
                    same(c, op);
            case FusionOp.Where w -> where(c, w);
            case FusionOp.Matmul m -> matmul(c, op, List.of(m.a(), m.b()));
            case FusionOp.Linear l -> matmul(c, op, l.bias() == null ? List.of(l.input(), l.weight())
                    : List.of(l.input(), l.weight(), l.bias()));
        }
    }

    /**
     * The bool ops PyTorch refuses or types otherwise, refused with its reason; false when one was. PyTorch's
     * {@code -t} and {@code t - u} on bool raise (aten/src/ATen/native/UnaryOps.cpp TORCH_META_FUNC(neg):
     * "Negation, the `-` operator, on a bool tensor is not supported"; BinaryOps.cpp sub_check: "Subtraction, the
     * `-` operator, with two bool tensors is not supported"; Activation.cpp relu: "Boolean inputs not supported
     * for relu"), its div of bools is a float true division, and
     * {@code torch.sum}/{@code torch.prod} of bool give int64 (ReduceOps.cpp, promote_integers), as nvFuser's
     * {@code sum} does (csrc/ops/arith.cpp:1476-1481 casts bool and integers to Int): a bool output of them would
     * be a logical or, which neither computes.
     */
    private static boolean bool(ShapeRules.Checker c, FusionOp op) {
        if (op.inputs().stream().noneMatch(t -> t.dtype() == DataType.BOOL)) return true;
        String why = null;
        if (op instanceof FusionOp.Unary u && u.op() == UnaryOpType.NEG) {
            why = "negation of a bool tensor is not supported (PyTorch refuses it: invert a mask with where, or cast"
                    + " to an integer first)";
        } else if (op instanceof FusionOp.Unary u && u.op() == UnaryOpType.RELU) {
            why = "relu of a bool tensor is not supported (PyTorch refuses it: cast to an integer or float first)";
        } else if (op instanceof FusionOp.Binary b && b.op() == BinaryOpType.SUB) {
            why = "subtraction of bool tensors is not supported (PyTorch refuses it: use where, or cast to an"
                    + " integer first)";
        } else if (op instanceof FusionOp.Binary b && b.op() == BinaryOpType.DIV) {
            why = "div of bool tensors is a float division in PyTorch: cast the operands to float first";
        } else if (op instanceof FusionOp.Reduction r && op.output().dtype() == DataType.BOOL
                && (r.op() == ReductionOpType.SUM || r.op() == ReductionOpType.PROD)) {
            why = r.op().fileName() + " of bool gives int64 in PyTorch and nvFuser, not bool: cast the input to int64"
                    + " and make " + op.output().label() + " int64";
        }
        if (why == null) return true;
        c.fail(Rule.DTYPE_BOOL, why);
        return false;
    }

    private static void cast(ShapeRules.Checker c, FusionOp.Unary u) {
        DataType from = u.input().dtype();
        DataType to = u.output().dtype();
        if (from != to && CastFunctions.name(from, to).isEmpty()) {
            c.fail(Rule.DTYPE_CAST, "cannot cast " + from.fileName() + " to " + to.fileName()
                    + " (nvFuser has no cast function for the pair)");
        }
    }

    /** where(c, x, y): a bool condition, x, y and the output of one dtype (nvFuser promotes otherwise). */
    private static void where(ShapeRules.Checker c, FusionOp.Where w) {
        if (!noFp8(c, w)) return;
        if (w.condition().dtype() != DataType.BOOL) {
            c.fail(Rule.DTYPE_MISMATCH, "the condition " + w.condition().label() + " is "
                    + w.condition().dtype().fileName() + ", not bool");
        } else if (w.x().dtype() != w.output().dtype() || w.y().dtype() != w.output().dtype()) {
            c.fail(Rule.DTYPE_MISMATCH, "dtypes differ: " + listed(w));
        }
    }

    private static boolean noFp8(ShapeRules.Checker c, FusionOp op) {
        for (TensorView t : tensors(op)) {
            if (t.dtype().isFloat8()) {
                c.fail(Rule.DTYPE_FP8, t.label() + " is " + t.dtype().fileName() + ": " + op.opName()
                        + " does not take fp8 (cast it, or use it as a matmul or linear operand)");
                return false;
            }
        }
        return true;
    }

    private static void expect(ShapeRules.Checker c, FusionOp op, DataType expected) {
        if (op.output().dtype() != expected) {
            c.fail(Rule.DTYPE_MISMATCH, op.output().label() + " is " + op.output().dtype().fileName() + ", but "
                    + op.opName() + " of " + op.inputs().get(0).dtype().fileName() + " gives " + expected.fileName());
        }
    }

    private static void same(ShapeRules.Checker c, FusionOp op) {
        Set<DataType> seen = new HashSet<>();
        tensors(op).forEach(t -> seen.add(t.dtype()));
        if (seen.size() > 1) c.fail(Rule.DTYPE_MISMATCH, "dtypes differ: " + listed(op));
    }

    /** Operands (and bias) of one floating type, or fp8 operands with a wider output, as cuBLASLt takes them. */
    private static void matmul(ShapeRules.Checker c, FusionOp op, List<TensorView> operands) {
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
                c.fail(Rule.DTYPE_MATMUL, "fp8 operands must both be fp8 (not both e5m2) with a float, bfloat16"
                        + " or half output and bias: " + listed(op));
            }
            return;
        }
        Set<DataType> seen = new HashSet<>();
        tensors(op).forEach(t -> seen.add(t.dtype()));
        if (seen.size() > 1) {
            c.fail(Rule.DTYPE_MISMATCH, "dtypes differ: " + listed(op));
        } else if (!gemmType && out != DataType.DOUBLE) {
            c.fail(Rule.DTYPE_MATMUL, op.opName() + " of " + out.fileName() + " tensors: cuBLAS(Lt) multiplies"
                    + " float, bfloat16, half, double and fp8");
        }
    }

    private static List<TensorView> tensors(FusionOp op) {
        List<TensorView> all = new ArrayList<>(op.inputs());
        all.add(op.output());
        return all;
    }

    private static String listed(FusionOp op) {
        return op.inputs().stream().map(t -> t.label() + " is " + t.dtype().fileName())
                .collect(Collectors.joining(", ")) + ", " + op.output().label() + " is " + op.output().dtype().fileName();
    }
}
