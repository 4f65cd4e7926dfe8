package org.hostir.studio.tests.exec.moe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.OpInfo;
import org.hostir.studio.exec.cuda.CudaBackend;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.OpKernels;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.trace.ChromeTraceWriter;
import org.hostir.studio.trace.EventKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 39's CUDA kernels against the CPU backend's (the definition: exec/tensor's ShapeKernels, ScatterKernel,
 * TopKKernel, GroupedMmKernel) on random inputs, one op at a time on GPU 0: index_select and take_along_axis with
 * repeated indices, scatter, topk with ties, NaN and -0.0 for k = 1 .. extent, largest and smallest, grouped_mm's
 * three forms with empty groups; the element moves and topk also with their first input a transposed (strided) view.
 * Element moves and topk must match bit for bit; grouped_mm within the rounding of
 * an fp32-accumulated GEMM. Out-of-range indices and scatter's repeated targets fail as on the CPU. Without a CUDA
 * device every test is skipped, saying so.
 */
class CudaMoeKernelsTest {
    private static final OneOpFusion OP = new OneOpFusion("cuda_moe.fusion");
    /** Every dtype: the element moves copy words of the dtype's size, whatever it holds. */
    private static final List<DataType> ELEMENTS = List.of(DataType.values());
    private static CudaBackend backend;

    @BeforeAll
    static void open() {
        if (CudaBackend.available(1)) backend = new CudaBackend(1, 30_000);
    }

    @AfterAll
    static void close() {
        if (backend != null) backend.close();
    }

    private static void assumeGpu() {
        Assumptions.assumeTrue(backend != null, CudaBackend.localDeviceCount() == 0
                ? "skipped: no CUDA device (needs 1 GPU)" : "skipped: the CUDA backend did not open");
    }

    /** A fusion of one op over tensors {@code {name, dtype, axes}} (the last is the output). */
    private static FusionOp op(String op, String attrs, String[]... tensors) throws Exception {
        StringBuilder t = new StringBuilder();
        List<String> inputs = new ArrayList<>();
        for (int i = 0; i < tensors.length; i++) {
            t.append(i == 0 ? "" : ",\n").append("{\"name\": \"").append(tensors[i][0]).append("\", \"dtype\": \"")
                    .append(tensors[i][1]).append("\", \"axes\": ").append(tensors[i][2])
                    .append(", \"mesh\": \"all\"}");
            if (i < tensors.length - 1) inputs.add("\"" + tensors[i][0] + "\"");
        }
        String out = tensors[tensors.length - 1][0];
        String text = "{\"format\": \"hostir-fusion/1\", \"name\": \"k\", \"symbols\": {},\n \"tensors\": [" + t
                + "],\n \"ops\": [{\"op\": \"" + op + "\", \"inputs\": [" + String.join(", ", inputs)
                + "], \"output\": \"" + out + "\"" + attrs + "}],\n \"inputs\": [" + String.join(", ", inputs)
                + "], \"outputs\": [\"" + out + "\"]}";
        return OP.load(text, 1).fusion().ops().getFirst();
    }

    private static String[] tv(String name, DataType dtype, long... shape) {
        return new String[] {name, dtype.fileName(), Arrays.toString(shape)};
    }

    /** grouped_mm's output: {@code shape} then the contracted axis of extent {@code k}, a reduction axis. */
    private static String[] contracted(DataType dtype, long k, long... shape) {
        String axes = Arrays.toString(shape);
        return new String[] {"y", dtype.fileName(), axes.substring(0, axes.length() - 1) + ", {\"extent\": " + k
                + ", \"iter\": \"reduction\"}]"};
    }

    /** The op on GPU 0, its output downloaded. */
    private static DenseTensor onGpu(FusionOp op, List<DenseTensor> inputs, long[] outShape) {
        return onGpu(op, inputs, outShape, false);
    }

