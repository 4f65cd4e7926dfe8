package org.hostir.studio.exec.cuda;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.hostir.studio.exec.ExecutionException;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;

/**
 * grouped_mm on one device as nvFuser's GroupedMmaOp fallback computes it (csrc/ir/composite_nodes.cpp:1166-1220 at
 * 81c4b22fd, the CPU backend's GroupedMmKernel): the offsets copied to the host once (the stream is waited for),
 * then one GEMM per non-empty group on views of the operands: the groups split K ([m, k] x [k, n] -> [g, m, n]),
 * N ([g, m, k] x [k, n] -> [m, n]) or M ([m, k] x [g, k, n] -> [m, n]). An empty group, and every group when k = 0,
 * is zero where it has output. Operands of another dtype than the output multiply in the wider of the two (float
 * for bf16 against half), then round once into the output, as the CPU backend rounds its double sums once.
 * <p>
 * The GEMMs go to cuBLAS as ONE {@code cublasGemmGroupedBatchedEx} call (each non-empty group a group of size 1;
 * the A/B/C pointer arrays copied to the device on the stream, sizes, leading dimensions, alpha and beta on the
 * host; fp32 compute, so no TF32, as the per-group path). Where that call cannot take them they go one by one
 * through {@link Ops#matmul} (cuBLASLt, else cublasGemmEx), the per-group path: where this cuBLAS predates the
 * call (12.5; looked up once when cuBLAS opens), where the output is not float, bf16 or half (the call's type table:
 * double and fp8 are not among them), where the operands are not of the output's dtype (bf16 x bf16 into float),
 * where a group's view is not rows of unit column stride (a strided operand) or does not start at a 16-byte
 * boundary (a group of N or K at an odd column), where a size exceeds an int, or
 * where cuBLAS answers NOT_SUPPORTED. {@code -Dhirstudio.cuda.groupedGemm=loop} takes the per-group path always
 * (the default is {@code grouped}), so the two can be compared; the device counts the grouped calls.
 */
final class GroupedGemm {
    /** {@code grouped} (the default) or {@code loop}, read at each grouped_mm. */
    static final String PROPERTY = "hirstudio.cuda.groupedGemm";

    private GroupedGemm() {}

    static void compute(Ops ops, CudaDevice device, FusionOp.GroupedMm g, List<CudaBuffer> in, CudaBuffer out,
                        CudaStream s) {
        CudaBuffer a = in.get(0), b = in.get(1);
        long[] ends = offsets(device, g, in.get(2), s);
        long[] want = shape(g, a, b, ends.length);
        if (!Arrays.equals(want, out.shape())) throw new ExecutionException(g.opName() + " of " + g.output().name()
                + ": operands of shape " + Arrays.toString(a.shape()) + " and " + Arrays.toString(b.shape())
                + " with " + ends.length + " groups give " + Arrays.toString(want) + ", not the output's "
                + Arrays.toString(out.shape()), List.of(g.output().subject()));
        int ra = a.shape().length, rb = b.shape().length;
        long split = ra == 3 ? b.shape()[1] : rb == 3 ? a.shape()[0] : a.shape()[1];
        checkOffsets(g, ends, split);
        boolean grouped = groupedForm();
        DataType type = computeType(a.dtype(), out.dtype());
        CudaBuffer target = type == out.dtype() ? out : (CudaBuffer) device.allocate(out.shape(), type);
        boolean noK = a.shape()[ra - 1] == 0;
        if (noK || ra == 2 && rb == 2) ops.zero(target, s); // empty groups (of K) and k = 0 sum nothing
        List<CudaBuffer[]> products = noK || target.numel() == 0 ? List.of() : products(a, b, target, ends);
        if (!grouped || !GroupedCall.run(device, products, s)) {
            for (CudaBuffer[] p : products) ops.matmul(p[0], p[1], p[2], s);
        }
        if (target != out) {
            ops.copy(out, target, s);
            device.free(target, s);
        }
    }

