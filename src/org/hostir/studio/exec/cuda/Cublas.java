package org.hostir.studio.exec.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.ir.DataType;

/**
 * cuBLAS (libcublas.so.13/12) through java.lang.foreign: cublasGemmEx, the fallback where cuBLASLt offers no
 * algorithm. fp32 operands use CUBLAS_COMPUTE_32F under the default math mode, which never uses TF32 (PyTorch's
 * allow_tf32=False); bf16 and half use tensor cores with fp32 accumulation, as at::matmul does; double computes
 * in double (CUBLAS_COMPUTE_64F, double scalars). fp8 operands reach here widened to the output's dtype
 * (Ops.converted: exact, fp8 values are representable there) where cuBLASLt's fp8 path does not take them.
 * cublasGemmGroupedBatchedEx (cuBLAS 12.5 and later; null before) runs grouped_mm's groups in one call
 * ({@link GroupedGemm}).
 */
@SuppressWarnings("restricted")
final class Cublas {
    static final int OP_N = 0, OP_T = 1;
    static final int COMPUTE_32F = 68, COMPUTE_64F = 70, GEMM_DEFAULT = -1;
    /** cublasStatus_t: the call is valid but this library or GPU does not run it. */
    static final int STATUS_NOT_SUPPORTED = 15;
    /** cudaDataType_t values. */
    static final int R_32F = 0, R_64F = 1, R_16F = 2, R_16BF = 14, R_8F_E4M3 = 28, R_8F_E5M2 = 29;

    private final MethodHandle create, setStream, gemmEx, setMathMode, setWorkspace;
    /** cublasGemmGroupedBatchedEx, or null where this cuBLAS predates it (12.5). */
    private final MethodHandle groupedGemm;
    private final MemorySegment one, zero, oneDouble, zeroDouble;