    /**
     * The op on GPU 0; where {@code strided}, its first (2-D) input is a transposed view on the device (uploaded as
     * its transpose, then permuted back): the same values through other strides.
     */
    private static DenseTensor onGpu(FusionOp op, List<DenseTensor> inputs, long[] outShape, boolean strided) {
        Device d = backend.device(0);
        List<Buffer> in = new ArrayList<>(inputs.stream().map(d::upload).toList());
        Buffer transposed = null;
        if (strided) {
            transposed = d.upload(inputs.get(0).permute(1, 0).contiguous());
            d.free(in.get(0), d.stream(0));
            in.set(0, d.permute(transposed, new int[] {1, 0}));
        }
        Buffer out = d.allocate(outShape, op.output().dtype());
        try {
            d.compute(op, in, out, d.stream(0), OpInfo.of(0, 0, op.opName(), EventKind.KERNEL));
            d.synchronize();
            return d.download(out);
        } finally {
            for (int i = strided ? 1 : 0; i < in.size(); i++) d.free(in.get(i), d.stream(0));
            if (transposed != null) d.free(transposed, d.stream(0));
            d.free(out, d.stream(0));
        }
    }

    /** GPU and CPU give the same elements, bit for bit (NaN's payload aside, -0.0 apart from 0.0). */
    private static void sameAsCpu(FusionOp op, List<DenseTensor> inputs) {
        DenseTensor want = OpKernels.compute(op, inputs);
        for (boolean strided : new boolean[] {false, true}) {
            DenseTensor got = onGpu(op, inputs, want.shape(), strided);
            String what = op + (strided ? " (first input transposed on the device)" : "");
            assertArrayEquals(want.shape(), got.shape(), what);
            if (want.dtype().isIntegral()) assertArrayEquals(want.toLongArray(), got.toLongArray(), what);
            else assertArrayEquals(want.toDoubleArray(), got.toDoubleArray(), what);
        }
    }

    private static DenseTensor random(Random r, DataType dtype, long... shape) {
        int n = (int) Arrays.stream(shape).reduce(1, (a, b) -> a * b);
        if (dtype == DataType.BOOL) return DenseTensor.ofDoubles(dtype, shape, r.ints(n, 0, 2).asDoubleStream().toArray());
        if (dtype.isIntegral()) return DenseTensor.ofLongs(dtype, shape, r.longs(n, -50, 50).toArray());
        return DenseTensor.ofDoubles(dtype, shape, r.doubles(n, -4, 4).toArray());
    }

    private static DenseTensor indices(Random r, DataType dtype, long bound, long... shape) {
        int n = (int) Arrays.stream(shape).reduce(1, (a, b) -> a * b);
        return DenseTensor.ofLongs(dtype, shape, r.longs(n, 0, bound).toArray());
    }

    @Test
    void indexSelectMatchesTheCpuWithRepeatedIndices() throws Exception {
        assumeGpu();
        Random r = new Random(39);
        for (DataType e : ELEMENTS) {
            for (DataType i : List.of(DataType.INT64, DataType.INT32)) {
                for (int dim = 0; dim < 2; dim++) {
                    long[] outShape = dim == 0 ? new long[] {9, 5} : new long[] {6, 9};
                    FusionOp op = op("index_select", ", \"axes\": [" + dim + "]", tv("x", e, 6, 5),
                            tv("ids", i, 9), tv("y", e, outShape));
                    // 9 draws from 5 or 6 rows: some repeat
                    sameAsCpu(op, List.of(random(r, e, 6, 5), indices(r, i, dim == 0 ? 6 : 5, 9)));
                }
            }
        }
    }

