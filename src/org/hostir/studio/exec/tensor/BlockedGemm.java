package org.hostir.studio.exec.tensor;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;

/**
 * The Java GEMM for machines without a BLAS: C is cut into tiles of {@link #MC} rows by {@link #NC} columns that
 * run in parallel on the common fork-join pool, and each tile walks K in blocks of {@link #KC}, so the block of
 * B it reads (KC x NC floats, 256 KiB) stays in the core's L2 cache. Each product is a float32 product; the
 * tile's partial sums are kept in a double array and rounded to float once at the end. That is not for
 * accuracy (it errs less than float32 accumulation, which the tolerance allows for) but for speed: C2
 * vectorises {@code acc[j] += x * b[j]} only when it can tell the two arrays apart, which a double and a float
 * array are and two float arrays are not (measured: 1 to 2 GFLOP/s per core with a float C row, 8 to 9 with
 * the double one). The Vector API would need a flag to start the JVM, so it is not used.
 */
final class BlockedGemm implements Gemm {
    static final BlockedGemm INSTANCE = new BlockedGemm();
    static final int MC = 64, NC = 256, KC = 256;
    /** Below this many multiply-adds a GEMM runs on the caller's thread (forking costs more). */
    private static final long PARALLEL_WORK = 1L << 20;

    private BlockedGemm() {}

    @Override
    public void sgemm(int m, int n, int k, float[] a, int aOff, int lda, float[] b, int bOff, int ldb, float[] c,
                      int cOff, int ldc) {
        int rowTiles = (m + MC - 1) / MC;
        int colTiles = (n + NC - 1) / NC;
        IntStream tiles = IntStream.range(0, rowTiles * colTiles);
        if ((long) m * n * k >= PARALLEL_WORK) tiles = tiles.parallel();
        tiles.forEach(t -> {
            int i0 = t / colTiles * MC;
            int j0 = t % colTiles * NC;
            tile(i0, Math.min(m, i0 + MC), j0, Math.min(n, j0 + NC), k, a, aOff, lda, b, bOff, ldb, c, cOff, ldc);
        });
    }

    private static void tile(int i0, int i1, int j0, int j1, int k, float[] a, int aOff, int lda, float[] b,
                             int bOff, int ldb, float[] c, int cOff, int ldc) {
        int width = j1 - j0;
        int rows = i1 - i0;
        double[] acc = new double[rows * width];
        for (int k0 = 0; k0 < k; k0 += KC) {
            int k1 = Math.min(k, k0 + KC);
            for (int r = 0; r < rows; r++) {
                int aRow = aOff + (i0 + r) * lda;
                for (int kk = k0; kk < k1; kk++) {
                    float x = a[aRow + kk];
                    int bRow = bOff + kk * ldb + j0;
                    axpy(x, b, bRow, acc, r * width, width);
                }
            }
        }
        for (int r = 0; r < rows; r++) {
            int cRow = cOff + (i0 + r) * ldc + j0;
            for (int j = 0; j < width; j++) c[cRow + j] = (float) acc[r * width + j];
        }
    }

    /** acc[o + j] += x * b[bRow + j]: a double row and a float row cannot alias, so the JIT vectorises it. */
    private static void axpy(float x, float[] b, int bRow, double[] acc, int o, int width) {
        for (int j = 0; j < width; j++) acc[o + j] += x * b[bRow + j];
    }

    static void zero(int m, int n, float[] c, int cOff, int ldc) {
        for (int i = 0; i < m; i++) Arrays.fill(c, cOff + i * ldc, cOff + i * ldc + n, 0f);
    }

    @Override
    public String describe() {
        return "Java blocked GEMM, " + (ForkJoinPool.getCommonPoolParallelism() + 1) + " threads";
    }
}
