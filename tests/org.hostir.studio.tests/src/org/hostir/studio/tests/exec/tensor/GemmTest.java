package org.hostir.studio.tests.exec.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.hostir.studio.exec.tensor.Gemm;
import org.junit.jupiter.api.Test;

/**
 * The float32 GEMM kernels (the machine's OpenBLAS and the Java fallback) against an exact double-precision
 * product: every element within the float32 inner-product bound gamma_K * sum |a_ik b_kj| (plus the store), on
 * shapes that do not divide the Java kernel's tiles, at offsets and leading dimensions wider than the matrix.
 */
class GemmTest {
    private static final int[][] SHAPES = {{1, 1, 1}, {3, 5, 7}, {65, 257, 300}, {130, 70, 513}, {64, 256, 256},
            {1, 1000, 2}, {17, 1, 9}, {5, 3, 0}};

    private static List<Gemm> kernels() {
        List<Gemm> k = new ArrayList<>(List.of(Gemm.java()));
        Gemm.blas().ifPresent(k::add);
        return k;
    }

    @Test
    void kernelsAgreeWithTheExactProductWithinTheFloatBound() {
        Random r = new Random(7);
        for (Gemm g : kernels()) {
            for (int[] s : SHAPES) {
                int m = s[0], n = s[1], k = s[2];
                int lda = k + 3, ldb = n + 2, ldc = n + 5, aOff = 11, bOff = 4, cOff = 9;
                float[] a = random(r, aOff + m * lda), b = random(r, bOff + Math.max(k, 1) * ldb);
                float[] c = new float[cOff + m * ldc + 1];
                Arrays.fill(c, Float.NaN); // every element of C must be written, beyond C untouched
                g.sgemm(m, n, k, a, aOff, lda, b, bOff, ldb, c, cOff, ldc);
                double gamma = k * 0x1p-24 / (1 - k * 0x1p-24) + 0x1p-24;
                for (int i = 0; i < m; i++) {
                    for (int j = 0; j < n; j++) {
                        double exact = 0, bound = 0;
                        for (int kk = 0; kk < k; kk++) {
                            double t = (double) a[aOff + i * lda + kk] * b[bOff + kk * ldb + j];
                            exact += t;
                            bound += Math.abs(t);
                        }
                        float got = c[cOff + i * ldc + j];
                        String at = g.describe() + " " + m + "x" + n + "x" + k + " at [" + i + ", " + j + "]: " + got
                                + " vs " + exact;
                        assertTrue(Math.abs(got - exact) <= gamma * bound, at);
                    }
                    if (ldc > n && i < m - 1) assertTrue(Float.isNaN(c[cOff + i * ldc + n]), "wrote past the row");
                }
            }
        }
    }

    @Test
    void theStandardKernelIsTheBlasWhenOneIsFound() {
        assertEquals(Gemm.blas().orElse(Gemm.java()), Gemm.standard());
    }

    private static float[] random(Random r, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = r.nextFloat() * 2 - 1;
        return v;
    }
}