    @Test
    void takeAlongAxisMatchesTheCpuAlongEitherAxis() throws Exception {
        assumeGpu();
        Random r = new Random(40);
        for (DataType e : ELEMENTS) {
            for (DataType i : List.of(DataType.INT64, DataType.INT32)) {
                FusionOp op = op("take_along_axis", ", \"axes\": [1]", tv("p", e, 7, 4), tv("ids", i, 7, 6),
                        tv("w", e, 7, 6));
                sameAsCpu(op, List.of(random(r, e, 7, 4), indices(r, i, 4, 7, 6)));
                FusionOp rows = op("take_along_axis", ", \"axes\": [0]", tv("p", e, 5, 3), tv("ids", i, 2, 3),
                        tv("w", e, 2, 3));
                sameAsCpu(rows, List.of(random(r, e, 5, 3), indices(r, i, 5, 2, 3)));
            }
        }
    }

    @Test
    void scatterMatchesTheCpu() throws Exception {
        assumeGpu();
        Random r = new Random(41);
        for (DataType e : ELEMENTS) {
            FusionOp op = op("scatter", ", \"axes\": [0]", tv("acc", e, 6, 4), tv("slot", DataType.INT64, 3, 4),
                    tv("src", e, 5, 4), tv("out", e, 6, 4));
            long[] slots = new long[12];
            for (int c = 0; c < 4; c++) {
                List<Long> rows = new ArrayList<>(List.of(0L, 1L, 2L, 3L, 4L, 5L));
                java.util.Collections.shuffle(rows, r);
                for (int j = 0; j < 3; j++) slots[j * 4 + c] = rows.get(j); // distinct targets per column
            }
            sameAsCpu(op, List.of(random(r, e, 6, 4), DenseTensor.ofLongs(DataType.INT64, new long[] {3, 4}, slots),
                    random(r, e, 5, 4)));
        }
    }

    /** An index outside its axis, and two scatter entries writing one element, fail the op as on the CPU. */
    @Test
    void badIndicesFailAsOnTheCpu() throws Exception {
        assumeGpu();
        Random r = new Random(44);
        FusionOp op = op("index_select", ", \"axes\": [0]", tv("x", DataType.FLOAT, 4, 2),
                tv("ids", DataType.INT64, 3), tv("y", DataType.FLOAT, 3, 2));
        List<DenseTensor> in = List.of(DenseTensor.zeros(DataType.FLOAT, 4, 2),
                DenseTensor.ofLongs(DataType.INT64, new long[] {3}, 1, 4, 0));
        ExecutionException e = assertThrows(ExecutionException.class, () -> onGpu(op, in, new long[] {3, 2}));
        // the tensor's program name, as the CPU backend's message has it (the engine locates it at the file's line)
        assertEquals("index_select of " + op.output().name() + ": index 4 is outside [0, 4) of input axis 0"
                + " (at::index_select: index out of range in self)", e.getMessage());
        FusionOp take = op("take_along_axis", ", \"axes\": [1]", tv("p", DataType.FLOAT, 2, 3),
                tv("ids", DataType.INT32, 2, 1), tv("w", DataType.FLOAT, 2, 1));
        List<DenseTensor> negative = List.of(DenseTensor.zeros(DataType.FLOAT, 2, 3),
                DenseTensor.ofLongs(DataType.INT32, new long[] {2, 1}, 0, -1));
        e = assertThrows(ExecutionException.class, () -> onGpu(take, negative, new long[] {2, 1}));
        assertTrue(e.getMessage().contains("index -1 is outside [0, 3) of input axis 1"), e.getMessage());
        FusionOp scatter = op("scatter", ", \"axes\": [1]", tv("acc", DataType.FLOAT, 2, 3),
                tv("slot", DataType.INT64, 2, 2), tv("src", DataType.FLOAT, 2, 2), tv("out", DataType.FLOAT, 2, 3));
        List<DenseTensor> twice = List.of(random(r, DataType.FLOAT, 2, 3),
                DenseTensor.ofLongs(DataType.INT64, new long[] {2, 2}, 0, 2, 1, 1), random(r, DataType.FLOAT, 2, 2));
        e = assertThrows(ExecutionException.class, () -> onGpu(scatter, twice, new long[] {2, 3}));
        assertEquals("scatter of " + scatter.output().name() + ": two index entries write element [1, 1] (at::scatter"
                + " leaves the result of repeated indices undefined)", e.getMessage());
    }

