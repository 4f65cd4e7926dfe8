package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.hostir.studio.exec.cuda.KernelSource;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.UnaryOpType;
import org.junit.jupiter.api.Test;

/**
 * The CUDA kernels index fewer axes than the tensor has ({@code Kernels.collapsed}): size-1 axes dropped,
 * neighbours merged where every operand steps through them as one. Without a GPU: every linear index must reach
 * the same element of each operand as the uncollapsed indexing, decomposed the way the kernel's C does it (the
 * outermost axis without a division).
 */
class KernelAxesTest {
    @Test
    void aContiguousTensorIsOneAxis() {
        long[][] l = KernelSource.launchAxes(new long[] {2, 8192, 8192}, new long[] {8192L * 8192, 8192, 1},
                new long[] {8192L * 8192, 8192, 1}, null);
        assertArrayEquals(new long[] {2L * 8192 * 8192}, l[0]);
        assertArrayEquals(new long[] {1}, l[1]);
    }

    @Test
    void aBroadcastOrTransposedOperandKeepsItsAxes() {
        long[][] bcast = KernelSource.launchAxes(new long[] {4, 5}, new long[] {5, 1}, new long[] {0, 1}, null);
        assertArrayEquals(new long[] {4, 5}, bcast[0]);
        long[][] transposed = KernelSource.launchAxes(new long[] {4, 5}, new long[] {5, 1}, new long[] {1, 4}, null);
        assertArrayEquals(new long[] {4, 5}, transposed[0]);
        long[][] ones = KernelSource.launchAxes(new long[] {1, 4, 1, 5}, new long[] {20, 5, 5, 1},
                new long[] {99, 5, 7, 1}, null);
        assertArrayEquals(new long[] {20}, ones[0], "size-1 axes do not stop a merge");
    }

    @Test
    void everyElementIsReachedAsBefore() {
        Random random = new Random(21);
        for (int trial = 0; trial < 500; trial++) {
            int rank = 1 + random.nextInt(5);
            long[] shape = new long[rank];
            for (int i = 0; i < rank; i++) shape[i] = 1 + random.nextInt(4);
            long[] so = contiguous(shape);
            long[] sa = operand(shape, random);
            long[] sb = operand(shape, random);
            long[][] l = KernelSource.launchAxes(shape, so, sa, sb);
            long n = 1;
            for (long e : shape) n *= e;
            long m = 1;
            for (long e : l[0]) m *= e;
            assertEquals(n, m, "element count");
            for (long i = 0; i < n; i++) {
                for (int op = 0; op < 3; op++) {
                    long[] st = op == 0 ? so : op == 1 ? sa : sb;
                    assertEquals(offset(i, shape, st), offset(i, l[0], l[op + 1]), "trial " + trial + " index " + i);
                }
            }
        }
    }

    @Test
    void aKernelIsCompiledForItsLaunchsRankAndWidth() {
        long[] shape = {2, 8192, 8192};
        long[] st = {8192L * 8192, 8192, 1};
        String flat = kernel(KernelSource.unaryLaunch(UnaryOpType.NEG, DataType.BFLOAT16, shape, st, st));
        assertTrue(flat.contains("unsigned int i = base + u * step"), "2^27 elements index in 32 bits");
        assertFalse(flat.contains("%"), "a contiguous tensor is one axis: no division");
        assertTrue(flat.contains("ldv_bf16(a, e[u], xs)") && flat.contains("stv_bf16(out, e[u], v[u])"),
                "one contiguous run of bf16: grouped 16-byte loads and stores\n" + flat);
        String odd = kernel(KernelSource.unaryLaunch(UnaryOpType.NEG, DataType.BFLOAT16, new long[] {3, 5},
                new long[] {5, 1}, new long[] {5, 1}));
        assertFalse(odd.contains("ldv_"), "15 elements are no whole number of groups");
        String doubles = kernel(KernelSource.unaryLaunch(UnaryOpType.NEG, DataType.DOUBLE, shape, st, st));
        assertFalse(doubles.contains("ldv_"), "double keeps the scalar form");
        String transposed = kernel(KernelSource.unaryLaunch(UnaryOpType.NEG, DataType.FLOAT, new long[] {4, 5},
                new long[] {5, 1}, new long[] {1, 4}));
        assertFalse(transposed.contains("ldv_"), "a transposed operand keeps the scalar form");
        assertEquals(1, transposed.split("%", -1).length - 1, "two axes: one division, by a constant subscript");
        assertTrue(transposed.contains("r % (unsigned int)d.shape[1]"), transposed);
        long[] big = {3, 1L << 30};
        String wide = KernelSource.unaryLaunch(UnaryOpType.NEG, DataType.BFLOAT16, big, new long[] {1L << 30, 1},
                new long[] {1L << 30, 1});
        assertTrue(wide.contains("long long i = base + u * step"), "3 x 2^30 elements need 64-bit indices");
        String strided = KernelSource.unaryLaunch(UnaryOpType.NEG, DataType.FLOAT, new long[] {2, 1000},
                new long[] {1000, 1}, new long[] {1L << 31, 1});
        assertTrue(strided.contains("long long i = base + u * step"), "an operand offset past 2^31 needs 64 bits");
        assertFalse(KernelSource.unary(UnaryOpType.NEG, DataType.FLOAT, DataType.FLOAT).contains("d.shape[k]"),
                "no variable subscript into the descriptor");
    }

    /** The kernel function without the prelude (whose inline assembly names operands with %). */
    private static String kernel(String source) {
        return source.substring(source.indexOf("__global__"));
    }

    /** The kernel's decomposition: innermost axes by division, the outermost takes what is left. */
    private static long offset(long i, long[] shape, long[] strides) {
        if (shape.length == 0) return 0;
        long r = i, o = 0;
        for (int k = shape.length - 1; k > 0; k--) {
            o += r % shape[k] * strides[k];
            r /= shape[k];
        }
        return o + r * strides[0];
    }

    private static long[] contiguous(long[] shape) {
        long[] st = new long[shape.length];
        long s = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            st[i] = s;
            s *= shape[i];
        }
        return st;
    }

    /** Contiguous, permuted, broadcast (stride 0) or sliced strides, chosen per axis or for the whole tensor. */
    private static long[] operand(long[] shape, Random random) {
        long[] st = contiguous(shape);
        switch (random.nextInt(4)) {
            case 0 -> { }
            case 1 -> {
                for (int i = 0; i < st.length; i++) if (random.nextBoolean()) st[i] = 0;
            }
            case 2 -> {
                for (int i = 0; i < st.length; i++) st[i] *= 1 + random.nextInt(3);
            }
            default -> {
                for (int i = st.length - 1; i > 0; i--) {
                    int j = random.nextInt(i + 1);
                    long t = st[i];
                    st[i] = st[j];
                    st[j] = t;
                }
            }
        }
        return st;
    }
}
