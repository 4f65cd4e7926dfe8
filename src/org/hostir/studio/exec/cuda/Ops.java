package org.hostir.studio.exec.cuda;

import java.util.Arrays;
import java.util.List;

import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.RFactorProduct;
import org.hostir.studio.ir.TensorView;

/**
 * Fusion ops on one device, enqueued on a stream: copies and pointwise, broadcast and reduction ops as generated
 * kernels ({@link Kernels}), matmul and linear as cuBLAS GEMMs on row-major operands (a row-major product is
 * the column-major product of the transposes, so C = A B is issued as C^T = B^T A^T). Operands that are not
 * row-strided, or of another dtype than the output, are first copied into a contiguous temporary.
 */
final class Ops {
    private final CudaDevice device;

    private final IndexOps indexOps;

    Ops(CudaDevice device) {
        this.device = device;
        this.indexOps = new IndexOps(device, this);
    }

    static long flops(FusionOp op, List<CudaBuffer> in, CudaBuffer out) {
        return switch (op) {
            case FusionOp.Matmul m -> 2L * out.numel() * in.get(0).shape()[in.get(0).shape().length - 1];
            case FusionOp.Linear l -> 2L * out.numel() * in.get(0).shape()[in.get(0).shape().length - 1];
            case FusionOp.Binary b -> out.numel();
            case FusionOp.Unary u -> out.numel();
            case FusionOp.Where w -> out.numel();
            case FusionOp.Reduction r -> in.get(0).numel();
            case FusionOp.Set _, FusionOp.Broadcast _, FusionOp.Squeeze _, FusionOp.Expand _, FusionOp.Reshape _,
                 FusionOp.IndexSelect _, FusionOp.TakeAlongAxis _, FusionOp.TopK _, FusionOp.Scatter _ -> 0;
            // 2 m k n in each of createGroupedMmaOutput's cases: the groups split one of m, k or n
            case FusionOp.GroupedMm g -> 2L * in.get(0).numel() / (in.get(0).shape().length == 3 ? in.get(0).shape()[0] : 1)
                    * in.get(1).shape()[in.get(1).shape().length - 1];
        };
    }

    /** out = 0 (any dtype, any strides). */
    void zero(CudaBuffer out, CudaStream s) { map("0.0f", out, out, null, s); }

    void copy(CudaBuffer dst, CudaBuffer src, CudaStream s) {
        if (!Arrays.equals(dst.shape(), src.shape())) {
            if (dst.numel() != src.numel()) {
                throw new ExecutionException("copy of " + Arrays.toString(src.shape()) + " into "
                        + Arrays.toString(dst.shape()) + " on rank " + device.rank);
            }
            src = contiguous(src, s).reshape(dst.shape());
        }
        if (dst.dtype() == src.dtype() && dst.contiguous() && src.contiguous()) {
            device.driver.copyDtoDAsync(dst.address(), src.address(), dst.bytes(), s.handle());
            return;
        }
        map("x", dst, src, null, s);
    }

    /** {@code b} itself when contiguous, else a contiguous copy freed once the stream has used it. */
    private CudaBuffer contiguous(CudaBuffer b, CudaStream s) {
        if (b.contiguous()) return b;
        CudaBuffer t = (CudaBuffer) device.allocate(b.shape(), b.dtype());
        map("x", t, b, null, s);
        device.free(t, s); // stream-ordered: later work on s still sees it; reuse waits for s
        return t;
    }

    private CudaBuffer converted(CudaBuffer b, DataType type, CudaStream s) {
        if (b.dtype() == type) return b;
        CudaBuffer t = (CudaBuffer) device.allocate(b.shape(), type);
        map("x", t, b, null, s);
        device.free(t, s);
        return t;
    }

    /**
     * where(c, x, y): x and y by the MAP kernel's two operands ({@code (x)}/{@code (y)}), the condition first
     * converted to the output's dtype and multiplied in as a 0/1 mask: {@code out = c ? x : y} as
     * {@code y + c * (x - y)} would lose NaNs and infinities, so two passes select instead.
     */
    private void where(List<CudaBuffer> in, CudaBuffer out, CudaStream s) {
        CudaBuffer mask = converted(in.get(0), out.dtype(), s);
        map("y != 0.0f ? x : 0.0f", out, in.get(1), mask, s);
        CudaBuffer picked = (CudaBuffer) device.allocate(out.shape(), out.dtype());
        copy(picked, out, s);
        map("y == 0.0f ? x : 0.0f", out, in.get(2), mask, s);
        map("x + y", out, out, picked, s);
        device.free(picked, s);
    }

