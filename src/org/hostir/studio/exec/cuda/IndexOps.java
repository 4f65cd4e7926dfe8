package org.hostir.studio.exec.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.OpKernels;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;

/**
 * index_select, take_along_axis, scatter and topk on one device ({@link IndexKernelCode}'s kernels), with the CPU
 * backend's semantics (exec/tensor's ShapeKernels, ScatterKernel, TopKKernel): shapes checked by the CPU backend's
 * own shape rules before a launch; an index outside its axis, or two scatter entries writing one element, fails the
 * run with the CPU backend's message. That check reads two words back after the kernel, so these ops wait for
 * their stream (the price of failing where PyTorch's device-side assert would).
 */
final class IndexOps {
    private final CudaDevice device;
    private final Ops ops;

    IndexOps(CudaDevice device, Ops ops) {
        this.device = device;
        this.ops = ops;
    }

    /** The strides and counts of one launch ({@link IndexKernelCode}'s descriptor). */
    record Desc(long[] shape, int dim, long extent, long k, long sdim, long mdim, long[] so, long[] sx, long[] si,
                long[] sm) {}

    /** One kernel launch, planned from the buffers' shapes and strides alone (no device needed to plan it). */
    record Launch(IndexKernelCode.Form form, String source, DataType element, DataType index, Desc desc,
                  CudaBuffer out, CudaBuffer x, CudaBuffer idx) {}

    void indexSelect(FusionOp.IndexSelect op, CudaBuffer x, CudaBuffer index, CudaBuffer out, CudaStream s) {
        checkShape(op, List.of(x, index), out);
        run(op, gather(op.dim(), x, index, out, true), 0, s);
    }

    void takeAlongAxis(FusionOp.TakeAlongAxis op, CudaBuffer x, CudaBuffer index, CudaBuffer out, CudaStream s) {
        checkShape(op, List.of(x, index), out);
        run(op, gather(op.dim(), x, index, out, false), 0, s);
    }

    /**
     * index_select ({@code select}: a 1-D index stepping only along {@code dim}) or take_along_axis (an index of the
     * output's shape; the input broadcasts where its extent is 1), over the output's shape.
     */
    static Launch gather(int dim, CudaBuffer x, CudaBuffer index, CudaBuffer out, boolean select) {
        long[] sx = zeroAt(x.strides(), dim);
        long[] si = index.strides();
        if (select) {
            si = new long[out.shape().length];
            si[dim] = index.strides()[0];
        } else {
            for (int i = 0; i < sx.length; i++) if (x.shape()[i] == 1) sx[i] = 0;
        }
        Desc d = new Desc(out.shape(), dim, x.shape()[dim], 0, x.strides()[dim], 0, out.strides(), sx, si,
                new long[sx.length]);
        return new Launch(IndexKernelCode.Form.GATHER, IndexKernelCode.gather(x.dtype(), index.dtype()), x.dtype(),
                index.dtype(), d, out, x, index);
    }

    /** out = self, then src's elements written where the index says, a mark per element counting the writes. */
    void scatter(FusionOp.Scatter op, CudaBuffer self, CudaBuffer index, CudaBuffer src, CudaBuffer out,
                 CudaStream s) {
        checkShape(op, List.of(self, index, src), out);
        ops.copy(out, self, s);
        CudaBuffer marks = (CudaBuffer) device.allocate(out.shape(), DataType.INT32);
        try {
            ops.zero(marks, s);
            run(op, scatter(op.dim(), index, src, out, marks), marks.address(), s);
        } finally {
            device.free(marks, s);
        }
    }

    /** scatter over the index's shape into {@code out} (already self), {@code marks} one zeroed int per element. */
    static Launch scatter(int dim, CudaBuffer index, CudaBuffer src, CudaBuffer out, CudaBuffer marks) {
        Desc d = new Desc(index.shape(), dim, out.shape()[dim], 0, out.strides()[dim], marks.strides()[dim],
                zeroAt(out.strides(), dim), src.strides(), index.strides(), zeroAt(marks.strides(), dim));
        return new Launch(IndexKernelCode.Form.SCATTER, IndexKernelCode.scatter(out.dtype()), out.dtype(),
                DataType.INT64, d, out, src, index);
    }