    /** Rows with ties, NaN and both zeros; every k from 1 to the extent, both orders, values and indices. */
    @Test
    void topkMatchesTheCpuWithTiesNanAndSignedZeros() throws Exception {
        assumeGpu();
        Random r = new Random(42);
        for (DataType e : List.of(DataType.FLOAT, DataType.BFLOAT16, DataType.HALF, DataType.DOUBLE, DataType.INT64,
                DataType.INT32)) {
            double[] v = r.ints(6 * 7, -3, 4).asDoubleStream().toArray(); // few values: many ties
            if (!e.isIntegral()) {
                v[3] = Double.NaN;
                v[10] = Double.NaN;
                v[11] = -0.0;
                v[12] = 0.0;
                v[13] = -0.0;
            }
            DenseTensor x = e.isIntegral() ? DenseTensor.ofLongs(e, new long[] {6, 7},
                    Arrays.stream(v).mapToLong(d -> (long) d).toArray())
                    : DenseTensor.ofDoubles(e, new long[] {6, 7}, v);
            for (int k = 1; k <= 7; k++) {
                for (String flags : List.of("[true, true]", "[false, true]", "[true, false]")) {
                    String attrs = ", \"axes\": [1], \"flags\": " + flags;
                    sameAsCpu(op("topk", attrs, tv("x", e, 6, 7), tv("top", e, 6, k)), List.of(x));
                    sameAsCpu(op("topk_indices", attrs, tv("x", e, 6, 7), tv("ids", DataType.INT64, 6, k)),
                            List.of(x));
                }
            }
            sameAsCpu(op("topk_indices", ", \"axes\": [0], \"flags\": [true, true]", tv("x", e, 6, 7),
                    tv("ids", DataType.INT64, 6, 7)), List.of(x)); // along the outer axis, k = extent
        }
    }