    /** out = expr(x, y) elementwise, x and y broadcast right-aligned to out's shape (size-1 axes stretch). */
    private void map(String expr, CudaBuffer out, CudaBuffer a, CudaBuffer b, CudaStream s) {
        Kernels.Key key = new Kernels.Key(Kernels.Kind.MAP, expr, out.dtype(), a.dtype(), b == null ? a.dtype() : b.dtype());
        device.kernels.launch(key, out.address(), a.address(), b == null ? a.address() : b.address(),
                new Kernels.Launch(out.shape(), out.strides(), aligned(a, out.shape()),
                        b == null ? null : aligned(b, out.shape()), null, null, 0), s.handle());
    }

    private static long[] aligned(CudaBuffer x, long[] shape) {
        long[] st = new long[shape.length];
        int shift = shape.length - x.shape().length;
        for (int i = 0; i < shape.length; i++) {
            int j = i - shift;
            st[i] = j < 0 || x.shape()[j] == 1 ? 0 : x.strides()[j];
        }
        return st;
    }

    /** out = acc (op) x elementwise, same shapes: a step of a copy-engine collective (sum or product). */
    void combine(ReductionOpType op, CudaBuffer out, CudaBuffer acc, CudaBuffer x, CudaStream s) {
        String expr = switch (op) {
            case SUM -> "x + y";
            case PROD -> "x * y";
            case MAX, MIN -> throw new ExecutionException(op + " is posted through NCCL");
        };
        map(expr, out, acc, x, s);
    }

    /** out = the identity of {@code op}, the value its reduction kernels start from. */
    void fillIdentity(CudaBuffer out, ReductionOpType op, CudaStream s) {
        map(KernelCode.identity(KernelCode.reduction(op)), out, out, null, s);
    }

    void fill(CudaBuffer out, long seed, CudaStream s) {
        Kernels.Key key = new Kernels.Key(Kernels.Kind.FILL, "", out.dtype(), out.dtype(), out.dtype());
        device.kernels.launch(key, out.address(), out.address(), out.address(),
                new Kernels.Launch(out.shape(), out.strides(), null, null, null, null, seed), s.handle());
    }

    void compute(FusionOp op, List<CudaBuffer> in, CudaBuffer out, CudaStream s) {
        switch (op) {
            case FusionOp.Set set -> copy(out, set.isPermute()
                    ? in.get(0).permute(set.permutation().stream().mapToInt(Integer::intValue).toArray()) : in.get(0), s);
            case FusionOp.Unary u -> map(PointwiseExpressions.unary(u.op(), KernelCode.wide(out.dtype(),
                    in.get(0).dtype())), out, in.get(0), null, s);
            case FusionOp.Binary b -> map("x " + b.op().symbol() + " y", out, in.get(0), in.get(1), s);
            case FusionOp.Broadcast b -> copy(out, contiguous(in.get(0), s).reshape(out.shape()), s);
            // squeeze drops size-1 axes: the same elements in order, like broadcast
            case FusionOp.Squeeze q -> copy(out, contiguous(in.get(0), s).reshape(out.shape()), s);
            case FusionOp.Reshape r -> copy(out, contiguous(in.get(0), s).reshape(out.shape()), s);
            // a size-1 axis broadcasts (stride 0) to the output's extent in the MAP kernel
            case FusionOp.Expand e -> map("x", out, in.get(0), null, s);
            case FusionOp.Where w -> where(in, out, s);
            case FusionOp.Reduction r -> reduce(r, in.get(0), out, s);
            case FusionOp.Matmul m -> matmul(in.get(0), in.get(1), withoutRFactorAxis(m, out), s);
            case FusionOp.Linear l -> linear(in.get(0), in.get(1), l.bias() == null ? null : in.get(2),
                    withoutRFactorAxis(l, out), s);
            case FusionOp.IndexSelect x -> indexOps.indexSelect(x, in.get(0), in.get(1), out, s);
            case FusionOp.TakeAlongAxis x -> indexOps.takeAlongAxis(x, in.get(0), in.get(1), out, s);
            case FusionOp.TopK x -> indexOps.topk(x, in.get(0), out, s);
            case FusionOp.Scatter x -> indexOps.scatter(x, in.get(0), in.get(1), in.get(2), out, s);
            case FusionOp.GroupedMm x -> GroupedGemm.compute(this, device, x, in, withoutRFactorAxis(x, out), s);
        }
    }

