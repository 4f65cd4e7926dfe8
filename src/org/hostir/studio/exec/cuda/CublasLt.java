package org.hostir.studio.exec.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import org.hostir.studio.exec.ExecutionException;

/**
 * cuBLASLt (libcublasLt.so.13/12) through java.lang.foreign: plain, strided-batched and bias-epilogue matmuls
 * with fp32 accumulation ({@code CUBLAS_COMPUTE_32F}: no TF32 for fp32 operands; tensor cores for bf16, half and
 * fp8 operands, the last with unit scales, the scale pointers' default) or double in double.
 * A {@link Plan} holds the descriptors of one problem and the algorithm that cuBLASLt's heuristic picked for it
 * with a workspace of at most {@link #WORKSPACE} (the heuristic is told the plan's limit, and the launch passes the
 * same limit), made once and reused, so a launch is one native call (two with a bias, whose pointer is set on the
 * descriptor). Column-major, as cuBLAS: the caller maps row-major operands. {@link #config} reads back what the
 * heuristic chose (algorithm id, tile, stages, split-K, cluster), so a benchmark can say which kernel ran.
 */
@SuppressWarnings("restricted")
final class CublasLt {
    /**
     * Workspace allocated per stream, and the default limit told to the heuristic: what PyTorch gives its cuBLAS
     * handle on Hopper (CublasHandlePool.cpp, parseChosenWorkspaceSize: 4096 KiB x 8), which torch.matmul's default
     * path (cublasGemmEx) runs with.
     */
    static final long WORKSPACE = 32L << 20;
    static final int DESC_TRANSA = 3, DESC_TRANSB = 4, DESC_EPILOGUE = 7, DESC_BIAS_POINTER = 8;
    static final int EPILOGUE_DEFAULT = 1, EPILOGUE_BIAS = 4;
    static final int LAYOUT_BATCH_COUNT = 5, LAYOUT_STRIDED_BATCH_OFFSET = 6;
    static final int PREF_MAX_WORKSPACE_BYTES = 1;
    /** cublasLtMatmulHeuristicResult_t: algo (64 bytes), workspaceSize, state, wavesCount, reserved[4]. */
    static final int HEURISTIC_RESULT_BYTES = 96, ALGO_BYTES = 64;

    private final MethodHandle create, descCreate, descSetAttribute, layoutCreate, layoutSetAttribute, prefCreate,
            prefSetAttribute, heuristic, matmul, configGet, version;
    private final MemorySegment one, zero, oneDouble, zeroDouble;

    /**
     * One problem: transposes, sizes, leading dimensions, batch, the output's cudaDataType, epilogue, and the
     * operands' types (the output's, or fp8 ones).
     */
    record Key(int opA, int opB, long m, long n, long k, long lda, long ldb, long ldc, int batch, long strideA,
               long strideB, long strideC, int cudaType, boolean bias, int typeA, int typeB) {
        /** Operands of the output's type. */
        Key(int opA, int opB, long m, long n, long k, long lda, long ldb, long ldc, int batch, long strideA,
            long strideB, long strideC, int cudaType, boolean bias) {
            this(opA, opB, m, n, k, lda, ldb, ldc, batch, strideA, strideB, strideC, cudaType, bias, cudaType, cudaType);
        }
    }

    /**
     * The descriptors and chosen algorithm of one {@link Key} under a workspace {@code limit}; {@code workspace} is
     * what the algorithm needs of it, {@code waves} the heuristic's waves count.
     */
    record Plan(Key key, long desc, long layoutA, long layoutB, long layoutC, MemorySegment algo, long workspace,
                long limit, float waves) {}

