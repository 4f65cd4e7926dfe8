package org.hostir.studio.exec.tensor;

import java.util.Optional;

/**
 * The one single-precision GEMM of the reference interpreter and the CPU backend: row-major
 * {@code C[M, N] = A[M, K] B[K, N]} on float arrays at offsets, with leading dimensions, products and sums in
 * float32 (bfloat16 and half operands are already rounded into their floats). The machine's OpenBLAS where the
 * dynamic loader finds it ({@link OpenBlas}), else the multithreaded cache-blocked {@link BlockedGemm}.
 * {@code HIRSTUDIO_LIBBLAS} names the library file, or {@code none} for the Java kernel.
 */
public sealed interface Gemm permits OpenBlas, BlockedGemm {
    /** {@code c[cOff + i*ldc + j] = sum_k a[aOff + i*lda + k] * b[bOff + k*ldb + j]}, overwriting C. */
    void sgemm(int m, int n, int k, float[] a, int aOff, int lda, float[] b, int bOff, int ldb, float[] c, int cOff,
               int ldc);

    /** What it is, for benchmark lines: {@code OpenBLAS (libopenblas.so.0)} or {@code Java blocked, 2 threads}. */
    String describe();

    /** The kernel every tensor op uses, chosen once. */
    static Gemm standard() { return Holder.STANDARD; }

    /** The machine's BLAS, if one is found (empty under {@code HIRSTUDIO_LIBBLAS=none}). */
    static Optional<Gemm> blas() { return Holder.BLAS; }

    /** The Java kernel, whatever BLAS the machine has (benchmarks and tests compare the two). */
    static Gemm java() { return BlockedGemm.INSTANCE; }

    /** Lazily initialised on first use, so that merely loading the class does not open a native library. */
    final class Holder {
        private static final Optional<Gemm> BLAS = OpenBlas.load(System.getenv("HIRSTUDIO_LIBBLAS"));
        private static final Gemm STANDARD = BLAS.orElse(BlockedGemm.INSTANCE);

        private Holder() {}
    }
}
