package org.hostir.studio.exec.cuda;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.UnaryOpType;

/**
 * The CUDA C that the backend hands NVRTC for an op, without a GPU: for reading what a kernel does and for
 * checking the generated text where no GPU can compile it.
 */
public final class KernelSource {
    private KernelSource() {}

    /** The MAP kernel of a unary op or cast from {@code in} to {@code out}. */
    public static String unary(UnaryOpType op, DataType in, DataType out) {
        return KernelCode.source(new Kernels.Key(Kernels.Kind.MAP,
                PointwiseExpressions.unary(op, KernelCode.wide(out, in)), out, in, in),
                KernelCode.Indexing.GENERAL);
    }

    /** The reduction kernel of {@code op} over {@code dtype} elements. */
    public static String reduction(ReductionOpType op, DataType dtype) {
        return KernelCode.source(new Kernels.Key(KernelCode.reduction(op), "", dtype, dtype, dtype),
                KernelCode.Indexing.GENERAL);
    }

    /**
     * The axes a kernel launch indexes after {@link Kernels#collapsed}: {extents, out strides, a strides, b
     * strides} for an output of {@code shape} and operands stepping by {@code so}, {@code sa}, {@code sb}.
     */
    public static long[][] launchAxes(long[] shape, long[] so, long[] sa, long[] sb) {
        Kernels.Launch l = Kernels.collapsed(new Kernels.Launch(shape, so, sa, sb, null, null, 0));
        return new long[][] {l.shape(), l.so(), l.sa(), l.sb()};
    }

    /**
     * The CUDA C of the unary kernel as compiled for one launch over an output of {@code shape} ({@code so}) and
     * an operand stepping by {@code sa}, at 16-byte aligned addresses: its axis loops unrolled for the collapsed
     * rank, 32-bit where it fits, grouped 16-byte accesses where every operand is one contiguous run.
     */
    public static String unaryLaunch(UnaryOpType op, DataType dtype, long[] shape, long[] so, long[] sa) {
        Kernels.Launch l = Kernels.collapsed(new Kernels.Launch(shape, so, sa, null, null, null, 0));
        long n = 1;
        for (long e : l.shape()) n *= e;
        Kernels.Key key = new Kernels.Key(Kernels.Kind.MAP, PointwiseExpressions.unary(op, KernelCode.wide(dtype)),
                dtype, dtype, dtype);
        return KernelCode.source(key, Kernels.indexing(key, l, n, 1, 0, 0, 0));
    }

    /**
     * The CUDA C of issue 39's index kernels ({@link IndexKernelCode}) by kernel name: the gather (index_select,
     * take_along_axis) over every dtype with int64 and int32 indices, scatter and the four topk forms over every dtype.
     */
    public static java.util.Map<String, String> indexKernels() {
        java.util.Map<String, String> all = new java.util.LinkedHashMap<>();
        for (DataType t : DataType.values()) {
            for (DataType index : new DataType[] {DataType.INT64, DataType.INT32}) {
                all.put(IndexKernelCode.name(IndexKernelCode.Form.GATHER, t, index), IndexKernelCode.gather(t, index));
            }
            all.put(IndexKernelCode.name(IndexKernelCode.Form.SCATTER, t, DataType.INT64), IndexKernelCode.scatter(t));
            for (IndexKernelCode.Form f : IndexKernelCode.Form.values()) {
                if (f != IndexKernelCode.Form.GATHER && f != IndexKernelCode.Form.SCATTER) {
                    all.put(IndexKernelCode.name(f, t, null), IndexKernelCode.topk(f, t));
                }
            }
        }
        return all;
    }

    /**
     * Compiles {@code source} with this machine's NVRTC for {@code arch} (no GPU needed) and gives the cubin's size;
     * fails with NVRTC's log, or where no NVRTC library loads (the message says what was tried).
     */
    public static int compile(String name, String source, String arch) {
        return new Nvrtc().compile(source, name, arch).length;
    }
}