    /**
     * The partial product of an rFactor'd matmul or linear, written through a view without its size-1 device axis
     * as nvFuser's HostIrEvaluator squeezes it (csrc/host_ir/evaluator.cpp, handle(LinearOp*)).
     */
    private static CudaBuffer withoutRFactorAxis(FusionOp op, CudaBuffer out) {
        int rf = RFactorProduct.runtimePosition(op);
        return rf < 0 ? out : out.select(rf, 0);
    }

    private void reduce(FusionOp.Reduction r, CudaBuffer x, CudaBuffer out, CudaStream s) {
        TensorView tv = r.input();
        boolean[] reduced = new boolean[x.shape().length];
        for (int a : r.axes()) {
            int p = 0;
            for (int i = 0; i < a; i++) if (!tv.axis(i).isReduction()) p++;
            reduced[p] = true;
        }
        int kept = 0;
        for (boolean b : reduced) if (!b) kept++;
        long[] sa = new long[kept];
        long[] rshape = new long[reduced.length - kept];
        long[] rsa = new long[reduced.length - kept];
        int k = 0, q = 0;
        for (int i = 0; i < reduced.length; i++) {
            if (reduced[i]) {
                rshape[q] = x.shape()[i];
                rsa[q++] = x.strides()[i];
            } else {
                sa[k++] = x.strides()[i];
            }
        }
        Kernels.Kind kind = KernelCode.reduction(r.op());
        long[][] o = keptOutput(out, reduced, kept);
        device.kernels.launch(new Kernels.Key(kind, "", out.dtype(), x.dtype(), x.dtype()), out.address(),
                x.address(), x.address(), new Kernels.Launch(o[0], o[1], sa, null, rshape, rsa, 0), s.handle());
    }

    /**
     * The output's shape and strides over the kept axes. Partial sums (lower.SplitReduction) keep each reduced axis
     * as an axis of size 1, so their output has the input's rank: those axes are left out of the kernel's indexing.
     */
    private static long[][] keptOutput(CudaBuffer out, boolean[] reduced, int kept) {
        if (out.shape().length == kept) return new long[][] {out.shape(), out.strides()};
        long[] shape = new long[kept], strides = new long[kept];
        int k = 0;
        for (int i = 0; i < reduced.length; i++) {
            if (!reduced[i]) {
                shape[k] = out.shape()[i];
                strides[k++] = out.strides()[i];
            }
        }
        return new long[][] {shape, strides};
    }

    /** Rows of a [.., R, C] view with unit column stride that fold into one [rows, C] matrix: its row stride. */
    private static long foldedRowStride(CudaBuffer b) {
        int n = b.shape().length;
        if (n < 2 || b.strides()[n - 1] != 1 && b.shape()[n - 1] != 1) return -1;
        long ld = b.shape()[n - 1] == 1 && n >= 2 ? Math.max(b.strides()[n - 2], 1) : b.strides()[n - 2];
        for (int i = n - 3; i >= 0; i--) {
            if (b.shape()[i] != 1 && b.strides()[i] != b.strides()[i + 1] * b.shape()[i + 1]) return -1;
        }
        return Math.max(ld, b.shape()[n - 1]);
    }

    private static long rows(CudaBuffer b) {
        long r = 1;
        for (int i = 0; i < b.shape().length - 1; i++) r *= b.shape()[i];
        return r;
    }

    private static CudaBuffer unsqueeze(CudaBuffer b, int axis) {
        long[] shape = new long[b.shape().length + 1];
        long[] st = new long[shape.length];
        for (int i = 0, j = 0; i < shape.length; i++) {
            if (i == axis) {
                shape[i] = 1;
                st[i] = 0;
            } else {
                shape[i] = b.shape()[j];
                st[i] = b.strides()[j++];
            }
        }
        return new CudaBuffer(b.device(), b.base(), b.offset(), shape, st, b.dtype(), null);
    }

