package org.hostir.studio.exec.tensor;

import java.util.stream.IntStream;

/**
 * The float64 GEMM of double (and int64) matmuls and linears: row-major {@code C[M, N] = A[M, K] B[K, N]}, every
 * product and sum in double, as PyTorch's float64 matmul computes. Rows of C run in parallel in tiles of
 * {@link #MC}; each row walks K in blocks of {@link #KC} so the rows of B it reads stay in cache. Float32 dtypes
 * never come here: they keep {@link Gemm#standard()} (OpenBLAS or {@link BlockedGemm}).
 */
final class DoubleGemm {
    static final int MC = 32, KC = 128;
    /** Below this many multiply-adds a GEMM runs on the caller's thread (forking costs more). */
    private static final long PARALLEL_WORK = 1L << 20;

    private DoubleGemm() {}

    /** {@code c[cOff + i*ldc + j] = sum_k a[aOff + i*lda + k] * b[bOff + k*ldb + j]}, overwriting C. */
    static void dgemm(int m, int n, int k, double[] a, int aOff, int lda, double[] b, int bOff, int ldb, double[] c,
                      int cOff, int ldc) {
        int rowTiles = (m + MC - 1) / MC;
        IntStream tiles = IntStream.range(0, rowTiles);
        if ((long) m * n * k >= PARALLEL_WORK) tiles = tiles.parallel();
        tiles.forEach(t -> {
            for (int i = t * MC; i < Math.min(m, (t + 1) * MC); i++) {
                row(n, k, a, aOff + i * lda, b, bOff, ldb, c, cOff + i * ldc);
            }
        });
    }

    /** One row of C, accumulated in a private array (which the JIT can tell apart from B) and then stored. */
    private static void row(int n, int k, double[] a, int aRow, double[] b, int bOff, int ldb, double[] c, int cRow) {
        double[] acc = new double[n];
        for (int k0 = 0; k0 < k; k0 += KC) {
            int k1 = Math.min(k, k0 + KC);
            for (int kk = k0; kk < k1; kk++) {
                double x = a[aRow + kk];
                int bRow = bOff + kk * ldb;
                for (int j = 0; j < n; j++) acc[j] += x * b[bRow + j];
            }
        }
        System.arraycopy(acc, 0, c, cRow, n);
    }
}
