package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.trace.EventKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * grouped_mm on GPU 0 at MoE sizes (tokens [m, k] by experts [g, k, n], seeded skewed group sizes, empty groups
 * among them), the one-call form ({@code -Dhirstudio.cuda.groupedGemm=grouped}) against the per-group loop: the
 * same elements within the rounding of two fp32-accumulated GEMMs, and each form's median wall time per op
 * (synchronized, the offsets' download included in both) printed. A measurement, so behind
 * {@code -Dhirstudio.groupedGemmForms=true}; skipped without it or without a GPU.
 */
class CudaGroupedMmFormsTest {
    private static final OneOpFusion OP = new OneOpFusion("grouped_forms.fusion");
    private static final String FORM = "hirstudio.cuda.groupedGemm";
    private static CudaBackend backend;

    @BeforeAll
    static void open() {
        if (Boolean.getBoolean("hirstudio.groupedGemmForms") && CudaBackend.available(1)) {
            backend = new CudaBackend(1, 60_000);
        }
    }

    @AfterAll
    static void close() {
        if (backend != null) backend.close();
    }

    @Test
    void groupedCallAgainstTheLoop() throws Exception {
        Assumptions.assumeTrue(backend != null, "skipped: -Dhirstudio.groupedGemmForms=true and a GPU time the forms");
        Assumptions.assumeTrue(backend.hasGroupedGemm(), "skipped: this cuBLAS has no cublasGemmGroupedBatchedEx");
        String before = System.getProperty(FORM);
        try {
            forms(DataType.BFLOAT16, 8, 8192, 1024, 1024);
            forms(DataType.FLOAT, 8, 8192, 1024, 1024);
            forms(DataType.BFLOAT16, 64, 8192, 512, 512);
        } finally {
            if (before == null) System.clearProperty(FORM);
            else System.setProperty(FORM, before);
        }
    }

    private static void forms(DataType e, int experts, long m, long k, long n) throws Exception {
        Random r = new Random(5);
        long[] ends = new long[experts];
        for (int i = 0; i < experts - 1; i++) ends[i] = (long) (m * Math.pow(r.nextDouble(), 2)); // skewed, some equal
        ends[experts - 1] = m;
        Arrays.sort(ends);
        ends[1] = ends[0]; // an empty group
        FusionOp op = op(e, experts, m, k, n);
        Device d = backend.device(0);
        List<Buffer> in = List.of(d.upload(random(r, e, m, k)), d.upload(random(r, e, experts, k, n)),
                d.upload(DenseTensor.ofLongs(DataType.INT32, new long[] {experts}, ends)));
        Buffer out = d.allocate(new long[] {m, n}, e);
        List<double[]> results = new ArrayList<>();
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "grouped_mm %s [%d, %d] x [%d, %d, %d]:",
                e.fileName(), m, k, experts, k, n));
        for (String form : List.of("grouped", "loop")) {
            System.setProperty(FORM, form);
            long calls = backend.groupedGemms();
            double[] ms = new double[20];
            for (int i = -3; i < ms.length; i++) {
                long t0 = System.nanoTime();
                d.compute(op, in, out, d.stream(0), OpInfo.of(0, 0, op.opName(), EventKind.KERNEL));
                d.synchronize();
                if (i >= 0) ms[i] = (System.nanoTime() - t0) / 1e6;
            }
            assertEquals(form.equals("grouped") ? 23 : 0, backend.groupedGemms() - calls, form + ": grouped calls");
            Arrays.sort(ms);
            line.append(String.format(Locale.ROOT, " %s median %.3f ms (min %.3f)", form, ms[ms.length / 2], ms[0]));
            results.add(d.download(out).toDoubleArray());
        }
        for (Buffer b : in) d.free(b, d.stream(0));
        d.free(out, d.stream(0));
        System.out.println(line);
        double unit = e == DataType.BFLOAT16 ? 0x1p-8 : 0x1p-24, scale = 0;
        for (double v : results.get(1)) scale = Math.max(scale, Math.abs(v));
        for (int i = 0; i < results.get(0).length; i++) {
            double g = results.get(0)[i], l = results.get(1)[i];
            assertTrue(Math.abs(g - l) <= 2 * unit * Math.abs(l) + k * 0x1p-23 * scale,
                    e.fileName() + " element " + i + ": grouped " + g + ", loop " + l);
        }
        assertTrue(scale > 0, "the products are not all zero");
    }

    private static FusionOp op(DataType e, int experts, long m, long k, long n) throws Exception {
        String t = e.fileName();
        String text = "{\"format\": \"hostir-fusion/1\", \"name\": \"forms\", \"symbols\": {},\n \"tensors\": ["
                + "{\"name\": \"x\", \"dtype\": \"" + t + "\", \"axes\": [" + m + ", " + k + "], \"mesh\": \"all\"},"
                + "{\"name\": \"w\", \"dtype\": \"" + t + "\", \"axes\": [" + experts + ", " + k + ", " + n
                + "], \"mesh\": \"all\"},"
                + "{\"name\": \"offs\", \"dtype\": \"int32\", \"axes\": [" + experts + "], \"mesh\": \"all\"},"
                + "{\"name\": \"y\", \"dtype\": \"" + t + "\", \"axes\": [" + m + ", " + n + ", {\"extent\": " + k
                + ", \"iter\": \"reduction\"}], \"mesh\": \"all\"}],\n \"ops\": [{\"op\": \"grouped_mm\", \"inputs\":"
                + " [\"x\", \"w\", \"offs\"], \"output\": \"y\"}],\n \"inputs\": [\"x\", \"w\", \"offs\"],"
                + " \"outputs\": [\"y\"]}";
        return OP.load(text, 1).fusion().ops().getFirst();
    }

    private static DenseTensor random(Random r, DataType dtype, long... shape) {
        int count = (int) Arrays.stream(shape).reduce(1, (a, b) -> a * b);
        return DenseTensor.ofDoubles(dtype, shape, r.doubles(count, -1, 1).toArray());
    }
}