    /**
     * The three forms, in float, bf16, half and double, with empty groups (first, inner, and every one of K). In
     * float, bf16 or half an op whose group views all start at 16 bytes runs as one cublasGemmGroupedBatchedEx call
     * where this cuBLAS has it and the JVM's {@code -Dhirstudio.cuda.groupedGemm} is {@code grouped} (the default):
     * every M split here, the N and K splits whose groups start at column 0 or 8 (the {@code 8, 8, 8, 8} ends and the
     * two wider ones), 7 of 11; the others (a group at column 2 or 3) and double, the mixed bf16 -> float case and
     * the {@code loop} form run the per-group loop, no grouped call.
     */
    @Test
    void groupedMmMatchesTheCpuWithEmptyGroups() throws Exception {
        assumeGpu();
        boolean grouped = !"loop".equals(System.getProperty("hirstudio.cuda.groupedGemm"))
                && backend.hasGroupedGemm();
        System.out.println("grouped_mm on CUDA: " + (grouped ? "one cublasGemmGroupedBatchedEx call" : "per-group loop")
                + " (cuBLAS has the grouped call: " + backend.hasGroupedGemm() + ")");
        Random r = new Random(43);
        for (DataType e : List.of(DataType.FLOAT, DataType.BFLOAT16, DataType.HALF, DataType.DOUBLE)) {
            long before = backend.groupedGemms();
            for (long[] ends : List.of(new long[] {0, 3, 3, 8}, new long[] {8, 8, 8, 8}, new long[] {2, 4, 6, 8})) {
                DenseTensor offs = DenseTensor.ofLongs(DataType.INT32, new long[] {4}, ends);
                // M split: tokens [8, 16] x experts [4, 16, 24] -> [8, 24]
                closeToCpu(op("grouped_mm", "", tv("x", e, 8, 16), tv("w", e, 4, 16, 24), tv("offs", DataType.INT32, 4),
                        contracted(e, 16, 8, 24)), List.of(random(r, e, 8, 16), random(r, e, 4, 16, 24), offs));
                // N split: [4, 16, 12] x [12, 8] -> [16, 8]
                closeToCpu(op("grouped_mm", "", tv("x", e, 4, 16, 12), tv("w", e, 12, 8),
                        tv("offs", DataType.INT32, 4), contracted(e, 12, 16, 8)),
                        List.of(random(r, e, 4, 16, 12), random(r, e, 12, 8), offs));
                // K split: [16, 8] x [8, 24] -> [4, 16, 24]
                closeToCpu(op("grouped_mm", "", tv("x", e, 16, 8), tv("w", e, 8, 24), tv("offs", DataType.INT32, 4),
                        contracted(e, 8, 4, 16, 24)), List.of(random(r, e, 16, 8), random(r, e, 8, 24), offs));
            }
            // N split, groups at columns 0, 8, 16 (one empty): [4, 16, 12] x [12, 32] -> [16, 32]
            DenseTensor wide = DenseTensor.ofLongs(DataType.INT32, new long[] {4}, 8, 8, 16, 32);
            closeToCpu(op("grouped_mm", "", tv("x", e, 4, 16, 12), tv("w", e, 12, 32), tv("offs", DataType.INT32, 4),
                    contracted(e, 12, 16, 32)), List.of(random(r, e, 4, 16, 12), random(r, e, 12, 32), wide));
            // K split, groups at 0 and 8 (two empty): [16, 32] x [32, 24] -> [4, 16, 24]
            DenseTensor deep = DenseTensor.ofLongs(DataType.INT32, new long[] {4}, 0, 8, 8, 32);
            closeToCpu(op("grouped_mm", "", tv("x", e, 16, 32), tv("w", e, 32, 24), tv("offs", DataType.INT32, 4),
                    contracted(e, 32, 4, 16, 24)), List.of(random(r, e, 16, 32), random(r, e, 32, 24), deep));
            assertEquals(grouped && e != DataType.DOUBLE ? 7 : 0, backend.groupedGemms() - before,
                    "grouped calls for " + e.fileName());
        }
        DenseTensor offs = DenseTensor.ofLongs(DataType.INT32, new long[] {2}, 5, 8);
        long before = backend.groupedGemms();
        closeToCpu(op("grouped_mm", "", tv("x", DataType.BFLOAT16, 8, 16), tv("w", DataType.BFLOAT16, 2, 16, 24),
                tv("offs", DataType.INT32, 2), contracted(DataType.FLOAT, 16, 8, 24)),
                List.of(random(r, DataType.BFLOAT16, 8, 16), random(r, DataType.BFLOAT16, 2, 16, 24), offs));
        assertEquals(before, backend.groupedGemms(), "bf16 operands into float: the per-group loop");
    }

    /**
     * Within the rounding of the GPU's fp32-accumulated products: per element, K x 2^-23 plus twice the output's unit
     * roundoff, times the sum of |a||b| (the same op on the operands' magnitudes, on the CPU).
     */
    private static void closeToCpu(FusionOp op, List<DenseTensor> inputs) {
        DenseTensor want = OpKernels.compute(op, inputs);
        List<DenseTensor> magnitudes = List.of(abs(inputs.get(0)), abs(inputs.get(1)), inputs.get(2));
        double[] bound = OpKernels.compute(op, magnitudes).toDoubleArray();
        double[] w = want.toDoubleArray(), g = onGpu(op, inputs, want.shape()).toDoubleArray();
        long k = inputs.get(0).size(inputs.get(0).rank() - 1);
        DataType out = op.output().dtype();
        double unit = out == DataType.BFLOAT16 ? 0x1p-8 : out == DataType.HALF ? 0x1p-11 : 0x1p-24;
        int nonzero = 0;
        for (int i = 0; i < w.length; i++) {
            double tol = (k * 0x1p-23 + 2 * unit) * bound[i] + 1e-30;
            assertTrue(Math.abs(w[i] - g[i]) <= tol, op + " element " + i + ": GPU " + g[i] + ", CPU " + w[i]);
            if (w[i] != 0) nonzero++;
        }
        assertTrue(nonzero > 0 || w.length == 0, "the products are not all zero");
    }

