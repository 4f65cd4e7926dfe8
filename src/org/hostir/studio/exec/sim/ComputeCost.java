package org.hostir.studio.exec.sim;

import java.util.List;

import org.hostir.studio.exec.Buffer;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.op.OpFamily;

/**
 * How long a kernel takes on one GPU of a profile, from shapes alone (docs/simulation.md, "GEMM"): a matmul or
 * linear is {@code launch + max(2 M N K / (peak[dtype] x eff(cbrt(M N K))), bytes / memory)}; every other kernel
 * and a device copy is memory-bound, {@code launch + bytes / memory}.
 */
final class ComputeCost {
    private ComputeCost() {}

    /** Microseconds of {@code op} writing {@code output} from {@code inputs}. */
    static double opUs(HardwareProfile.Gemm g, FusionOp op, List<Buffer> inputs, Buffer output) {
        double bytes = output.bytes();
        for (Buffer b : inputs) bytes += b.bytes();
        return switch (OpFamily.definition(op).work()) {
            case MATMUL, LINEAR -> gemmUs(g, output.dtype(), output.numel(), contracted(inputs.get(0)), bytes);
            case COPY, ELEMENTWISE, MOVE -> memoryUs(g, bytes);
        };
    }

    /** Flops of a matmul or linear: two per multiply-add; the others count one per output element. */
    static long flops(FusionOp op, List<Buffer> inputs, Buffer output) {
        return switch (OpFamily.definition(op).work()) {
            case MATMUL, LINEAR -> 2 * output.numel() * contracted(inputs.get(0));
            case ELEMENTWISE -> output.numel();
            case COPY, MOVE -> 0;
        };
    }

    /**
     * A GEMM of {@code outputElements} (M N, batch included) contracting {@code k}: its compute time at the
     * efficiency of its size, or its memory time if that is longer.
     */
    static double gemmUs(HardwareProfile.Gemm g, DataType dtype, double outputElements, double k, double bytes) {
        double flops = 2 * outputElements * k;
        double size = Math.cbrt(outputElements * k);
        Double peak = g.peakTflops().get(dtype);
        if (peak == null) throw new IllegalArgumentException("the profile has no GEMM peak for " + dtype.fileName());
        double computeUs = flops / (peak * 1e6 * efficiency(g.efficiency(), size));
        return g.launchUs() + Math.max(computeUs, bytes / (g.memoryGBps() * 1e3));
    }

    /** A memory-bound kernel (or a device copy) that reads and writes {@code bytes} in all. */
    static double memoryUs(HardwareProfile.Gemm g, double bytes) {
        return g.launchUs() + bytes / (g.memoryGBps() * 1e3);
    }

    /** The curve at {@code size}: linear in log(size) between points, the end values beyond them. */
    static double efficiency(List<double[]> curve, double size) {
        if (size <= curve.getFirst()[0]) return curve.getFirst()[1];
        for (int i = 1; i < curve.size(); i++) {
            double[] a = curve.get(i - 1), b = curve.get(i);
            if (size <= b[0]) {
                double t = Math.log(size / a[0]) / Math.log(b[0] / a[0]);
                return a[1] + t * (b[1] - a[1]);
            }
        }
        return curve.getLast()[1];
    }

    private static long contracted(Buffer a) {
        long[] s = a.shape();
        return s.length == 0 ? 1 : s[s.length - 1];
    }
}