    Cublas() {
        NativeLib l = NativeLib.open("cuBLAS", "HIRSTUDIO_LIBCUBLAS", "libcublas.so.13", "libcublas.so.12", "libcublas.so");
        create = l.fn("cublasCreate_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        setStream = l.fn("cublasSetStream_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
        setMathMode = l.fn("cublasSetMathMode", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT));
        // (handle, void* workspace, size_t bytes)
        setWorkspace = l.fn("cublasSetWorkspace_v2", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        gemmEx = l.fn("cublasGemmEx", FunctionDescriptor.of(JAVA_INT,
                JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT,
                ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT,
                ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
        // (handle, transa[], transb[], m[], n[], k[], alpha[], A[] (device), Atype, lda[], B[] (device), Btype,
        //  ldb[], beta[], C[] (device), Ctype, ldc[], group_count, group_size[], computeType); the arrays without
        //  "device" on the host, alpha and beta there too under the default (host) pointer mode
        groupedGemm = l.optional("cublasGemmGroupedBatchedEx", FunctionDescriptor.of(JAVA_INT, JAVA_LONG,
                ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS,
                JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT));
        one = Arena.global().allocateFrom(JAVA_FLOAT, 1f);
        zero = Arena.global().allocateFrom(JAVA_FLOAT, 0f);
        oneDouble = Arena.global().allocateFrom(JAVA_DOUBLE, 1d);
        zeroDouble = Arena.global().allocateFrom(JAVA_DOUBLE, 0d);
    }

    static int cudaType(DataType t) {
        return switch (t) {
            case FLOAT -> R_32F;
            case HALF -> R_16F;
            case BFLOAT16 -> R_16BF;
            case DOUBLE -> R_64F;
            case INT64, INT32, BOOL, FLOAT8_E4M3FN, FLOAT8_E5M2 -> throw new ExecutionException("a matmul with "
                    + t.fileName() + " output is not supported on CUDA (float, bfloat16, half and double are)");
        };
    }

    /** The cudaDataType_t of a matmul operand: the output types, and the fp8 types cuBLASLt multiplies. */
    static int operandType(DataType t) {
        return switch (t) {
            case FLOAT8_E4M3FN -> R_8F_E4M3;
            case FLOAT8_E5M2 -> R_8F_E5M2;
            case FLOAT, HALF, BFLOAT16, DOUBLE, INT64, INT32, BOOL -> cudaType(t);
        };
    }

    /** The compute type of a product stored as {@code type}: double in double, everything else fp32. */
    static int computeType(int type) {
        return type == R_64F ? COMPUTE_64F : COMPUTE_32F;
    }

    private void check(String what, int rc) {
        if (rc != 0) throw new ExecutionException(what + " failed: cublasStatus " + rc);
    }

    /**
     * A handle bound to {@code stream} of the current context, in the default (no TF32) math mode, with
     * {@code bytes} of workspace at {@code workspace}: as PyTorch sets up the handle torch.matmul's cublasGemmEx
     * runs on (CublasHandlePool.cpp, setWorkspaceForHandle: 32 MiB on Hopper), so cuBLAS chooses with the same
     * workspace rather than its own default.
     */
    long handle(long stream, long workspace, long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment h = a.allocate(JAVA_LONG);
            check("cublasCreate", NativeLib.call("create", () -> (int) create.invokeExact(h)));
            long handle = h.get(JAVA_LONG, 0);
            check("cublasSetStream", NativeLib.call("stream", () -> (int) setStream.invokeExact(handle, stream)));
            check("cublasSetWorkspace", NativeLib.call("workspace",
                    () -> (int) setWorkspace.invokeExact(handle, workspace, bytes)));
            check("cublasSetMathMode", NativeLib.call("math", () -> (int) setMathMode.invokeExact(handle, 0)));
            return handle;
        }
    }

    /** Column-major {@code C = op(A) op(B) + beta C} with alpha 1 and beta 0 or 1. */
    void gemm(long handle, int opA, int opB, int m, int n, int k, long a, int lda, long b, int ldb, boolean accumulate,
              long c, int ldc, int type) {
        boolean f64 = type == R_64F;
        MemorySegment alpha = f64 ? oneDouble : one;
        MemorySegment beta = accumulate ? alpha : f64 ? zeroDouble : zero;
        check("cublasGemmEx", NativeLib.call("gemm", () -> (int) gemmEx.invokeExact(handle, opA, opB, m, n, k, alpha,
                a, type, lda, b, type, ldb, beta, c, type, ldc, computeType(type), GEMM_DEFAULT)));
    }

    /** Whether this cuBLAS has cublasGemmGroupedBatchedEx. */
    boolean hasGroupedGemm() { return groupedGemm != null; }

    /**
     * Column-major {@code C_i = A_i B_i} (no transposes, alpha 1, beta 0, fp32 scalars and compute) for each of
     * {@code sizes.length / 6} groups of one problem, {@code sizes} holding m, n, k, lda, ldb, ldc per group and
     * {@code pointers} the device address of the A, B and C pointer arrays, one after the other. Returns the
     * cublasStatus_t: {@link #STATUS_NOT_SUPPORTED} is the caller's to handle, any other failure is thrown.
     */
    int groupedGemm(long handle, int[] sizes, long pointers, int type) {
        int groups = sizes.length / 6;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment[] field = new MemorySegment[6];
            for (int f = 0; f < 6; f++) {
                field[f] = a.allocate(JAVA_INT, groups);
                for (int g = 0; g < groups; g++) field[f].setAtIndex(JAVA_INT, g, sizes[6 * g + f]);
            }
            MemorySegment ops = a.allocate(JAVA_INT, groups).fill((byte) 0); // OP_N
            MemorySegment ones = a.allocate(JAVA_INT, groups);
            MemorySegment alpha = a.allocate(JAVA_FLOAT, groups), beta = a.allocate(JAVA_FLOAT, groups).fill((byte) 0);
            for (int g = 0; g < groups; g++) {
                ones.setAtIndex(JAVA_INT, g, 1);
                alpha.setAtIndex(JAVA_FLOAT, g, 1f);
            }
            long bytes = 8L * groups;
            int rc = NativeLib.call("grouped gemm", () -> (int) groupedGemm.invokeExact(handle, ops, ops, field[0],
                    field[1], field[2], alpha, pointers, type, field[3], pointers + bytes, type, field[4], beta,
                    pointers + 2 * bytes, type, field[5], groups, ones, COMPUTE_32F));
            if (rc != STATUS_NOT_SUPPORTED) check("cublasGemmGroupedBatchedEx", rc);
            return rc;
        }
    }
}
