package org.hostir.studio.exec.tensor;

import org.hostir.studio.ir.FusionOp;

/**
 * Binary ops and reductions on integer tensors (int32 and int64, held in int64: {@link DenseTensor#isIntegral}),
 * with PyTorch's and C++'s integer meaning: computed in 64-bit integers and wrapped to the output's dtype
 * (an int32 result keeps its low 32 bits as two's complement, {@link Rounding#wrap}), never through a float.
 * {@code div} is nvFuser's integer {@code div}: C++'s truncating division (csrc/ops/arith.cpp:954, div with
 * TypePromotion::default_op_config keeps the integer dtype; the host evaluator computes {@code lhs / rhs},
 * csrc/ir/internal_nodes.cpp:788-791), which is {@code torch.div(a, b, rounding_mode="trunc")}; division by zero
 * is an error there ("Integer division by zero detected", internal_nodes.cpp:789, and PyTorch's
 * "ZeroDivisionError", aten/src/ATen/native/cpu/BinaryOpsKernel.cpp div_trunc_kernel), so here it fails the run.
 */
final class IntegerKernels {
    private IntegerKernels() {}

    /** {@code out = x op y} elementwise over contiguous runs of {@code out.numel()} elements. */
    static void binary(FusionOp.Binary b, long[] x, int lo, long[] y, int ro, DenseTensor out) {
        long[] o = out.ints;
        var dtype = out.dtype();
        int n = o.length;
        switch (b.op()) {
            case ADD -> { for (int i = 0; i < n; i++) o[i] = Rounding.wrap(x[lo + i] + y[ro + i], dtype); }
            case SUB -> { for (int i = 0; i < n; i++) o[i] = Rounding.wrap(x[lo + i] - y[ro + i], dtype); }
            case MUL -> { for (int i = 0; i < n; i++) o[i] = Rounding.wrap(x[lo + i] * y[ro + i], dtype); }
            case DIV -> {
                for (int i = 0; i < n; i++) {
                    if (y[ro + i] == 0) throw new IntegerDivisionByZero(b);
                    o[i] = Rounding.wrap(x[lo + i] / y[ro + i], dtype);
                }
            }
        }
    }

    /** The sum of {@code n} elements from {@code start}, wrapping as the integer dtype's adds do. */
    static long sum(long[] v, int start, int n) {
        long s = 0;
        for (int i = start; i < start + n; i++) s += v[i];
        return s;
    }

    /** The product, wrapping: int32's prod keeps the low 32 bits (PyTorch's and nvFuser's int product wraps). */
    static long prod(long[] v, int start, int n) {
        long p = 1;
        for (int i = start; i < start + n; i++) p *= v[i];
        return p;
    }

    static long max(long[] v, int start, int n) {
        long m = Long.MIN_VALUE;
        for (int i = start; i < start + n; i++) m = Math.max(m, v[i]);
        return m;
    }

    static long min(long[] v, int start, int n) {
        long m = Long.MAX_VALUE;
        for (int i = start; i < start + n; i++) m = Math.min(m, v[i]);
        return m;
    }
}