    CublasLt() {
        NativeLib l = NativeLib.open("cuBLASLt", "HIRSTUDIO_LIBCUBLASLT", "libcublasLt.so.13", "libcublasLt.so.12",
                "libcublasLt.so");
        create = l.fn("cublasLtCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        // (cublasLtMatmulDesc_t*, cublasComputeType_t, cudaDataType_t scaleType)
        descCreate = l.fn("cublasLtMatmulDescCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        // (desc, attribute, const void* buf, size_t sizeInBytes)
        descSetAttribute = l.fn("cublasLtMatmulDescSetAttribute", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT,
                ADDRESS, JAVA_LONG));
        // (cublasLtMatrixLayout_t*, cudaDataType, uint64_t rows, uint64_t cols, int64_t ld)
        layoutCreate = l.fn("cublasLtMatrixLayoutCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG,
                JAVA_LONG, JAVA_LONG));
        layoutSetAttribute = l.fn("cublasLtMatrixLayoutSetAttribute", FunctionDescriptor.of(JAVA_INT, JAVA_LONG,
                JAVA_INT, ADDRESS, JAVA_LONG));
        prefCreate = l.fn("cublasLtMatmulPreferenceCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        prefSetAttribute = l.fn("cublasLtMatmulPreferenceSetAttribute", FunctionDescriptor.of(JAVA_INT, JAVA_LONG,
                JAVA_INT, ADDRESS, JAVA_LONG));
        // (handle, desc, Adesc, Bdesc, Cdesc, Ddesc, pref, int requested, results[], int* returned)
        heuristic = l.fn("cublasLtMatmulAlgoGetHeuristic", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG,
                JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS));
        // (handle, desc, alpha*, A, Adesc, B, Bdesc, beta*, C, Cdesc, D, Ddesc, algo*, workspace, wsSize, stream)
        matmul = l.fn("cublasLtMatmul", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG,
                JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS,
                JAVA_LONG, JAVA_LONG, JAVA_LONG));
        // (const cublasLtMatmulAlgo_t*, cublasLtMatmulAlgoConfigAttributes_t, void* buf, size_t size, size_t* written)
        configGet = l.fn("cublasLtMatmulAlgoConfigGetAttribute", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT,
                ADDRESS, JAVA_LONG, ADDRESS));
        version = l.fn("cublasLtGetVersion", FunctionDescriptor.of(JAVA_LONG));
        one = Arena.global().allocateFrom(JAVA_FLOAT, 1f);
        zero = Arena.global().allocateFrom(JAVA_FLOAT, 0f);
        oneDouble = Arena.global().allocateFrom(JAVA_DOUBLE, 1d);
        zeroDouble = Arena.global().allocateFrom(JAVA_DOUBLE, 0d);
    }

    private static void check(String what, int rc) {
        if (rc != 0) throw new ExecutionException(what + " failed: cublasStatus " + rc);
    }

    /** A cuBLASLt handle of the current context. */
    long handle() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment h = a.allocate(JAVA_LONG);
            check("cublasLtCreate", NativeLib.call("lt", () -> (int) create.invokeExact(h)));
            return h.get(JAVA_LONG, 0);
        }
    }

    /** cublasLtGetVersion(): major * 10000 + minor * 100 + patch. */
    long version() {
        try {
            return (long) version.invokeExact();
        } catch (Throwable t) {
            throw new ExecutionException("cublasLtGetVersion failed: " + t);
        }
    }

    /**
     * The plan of {@code key} with at most {@code limit} bytes of workspace: descriptors and the heuristic's best
     * algorithm (one result asked for and taken, as PyTorch's bgemm_internal_cublaslt does); null where it offers
     * none.
     */
    Plan plan(long handle, Key key, long limit) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(JAVA_LONG);
            boolean f64 = key.cudaType() == Cublas.R_64F;
            check("cublasLtMatmulDescCreate", NativeLib.call("desc", () -> (int) descCreate.invokeExact(p,
                    Cublas.computeType(key.cudaType()), f64 ? Cublas.R_64F : Cublas.R_32F /* the scalars' type */)));
            long desc = p.get(JAVA_LONG, 0);
            setDesc(desc, DESC_TRANSA, a.allocateFrom(JAVA_INT, key.opA()), 4);
            setDesc(desc, DESC_TRANSB, a.allocateFrom(JAVA_INT, key.opB()), 4);
            if (key.bias()) setDesc(desc, DESC_EPILOGUE, a.allocateFrom(JAVA_INT, EPILOGUE_BIAS), 4);
            boolean ta = key.opA() == Cublas.OP_T, tb = key.opB() == Cublas.OP_T;
            long la = layout(a, key.typeA(), ta ? key.k() : key.m(), ta ? key.m() : key.k(), key.lda(), key.batch(),
                    key.strideA());
            long lb = layout(a, key.typeB(), tb ? key.n() : key.k(), tb ? key.k() : key.n(), key.ldb(), key.batch(),
                    key.strideB());
            long lc = layout(a, key.cudaType(), key.m(), key.n(), key.ldc(), key.batch(), key.strideC());
            MemorySegment pp = a.allocate(JAVA_LONG);
            check("cublasLtMatmulPreferenceCreate", NativeLib.call("pref", () -> (int) prefCreate.invokeExact(pp)));
            long pref = pp.get(JAVA_LONG, 0);
            MemorySegment ws = a.allocateFrom(JAVA_LONG, limit);
            check("cublasLtMatmulPreferenceSetAttribute", NativeLib.call("pref",
                    () -> (int) prefSetAttribute.invokeExact(pref, PREF_MAX_WORKSPACE_BYTES, ws, 8L)));
            MemorySegment results = a.allocate(HEURISTIC_RESULT_BYTES, 8);
            MemorySegment count = a.allocate(JAVA_INT);
            int rc = NativeLib.call("heuristic", () -> (int) heuristic.invokeExact(handle, desc, la, lb, lc, lc, pref,
                    1, results, count));
            if (rc != 0 || count.get(JAVA_INT, 0) < 1) return null;
            MemorySegment algo = Arena.global().allocate(ALGO_BYTES, 8);
            algo.copyFrom(results.asSlice(0, ALGO_BYTES));
            return new Plan(key, desc, la, lb, lc, algo, results.get(JAVA_LONG, ALGO_BYTES), limit,
                    results.get(JAVA_FLOAT, ALGO_BYTES + 12));
        }
    }

    private void setDesc(long desc, int attribute, MemorySegment value, long bytes) {
        check("cublasLtMatmulDescSetAttribute " + attribute, NativeLib.call("attr",
                () -> (int) descSetAttribute.invokeExact(desc, attribute, value, bytes)));
    }

    private long layout(Arena a, int type, long rows, long cols, long ld, int batch, long stride) {
        MemorySegment p = a.allocate(JAVA_LONG);
        check("cublasLtMatrixLayoutCreate", NativeLib.call("layout",
                () -> (int) layoutCreate.invokeExact(p, type, rows, cols, ld)));
        long l = p.get(JAVA_LONG, 0);
        if (batch > 1) {
            MemorySegment count = a.allocateFrom(JAVA_INT, batch);
            MemorySegment offset = a.allocateFrom(JAVA_LONG, stride);
            check("cublasLtMatrixLayoutSetAttribute", NativeLib.call("layout",
                    () -> (int) layoutSetAttribute.invokeExact(l, LAYOUT_BATCH_COUNT, count, 4L)));
            check("cublasLtMatrixLayoutSetAttribute", NativeLib.call("layout",
                    () -> (int) layoutSetAttribute.invokeExact(l, LAYOUT_STRIDED_BATCH_OFFSET, offset, 8L)));
        }
        return l;
    }

    /** D = op(A) op(B) (+ bias broadcast over columns), on {@code stream} with its workspace. */
    void matmul(long handle, Plan plan, long a, long b, long d, long bias, MemorySegment biasSlot, long workspace,
                long stream) {
        if (plan.key().bias()) {
            biasSlot.set(JAVA_LONG, 0, bias);
            setDesc(plan.desc(), DESC_BIAS_POINTER, biasSlot, 8);
        }
        boolean f64 = plan.key().cudaType() == Cublas.R_64F;
        MemorySegment alpha = f64 ? oneDouble : one, beta = f64 ? zeroDouble : zero;
        check("cublasLtMatmul", NativeLib.call("ltmatmul", () -> (int) matmul.invokeExact(handle, plan.desc(), alpha,
                a, plan.layoutA(), b, plan.layoutB(), beta, d, plan.layoutC(), d, plan.layoutC(), plan.algo(),
                workspace, plan.limit(), stream)));
    }

    /** What the heuristic chose for {@code plan}, read back from its algorithm (cublasLtMatmulAlgoConfigGetAttribute). */
    AlgoConfig config(Plan plan) {
        int[] v = new int[AlgoConfig.ATTRIBUTES.length];
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(8, 8), written = a.allocate(JAVA_LONG);
            for (int i = 0; i < v.length; i++) {
                int attribute = i, bytes = AlgoConfig.ATTRIBUTES[i];
                buf.set(JAVA_LONG, 0, 0L);
                int rc = NativeLib.call("algo config", () -> (int) configGet.invokeExact(plan.algo(), attribute, buf,
                        (long) bytes, written));
                v[i] = rc != 0 ? -1 : bytes == 2 ? Short.toUnsignedInt(buf.get(JAVA_SHORT, 0)) : buf.get(JAVA_INT, 0);
            }
        }
        return new AlgoConfig(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], plan.workspace(), plan.limit(),
                plan.waves());
    }
}