    /** The property's form: true for one grouped call, false for the per-group loop. */
    static boolean groupedForm() {
        String v = System.getProperty(PROPERTY, "grouped");
        return switch (v) {
            case "grouped" -> true;
            case "loop" -> false;
            default -> throw new ExecutionException("-D" + PROPERTY + "=" + v + ": grouped or loop expected");
        };
    }

    /** {a_i, b_i, out_i} of each non-empty group, row-major views: out_i = a_i b_i. */
    private static List<CudaBuffer[]> products(CudaBuffer a, CudaBuffer b, CudaBuffer target, long[] ends) {
        int ra = a.shape().length, rb = b.shape().length;
        List<CudaBuffer[]> products = new ArrayList<>();
        long start = 0;
        for (int i = 0; i < ends.length; i++) {
            long size = ends[i] - start;
            if (size > 0) {
                products.add(ra == 2 && rb == 2
                        ? new CudaBuffer[] {a.narrow(1, start, size), b.narrow(0, start, size), target.select(0, i)}
                        : ra == 3
                        ? new CudaBuffer[] {a.select(0, i), b.narrow(1, start, size), target.narrow(1, start, size)}
                        : new CudaBuffer[] {a.narrow(0, start, size), b.select(0, i), target.narrow(0, start, size)});
            }
            start = ends[i];
        }
        return products;
    }

    /** The offsets on the host: the stream that wrote them is waited for, then one copy (the timeline's groups too). */
    static long[] offsets(CudaDevice device, FusionOp.GroupedMm g, CudaBuffer offsets, CudaStream s) {
        if (offsets.shape().length != 1) throw new ExecutionException(g.opName() + " of " + g.output().name()
                + ": offsets of shape " + Arrays.toString(offsets.shape()) + " (one axis expected)",
                List.of(g.output().subject(), g.offsets().subject()));
        device.driver.synchronize(s.handle());
        return device.download(offsets).toLongArray();
    }

    /** createGroupedMmaOutput's three cases, as the CPU backend's GroupedMmKernel.shape; null where none fits. */
    private static long[] shape(FusionOp.GroupedMm g, CudaBuffer a, CudaBuffer b, int groups) {
        int ra = a.shape().length, rb = b.shape().length;
        boolean fits = ra >= 2 && rb >= 2 && ra + rb >= 4 && ra + rb <= 5
                && a.shape()[ra - 1] == b.shape()[rb - 2];
        if (!fits) throw new ExecutionException(g.opName() + " of " + g.output().name() + ": operands of shape "
                + Arrays.toString(a.shape()) + " and " + Arrays.toString(b.shape()), List.of(g.output().subject()));
        long m = a.shape()[ra - 2], n = b.shape()[rb - 1];
        return ra == 2 && rb == 2 ? new long[] {groups, m, n} : new long[] {m, n};
    }

    /** The CPU backend's rule: the ends rise from 0 to the split axis's extent, the last reaching it. */
    private static void checkOffsets(FusionOp.GroupedMm g, long[] ends, long split) {
        long start = 0;
        boolean ok = ends.length > 0 || split == 0;
        for (int i = 0; ok && i < ends.length; i++) {
            ok = ends[i] >= start && ends[i] <= split && (i < ends.length - 1 || ends[i] == split);
            start = ends[i];
        }
        if (!ok) throw new ExecutionException(g.opName() + " of " + g.output().name() + ": offsets "
                + Arrays.toString(ends) + " must rise from 0 to " + split + ", the end of each group (GroupedMmaOp's"
                + " fallback splits by them)", List.of(g.output().subject(), g.offsets().subject()));
    }

    /** The operands' dtype where it is the output's or narrower; else the wider, float for bf16 against half. */
    static DataType computeType(DataType operands, DataType out) {
        if (operands == out || operands.bytes() < out.bytes()) return out;
        return operands.bytes() > out.bytes() ? operands : DataType.FLOAT;
    }
}
