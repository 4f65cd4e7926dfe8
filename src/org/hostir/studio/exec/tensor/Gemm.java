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
    static Gemm standard() {
        if (Holder.PROBLEM != null) throw new IllegalStateException(Holder.PROBLEM);
        return Holder.STANDARD;
    }

    /** Why there is no standard kernel: a {@code HIRSTUDIO_LIBBLAS} that names no loadable BLAS (a run refuses it). */
    static Optional<String> problem() { return Optional.ofNullable(Holder.PROBLEM); }

    /** The machine's BLAS, if one is found (empty under {@code HIRSTUDIO_LIBBLAS=none}). */
    static Optional<Gemm> blas() { return Holder.BLAS; }

    /** The Java kernel, whatever BLAS the machine has (benchmarks and tests compare the two). */
    static Gemm java() { return BlockedGemm.INSTANCE; }

    /** Lazily initialised on first use, so that merely loading the class does not open a native library. */
    final class Holder {
        private static final String VARIABLE = "HIRSTUDIO_LIBBLAS";
        private static final Choice CHOICE = Choice.of(System.getenv(VARIABLE));
        private static final Optional<Gemm> BLAS = CHOICE.blas();
        private static final String PROBLEM = CHOICE.problem();
        private static final Gemm STANDARD = BLAS.orElse(BlockedGemm.INSTANCE);

        private Holder() {}

        /** The BLAS found, or why {@code HIRSTUDIO_LIBBLAS} names none (null when it is fine). */
        private record Choice(Optional<Gemm> blas, String problem) {
            static Choice of(String override) {
                try {
                    Optional<Gemm> g = OpenBlas.load(override);
                    boolean asked = override != null && !override.isBlank() && !override.equals("none");
                    return new Choice(g, g.isEmpty() && asked ? VARIABLE + "=" + override
                            + ": the library has no cblas_sgemm (name another, or none for the Java kernel)" : null);
                } catch (IllegalStateException e) {
                    return new Choice(Optional.empty(), e.getMessage()
                            + " (name the file of a BLAS with cblas_sgemm, or none for the Java kernel)");
                }
            }
        }
    }
}