    void matmul(CudaBuffer a, CudaBuffer b, CudaBuffer out, CudaStream s) {
        CudaBuffer b2 = b;
        while (b2.shape().length > 2 && b2.shape()[0] == 1) b2 = b2.select(0, 0); // a sharded axis of a rank's slice
        if (fp8Operands(a, b, out) && b2.shape().length == 2 && a.shape().length >= 2) {
            // cuBLASLt's fp8 kernels take the first operand transposed: b as [n, k] rows
            CudaBuffer bt = contiguous(b2.permute(new int[] {1, 0}), s);
            if (fp8Gemm(bt, a, out, s)) return; // bt is freed stream-ordered by contiguous()
        }
        a = converted(a, out.dtype(), s);
        b = converted(b, out.dtype(), s);
        if (a.shape().length == 1) {
            a = unsqueeze(a, 0);
            out = unsqueeze(out, out.shape().length - (b.shape().length == 1 ? 0 : 1));
        }
        if (b.shape().length == 1) {
            b = unsqueeze(b, 1);
            out = unsqueeze(out, out.shape().length);
        }
        int ra = a.shape().length, rb = b.shape().length, ro = out.shape().length;
        int k = (int) a.shape()[ra - 1];
        int n = (int) b.shape()[rb - 1];
        CudaBuffer target = foldedRowStride(out) > 0 ? out : (CudaBuffer) device.allocate(out.shape(), out.dtype());
        if (rb == 2 && foldedRowStride(a) > 0) {
            CudaBuffer bc = foldedRowStride(b) > 0 ? b : contiguous(b, s);
            gemm(a, (int) rows(a), bc, target, (int) rows(target), k, n, s);
        } else {
            // batched: loop over the output's batch index, operands broadcast right-aligned
            long[] batch = Arrays.copyOf(out.shape(), ro - 2);
            long count = 1;
            for (long x : batch) count *= x;
            CudaBuffer ac = contiguous(a, s), bc = contiguous(b, s);
            if (batched(ac, bc, target, batch, count, k, n, s)) count = 0;
            for (long i = 0; i < count; i++) {
                long[] idx = new long[batch.length];
                long r = i;
                for (int d = batch.length - 1; d >= 0; d--) {
                    idx[d] = r % batch[d];
                    r /= batch[d];
                }
                CudaBuffer ai = slice(ac, idx), bi = slice(bc, idx), oi = slice(target, idx);
                gemm(ai, (int) ai.shape()[0], bi, oi, (int) oi.shape()[0], k, n, s);
            }
        }
        if (target != out) {
            copy(out, target, s);
            device.free(target, s);
        }
    }

    /** The 2-D matrix at batch index {@code idx} (right-aligned; size-1 batch axes broadcast). */
    private static CudaBuffer slice(CudaBuffer b, long[] idx) {
        CudaBuffer r = b;
        int batchAxes = b.shape().length - 2;
        for (int d = batchAxes - 1; d >= 0; d--) {
            int j = idx.length - batchAxes + d;
            long i = j < 0 || b.shape()[d] == 1 ? 0 : idx[j];
            r = r.select(d, i);
        }
        return r;
    }

    /** Row-major out[m, n] = a[m, k] b[k, n]; operands and out row-strided with unit column stride. */
    private void gemm(CudaBuffer a, int m, CudaBuffer b, CudaBuffer out, int mOut, int k, int n, CudaStream s) {
        if (m != mOut) throw new ExecutionException("matmul rows differ: " + m + " vs " + mOut);
        int lda = (int) foldedRowStride(a), ldb = (int) foldedRowStride(b), ldc = (int) foldedRowStride(out);
        int type = Cublas.cudaType(out.dtype());
        if (ltAligned(a, b, out) && device.lt(s, gemmKey(a, b, out, m, k, n), b.address(), a.address(),
                out.address(), 0)) {
            return;
        }
        device.backend.cublas().gemm(device.blas(s), Cublas.OP_N, Cublas.OP_N, n, m, k, b.address(), ldb,
                a.address(), lda, false, out.address(), ldc, type);
    }

