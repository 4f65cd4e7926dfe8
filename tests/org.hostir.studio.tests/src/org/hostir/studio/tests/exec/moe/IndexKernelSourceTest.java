package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.cuda.KernelSource;
import org.hostir.studio.ir.DataType;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The CUDA C of issue 39's index kernels without a GPU: element moves copy raw words of the dtype's size (no
 * conversion, so every dtype arrives bit-exact), topk compares in double by the CPU backend's order, each kernel is
 * named once; and every one of them compiles with NVRTC where the machine has the library (the GPU machines do;
 * elsewhere HIRSTUDIO_LIBNVRTC names one), skipped otherwise, saying why.
 */
class IndexKernelSourceTest {
    private static final Map<String, String> KERNELS = KernelSource.indexKernels();

    @Test
    void movesCopyRawWordsAndTopkComparesInDouble() {
        // 2 gathers + 1 scatter + 4 topk forms per dtype
        assertEquals(7 * DataType.values().length, KERNELS.size());
        String bf16 = KERNELS.get("k_gather_bf16_i32");
        assertTrue(bf16.contains("((unsigned short*)out)[oo] = ((const unsigned short*)x)[ox + row * d.sdim];"), bf16);
        assertTrue(bf16.contains("(long long)((const int*)idx)[oi]"), bf16);
        assertFalse(bf16.contains("ld_bf16"), "a gather converts nothing");
        String scatter = KERNELS.get("k_scatter_f64_i64");
        assertTrue(scatter.contains("atomicAdd(mark + om, 1u) != 0u"), scatter);
        assertTrue(scatter.contains("((unsigned long long*)out)[oo + row * d.sdim] = ((const unsigned long long*)x)[ox];"),
                scatter);
        String smallest = KERNELS.get("k_topk_smallest_indices_f16");
        assertTrue(smallest.contains("int s = cmp(ld_f16w(x, ox + j * d.sdim), v);"), smallest);
        assertTrue(smallest.contains("if (s < 0 || (s == 0 && j < c)) place++;"), smallest);
        assertTrue(smallest.contains("((long long*)out)[oo + place * d.mdim] = c;"), smallest);
        assertTrue(KERNELS.get("k_topk_values_i64").contains("if (s > 0 || (s == 0 && j < c)) place++;"));
        for (var e : KERNELS.entrySet()) {
            assertTrue(e.getValue().contains("__global__ void " + e.getKey() + "("), e.getKey());
        }
    }

    @Test
    void everyIndexKernelCompilesWithNvrtc() {
        try {
            KernelSource.compile("probe", "extern \"C\" __global__ void probe() {}", "sm_90");
        } catch (ExecutionException e) {
            Assumptions.assumeTrue(false, "skipped: no NVRTC here (" + e.getMessage() + ")");
        }
        for (var e : KERNELS.entrySet()) {
            assertTrue(KernelSource.compile(e.getKey(), e.getValue(), "sm_90") > 0, e.getKey());
        }
    }
}