    void topk(FusionOp.TopK op, CudaBuffer x, CudaBuffer out, CudaStream s) {
        int dim = op.dim();
        long[] want = x.shape().clone(); // CudaBuffer.shape() is the buffer's own array
        if (dim >= 0 && dim < want.length) want[dim] = out.shape().length == want.length ? out.shape()[dim] : -1;
        if (dim < 0 || dim >= want.length || !Arrays.equals(want, out.shape()) || want[dim] > x.shape()[dim]) {
            throw new ExecutionException(op.opName() + " of " + op.output().name() + ": an output of shape "
                    + Arrays.toString(out.shape()) + " for an input of shape " + Arrays.toString(x.shape())
                    + " along axis " + dim, List.of(op.output().subject()));
        }
        run(op, topk(dim, op.largest(), op.indices(), x, out), 0, s);
    }

    /** topk over the input's shape, each element placed by its rank in the line (IndexKernelCode.topk). */
    static Launch topk(int dim, boolean largest, boolean indices, CudaBuffer x, CudaBuffer out) {
        IndexKernelCode.Form form = indices
                ? (largest ? IndexKernelCode.Form.TOPK_INDICES : IndexKernelCode.Form.TOPK_SMALLEST_INDICES)
                : (largest ? IndexKernelCode.Form.TOPK_VALUES : IndexKernelCode.Form.TOPK_SMALLEST_VALUES);
        int rank = x.shape().length;
        Desc d = new Desc(x.shape(), dim, x.shape()[dim], out.shape()[dim], x.strides()[dim], out.strides()[dim],
                zeroAt(out.strides(), dim), zeroAt(x.strides(), dim), new long[rank], new long[rank]);
        return new Launch(form, IndexKernelCode.topk(form, x.dtype()), x.dtype(), null, d, out, x, x);
    }

    private static long[] zeroAt(long[] strides, int dim) {
        long[] z = strides.clone();
        z[dim] = 0;
        return z;
    }

    /**
     * The CPU backend's shape rule for these inputs ({@link OpKernels#outputShape} over stand-ins of the buffers'
     * shapes, one element each, broadcast), and the output buffer must have that shape.
     */
    private static void checkShape(FusionOp op, List<CudaBuffer> in, CudaBuffer out) {
        long[] want;
        try {
            want = OpKernels.outputShape(op, in.stream().map(b -> DenseTensor.zeros(ones(b.shape().length),
                    b.dtype()).expand(b.shape())).toList());
        } catch (IllegalArgumentException e) {
            throw new ExecutionException(e.getMessage(), List.of(op.output().subject()));
        }
        if (!Arrays.equals(want, out.shape())) throw new ExecutionException(op.opName() + " of "
                + op.output().name() + ": the output buffer has shape " + Arrays.toString(out.shape())
                + " but the op computes " + Arrays.toString(want), List.of(op.output().subject()));
    }

    private static long[] ones(int n) {
        long[] o = new long[n];
        Arrays.fill(o, 1);
        return o;
    }

