package org.hostir.studio.tests.lower;

import static org.hostir.studio.ir.ParallelType.DIDX;
import static org.hostir.studio.ir.ParallelType.STREAM;

import java.util.List;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.TensorView;

/** Small fusions built in code for lowering tests that need meshes the example files do not cover. */
final class TestFusions {
    private TestFusions() {}

    static TensorView tv(IrBuilder b, DeviceMesh mesh, IterDomain... axes) {
        return b.tensor(DataType.FLOAT, MemoryType.GLOBAL, mesh, axes);
    }

    /** T1 = set(T0) between two meshes, T0 sharded on axis 0 when {@code inSharded}, T1 when {@code outSharded}. */
    static Fusion setBetween(DeviceMesh from, DeviceMesh to, boolean inSharded, boolean outSharded) {
        IrBuilder b = new IrBuilder();
        Extent.Constant n = new Extent.Constant(inSharded ? from.size() : outSharded ? to.size() : 4);
        Extent m = b.symbol("M");
        TensorView t0 = tv(b, from, inSharded ? b.iter(n, DIDX) : b.iter(n), b.iter(m));
        TensorView t1 = tv(b, to, outSharded ? b.iter(n, DIDX) : b.iter(n), b.iter(m));
        return b.fusion("set", List.of(t0), List.of(new FusionOp.Set(t1, t0)), List.of(t1));
    }

    /** T1 = sum(T0, {0}) with T0 sharded on its first axis over {@code from}, the result on {@code to}. */
    static Fusion reduceBetween(DeviceMesh from, DeviceMesh to) {
        IrBuilder b = new IrBuilder();
        Extent.Constant n = new Extent.Constant(from.size());
        Extent m = b.symbol("M");
        TensorView t0 = tv(b, from, b.iter(n, DIDX), b.iter(m));
        TensorView t1 = tv(b, to, b.reduction(n), b.iter(m));
        return b.fusion("reduce", List.of(t0),
                List.of(new FusionOp.Reduction(ReductionOpType.SUM, t1, t0, List.of(0))), List.of(t1));
    }

    /** Seed 000's AG_matmul_P2p fusion on {@code d} devices. */
    static Fusion agMatmulP2p(int d) {
        IrBuilder b = new IrBuilder();
        DeviceMesh mesh = DeviceMesh.forNumDevices(d);
        Extent dd = b.symbol("D");
        Extent m = b.symbol("M");
        Extent k = b.symbol("K");
        Extent n = b.symbol("N");
        TensorView t0 = tv(b, mesh, b.iter(dd, DIDX), b.iter(m), b.iter(k));
        TensorView t1 = tv(b, mesh, b.iter(k), b.iter(n));
        TensorView t2 = tv(b, mesh, b.iter(dd, STREAM), b.iter(m), b.iter(n), b.reduction(k));
        return b.fusion("ag_matmul_p2p", List.of(t0, t1), List.of(new FusionOp.Matmul(t2, t0, t1)), List.of(t2));
    }
}