    /** The cuBLASLt problem of row-major out[m, n] = a[m, k] b[k, n]: column-major C^T[n, m] = B^T[n, k] A^T[k, m]. */
    private static CublasLt.Key gemmKey(CudaBuffer a, CudaBuffer b, CudaBuffer out, int m, int k, int n) {
        return new CublasLt.Key(Cublas.OP_N, Cublas.OP_N, n, m, k, foldedRowStride(b), foldedRowStride(a),
                foldedRowStride(out), 1, 0, 0, 0, Cublas.cudaType(out.dtype()), false);
    }

    /**
     * Which GEMM {@link #matmul} runs for a plain 2-D {@code out = a b} of the output's dtype: cuBLASLt's choice
     * (its {@link AlgoConfig}), or null where it goes to cublasGemmEx (cuBLASLt switched off, misaligned operands,
     * or no algorithm offered), whose choice cuBLAS does not expose.
     */
    AlgoConfig gemmAlgorithm(CudaBuffer a, CudaBuffer b, CudaBuffer out) {
        if (a.shape().length != 2 || b.shape().length != 2 || !ltAligned(a, b, out)) return null;
        CublasLt.Plan plan = device.plan(gemmKey(a, b, out, (int) a.shape()[0], (int) a.shape()[1],
                (int) b.shape()[1]));
        return plan == null ? null : device.backend.cublasLt().config(plan);
    }

    /**
     * One strided-batched cuBLASLt matmul for out[batch.., m, n] = a[batch.., m, k] b[batch.., k, n] when every
     * operand is contiguous and either has the output's batch axes or none (broadcast, batch stride 0); false
     * where that does not hold or cuBLASLt declines, and the caller loops over the batch.
     */
    private boolean batched(CudaBuffer a, CudaBuffer b, CudaBuffer out, long[] batch, long count, int k, int n,
                            CudaStream s) {
        if (count > Integer.MAX_VALUE || !out.contiguous() || !ltAligned(a, b, out)) return false;
        long sa = batchStride(a, batch), sb = batchStride(b, batch);
        if (sa < 0 || sb < 0) return false;
        long m = out.shape()[out.shape().length - 2];
        return device.lt(s, new CublasLt.Key(Cublas.OP_N, Cublas.OP_N, n, m, k, n, k, n, (int) count, sb, sa, m * n,
                Cublas.cudaType(out.dtype()), false), b.address(), a.address(), out.address(), 0);
    }

    /** Elements between consecutive matrices of a contiguous operand over {@code batch}: 0 when broadcast, -1 if neither. */
    private static long batchStride(CudaBuffer x, long[] batch) {
        if (!x.contiguous()) return -1;
        int r = x.shape().length;
        long matrix = x.shape()[r - 1] * x.shape()[r - 2];
        long[] own = Arrays.copyOf(x.shape(), r - 2);
        boolean ones = Arrays.stream(own).allMatch(v -> v == 1);
        if (ones) return 0;
        if (own.length != batch.length) {
            // right-aligned: leading size-1 axes of the output's batch are fine
            long[] aligned = new long[batch.length];
            Arrays.fill(aligned, 1);
            if (own.length > batch.length) return -1;
            System.arraycopy(own, 0, aligned, batch.length - own.length, own.length);
            own = aligned;
        }
        return Arrays.equals(own, batch) ? matrix : -1;
    }

