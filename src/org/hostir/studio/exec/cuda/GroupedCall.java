package org.hostir.studio.exec.cuda;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import org.hostir.studio.ir.DataType;

/**
 * grouped_mm's per-group products as one {@code cublasGemmGroupedBatchedEx} call ({@link GroupedGemm} says when):
 * row-major {@code out_i[m, n] = a_i[m, k] b_i[k, n]} is column-major {@code C^T[n, m] = B^T[n, k] A^T[k, m]}, as
 * {@link Ops#matmul} maps it, each product a group of one problem.
 */
final class GroupedCall {
    /**
     * Every matrix at a 16-byte boundary: the pointers reach cuBLAS in device memory, where it cannot look before it
     * picks its kernels, and its tensor-core kernels load 16 bytes at a time; a view that starts elsewhere (a group
     * of N or K starting at an odd column) takes the per-group path, whose cublasGemmEx sees its pointers.
     */
    static final int ALIGN = 16;

    private GroupedCall() {}

    /**
     * Runs {@code products} ({a_i, b_i, out_i}) in one call on {@code s}; false, having run nothing, where the call
     * cannot take them (no such call in this cuBLAS, a dtype outside its table, a view it cannot describe or not at
     * {@link #ALIGN}, a size over an int, or cuBLAS's NOT_SUPPORTED): the caller then loops.
     */
    static boolean run(CudaDevice device, List<CudaBuffer[]> products, CudaStream s) {
        Cublas blas = device.backend.cublas();
        if (products.isEmpty() || !blas.hasGroupedGemm()) return false;
        DataType type = products.get(0)[2].dtype();
        if (!(type == DataType.FLOAT || type == DataType.BFLOAT16 || type == DataType.HALF)) return false;
        int groups = products.size();
        int[] sizes = new int[6 * groups];
        long[] pointers = new long[3 * groups];
        for (int g = 0; g < groups; g++) {
            CudaBuffer a = products.get(g)[0], b = products.get(g)[1], c = products.get(g)[2];
            if (a.dtype() != type || b.dtype() != type) return false;
            long lda = leading(a), ldb = leading(b), ldc = leading(c);
            long m = a.shape()[0], k = a.shape()[1], n = b.shape()[1];
            long[] v = {n, m, k, ldb, lda, ldc}; // the column-major problem's m, n, k, lda, ldb, ldc
            for (int f = 0; f < 6; f++) {
                if (v[f] <= 0 || v[f] > Integer.MAX_VALUE) return false;
                sizes[6 * g + f] = (int) v[f];
            }
            if (a.address() % ALIGN != 0 || b.address() % ALIGN != 0 || c.address() % ALIGN != 0) return false;
            pointers[g] = b.address();
            pointers[groups + g] = a.address();
            pointers[2 * groups + g] = c.address();
        }
        CudaBuffer table = (CudaBuffer) device.allocate(new long[] {pointers.length}, DataType.INT64);
        int rc;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocateFrom(JAVA_LONG, pointers);
            device.driver.copyHtoDAsync(table.address(), host, 8L * pointers.length, s.handle());
            rc = blas.groupedGemm(device.blas(s), sizes, table.address(), Cublas.cudaType(type));
        } finally {
            device.free(table, s); // stream-ordered: the call on s reads it first
        }
        if (rc != 0) return false;
        device.countGroupedGemm();
        return true;
    }

    /**
     * The row stride of a 2-D row-major view of unit column stride (its column-major leading dimension, at least
     * its row length), or -1 where the view is not of that form. A single row takes its length.
     */
    private static long leading(CudaBuffer x) {
        long rows = x.shape()[0], cols = x.shape()[1];
        if (cols > 1 && x.strides()[1] != 1) return -1;
        long ld = rows == 1 ? Math.max(1, cols) : x.strides()[0];
        return ld >= Math.max(1, cols) ? ld : -1;
    }
}