    /** Launches one kernel over {@code l.desc().shape()}, waits for it and fails the run on what it reported. */
    private void run(FusionOp op, Launch l, long marks, CudaStream s) {
        Desc d = l.desc();
        long n = count(d);
        if (n == 0) return;
        if (d.shape().length > Kernels.MAX_AXES) throw new ExecutionException(op.opName() + " of "
                + op.output().name() + ": CUDA kernels take at most " + Kernels.MAX_AXES + " axes");
        long fn = device.kernels.named(IndexKernelCode.name(l.form(), l.element(), l.index()), l.source());
        CudaBuffer err = (CudaBuffer) device.allocate(new long[] {2}, DataType.INT64);
        try (Arena arena = Arena.ofConfined()) {
            ops.zero(err, s);
            MemorySegment params = arena.allocate(ADDRESS, 6);
            long[] args = {l.out().address(), l.x().address(), l.idx().address(), err.address(), marks};
            for (int i = 0; i < args.length; i++) params.setAtIndex(ADDRESS, i, arena.allocateFrom(JAVA_LONG, args[i]));
            params.setAtIndex(ADDRESS, 5, descriptor(arena, d));
            device.driver.launch(fn, (int) Math.min((n + 255) / 256, 132L * 32), 256, s.handle(), params);
            device.driver.synchronize(s.handle());
            MemorySegment report = arena.allocate(JAVA_LONG, 2);
            device.driver.copyDtoH(report, err.address(), 16);
            check(op, d.dim(), report.getAtIndex(JAVA_LONG, 0), report.getAtIndex(JAVA_LONG, 1), d.extent(),
                    l.out().shape());
        } finally {
            device.free(err, s);
        }
    }

    /** The items a launch iterates over. */
    static long count(Desc d) {
        long n = 1;
        for (long e : d.shape()) n *= e;
        return n;
    }

    /** The descriptor as the kernels take it by value ({@link IndexKernelCode#LONGS} longs). */
    static MemorySegment descriptor(Arena arena, Desc d) {
        long n = count(d);
        MemorySegment m = arena.allocate(JAVA_LONG, IndexKernelCode.LONGS);
        m.setAtIndex(JAVA_LONG, IndexKernelCode.RANK, d.shape().length);
        m.setAtIndex(JAVA_LONG, IndexKernelCode.DIM, d.dim());
        m.setAtIndex(JAVA_LONG, IndexKernelCode.N, n);
        m.setAtIndex(JAVA_LONG, IndexKernelCode.EXTENT, d.extent());
        m.setAtIndex(JAVA_LONG, IndexKernelCode.K, d.k());
        m.setAtIndex(JAVA_LONG, IndexKernelCode.SDIM, d.sdim());
        m.setAtIndex(JAVA_LONG, IndexKernelCode.MDIM, d.mdim());
        for (int i = 0; i < d.shape().length; i++) {
            m.setAtIndex(JAVA_LONG, IndexKernelCode.SHAPE + i, d.shape()[i]);
            m.setAtIndex(JAVA_LONG, IndexKernelCode.SO + i, d.so()[i]);
            m.setAtIndex(JAVA_LONG, IndexKernelCode.SX + i, d.sx()[i]);
            m.setAtIndex(JAVA_LONG, IndexKernelCode.SI + i, d.si()[i]);
            m.setAtIndex(JAVA_LONG, IndexKernelCode.SM + i, d.sm()[i]);
        }
        return m;
    }

    /**
     * What the kernel reported, as the CPU backend's kernels word it (IndexOutOfRange, ScatterKernel.duplicate):
     * {@code value} is the index, or a duplicate's element as a position in the output's contiguous order.
     */
    private static void check(FusionOp op, int dim, long code, long value, long extent, long[] outShape) {
        if (code == 0) return;
        String at = op.opName() + " of " + op.output().name() + ": ";
        if (code == IndexKernelCode.OUT_OF_RANGE) {
            throw new ExecutionException(at + "index " + value + " is outside [0, " + extent + ") of input axis " + dim
                    + " (at::" + (op instanceof FusionOp.IndexSelect ? "index_select" : op instanceof FusionOp.Scatter
                    ? "scatter" : "take_along_dim") + ": index out of range in self)",
                    List.of(op.output().subject(), op.inputs().get(1).subject()));
        }
        long[] element = new long[outShape.length];
        for (int i = outShape.length - 1; i >= 0; i--) {
            element[i] = value % outShape[i];
            value /= outShape[i];
        }
        throw new ExecutionException(at + "two index entries write element " + Arrays.toString(element)
                + " (at::scatter leaves the result of repeated indices undefined)",
                List.of(op.output().subject(), op.inputs().get(1).subject()));
    }
}