    private static DenseTensor abs(DenseTensor t) {
        return DenseTensor.ofDoubles(t.dtype(), t.shape(), Arrays.stream(t.toDoubleArray()).map(Math::abs).toArray());
    }

    /**
     * nvFuser's DispatchCombineTop1 (tests/cpp/test_multidevice_dispatch_combine.cpp at 81c4b22fd) on every GPU the
     * machine has: the counts first by an AllToAll of one element per peer, then the tokens by grouped
     * ncclSend/ncclRecv with those splits, as csrc/multidevice/dispatch_combine.cpp:195-217 at 81c4b22fd calls
     * alltoall_base (exec.MoeExchange, exec.AllToAllv on the CUDA backend), and the combine gives every rank its
     * tokens back exactly. With one GPU
     * this is D = 1 (the exchange is the rank's local copy), so it shows the path, not the multi-rank exchange.
     */
    @Test
    void dispatchThenCombineGivesBackEveryRanksTokens() throws Exception {
        assumeGpu();
        int world = Math.min(CudaBackend.localDeviceCount(), 8);
        long experts = 2L * world, tokens = 6, hidden = 4;
        MoePrograms.Built b = MoePrograms.build(world, experts, DataType.FLOAT);
        MoePrograms.Tensors t = b.t();
        var program = MoePrograms.program(b, List.of(b.dispatch(), b.combine()),
                List.of(t.inX(), t.inTopkIdx(), t.inTopkWeights()), List.of(t.combined()));
        List<java.util.Map<Integer, DenseTensor>> inputs = new ArrayList<>();
        Random r = new Random(45);
        for (int rank = 0; rank < world; rank++) {
            inputs.add(java.util.Map.of(t.inX().id(), random(r, DataType.FLOAT, tokens, hidden),
                    t.inTopkIdx().id(), indices(r, DataType.INT64, experts, tokens, 1),
                    t.inTopkWeights().id(), random(r, DataType.FLOAT, tokens, 1)));
        }
        try (CudaBackend gpus = new CudaBackend(world, 30_000)) {
            var out = MoePrograms.run(program, world, inputs, gpus);
            for (int rank = 0; rank < world; rank++) {
                assertArrayEquals(inputs.get(rank).get(t.inX().id()).toArray(),
                        out.get(rank).get(t.combined().id()).toArray(), "rank " + rank + " of " + world);
            }
        }
    }

    /**
     * Issue 39, Deliver 4, on the GPUs: the CUDA backend's bars of the dispatch's and combine's AllToAllvs carry the
     * bytes each rank sends to each rank, the routing's (MoeExchangeTraceTest's skewed routing on every GPU the
     * machine has; with one, the 1 x 1 matrix of the local copy). {@code -Dhirstudio.moeTrace=FILE} writes the trace.
     */
    @Test
    void exchangeBarsCarryTheBytesOfEachRank() throws Exception {
        assumeGpu();
        int world = Math.min(CudaBackend.localDeviceCount(), 8);
        try (CudaBackend gpus = new CudaBackend(world, 30_000)) {
            var timeline = MoeExchangeTraceTest.run(gpus, world);
            MoeExchangeTraceTest.assertMatrices(timeline, world);
            String out = System.getProperty("hirstudio.moeTrace");
            if (out != null) {
                ChromeTraceWriter.write(timeline, java.util.Map.of("run",
                        "CudaMoeKernelsTest on " + world + " GPU(s)"), java.nio.file.Path.of(out));
            }
        }
    }
}