    private void linear(CudaBuffer x, CudaBuffer w, CudaBuffer bias, CudaBuffer out, CudaStream s) {
        if (fp8Operands(x, w, out) && w.shape().length == 2 && bias == null && fp8Gemm(w, x, out, s)) return;
        x = converted(x, out.dtype(), s);
        w = converted(w, out.dtype(), s);
        if (w.shape().length != 2) throw new ExecutionException("linear with a " + w.shape().length
                + "-D weight is not supported on CUDA");
        if (foldedRowStride(x) < 0) x = contiguous(x, s);
        if (foldedRowStride(w) < 0) w = contiguous(w, s);
        CudaBuffer target = foldedRowStride(out) > 0 ? out : (CudaBuffer) device.allocate(out.shape(), out.dtype());
        int k = (int) x.shape()[x.shape().length - 1];
        int n = (int) w.shape()[0];
        int m = (int) rows(x);
        int type = Cublas.cudaType(out.dtype());
        int ldw = (int) foldedRowStride(w), ldx = (int) foldedRowStride(x), ldt = (int) foldedRowStride(target);
        // column-major T^T[n, m] = W[n, k] X^T[k, m] (+ bias[n] per column: cuBLASLt's bias epilogue)
        if (bias != null) bias = converted(bias, out.dtype(), s);
        boolean epilogue = bias != null && bias.shape().length == 1 && bias.contiguous() && bias.numel() == n
                && bias.address() % 16 == 0; // the bias pointer is outside the alignment preferences: 16 bytes
        if ((bias == null || epilogue) && ltAligned(w, x, target) && device.lt(s, new CublasLt.Key(Cublas.OP_T,
                Cublas.OP_N, n, m, k, ldw, ldx, ldt, 1, 0, 0, 0, type, epilogue), w.address(), x.address(),
                target.address(), epilogue ? bias.address() : 0)) {
            // done by cuBLASLt
        } else {
            if (bias != null) map("x", target, bias, null, s); // the bias broadcast over rows, then C += X W^T
            device.backend.cublas().gemm(device.blas(s), Cublas.OP_T, Cublas.OP_N, n, m, k, w.address(), ldw,
                    x.address(), ldx, bias != null, target.address(), ldt, type);
        }
        if (target != out) {
            copy(out, target, s);
            device.free(target, s);
        }
    }

    /**
     * Every matrix at a 256-byte boundary: cuBLASLt's heuristic assumes that alignment unless told otherwise
     * (CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_*_BYTES, default 256), and a kernel it picks may fault on a view that
     * starts elsewhere (a group of grouped_mm, a narrowed chunk); those go to cublasGemmEx, which takes any.
     */
    private static boolean ltAligned(CudaBuffer... matrices) {
        for (CudaBuffer m : matrices) if (m.address() % 256 != 0) return false;
        return true;
    }

    /** Both operands fp8, not both e5m2, the output float, bfloat16 or half: what cuBLASLt's fp8 GEMM multiplies. */
    private static boolean fp8Operands(CudaBuffer a, CudaBuffer b, CudaBuffer out) {
        return a.dtype().isFloat8() && b.dtype().isFloat8()
                && !(a.dtype() == DataType.FLOAT8_E5M2 && b.dtype() == DataType.FLOAT8_E5M2)
                && (out.dtype() == DataType.FLOAT || out.dtype() == DataType.BFLOAT16 || out.dtype() == DataType.HALF);
    }

    /**
     * out[.., m, n] = x[.., m, k] w[n, k]^T by cuBLASLt's fp8 path: column-major out^T = W x^T, the "TN" form
     * Hopper's fp8 kernels need, fp32 accumulation, unit scales. False where its rules do not hold (sizes, leading
     * dimensions and addresses multiples of 16, rows foldable) or it offers no algorithm; the caller then widens
     * the operands (exact) and multiplies on the bf16/half/fp32 path. A linear's bias also takes the widened path:
     * cuBLASLt's fp8 bias epilogue has its own bias-type rules, which no GPU test here has covered.
     */
    private boolean fp8Gemm(CudaBuffer w, CudaBuffer x, CudaBuffer out, CudaStream s) {
        long ldw = foldedRowStride(w), ldx = foldedRowStride(x), ldo = foldedRowStride(out);
        long k = w.shape()[1], n = w.shape()[0], m = rows(x);
        if (x.shape()[x.shape().length - 1] != k || out.shape()[out.shape().length - 1] != n) return false;
        for (long v : new long[] {ldw, ldx, ldo, k, n, m}) if (v <= 0 || v % 16 != 0) return false;
        for (long address : new long[] {w.address(), x.address(), out.address()}) if (address % 16 != 0) return false;
        CublasLt.Key key = new CublasLt.Key(Cublas.OP_T, Cublas.OP_N, n, m, k, ldw, ldx, ldo, 1, 0, 0, 0,
                Cublas.cudaType(out.dtype()), false, Cublas.operandType(w.dtype()), Cublas.operandType(x.dtype()));
        boolean done = device.lt(s, key, w.address(), x.address(), out.address(), 0);
        if (done) device.countFp8Gemm();
        return done;
    }
}
