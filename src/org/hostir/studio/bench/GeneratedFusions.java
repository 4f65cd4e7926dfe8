package org.hostir.studio.bench;

import static org.hostir.studio.ir.ParallelType.DIDX;
import static org.hostir.studio.ir.ParallelType.STREAM;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.BinaryOpType;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.TensorView;

/** Large fusions made by rule, for benchmarks that must not depend on hand-written files. */
public final class GeneratedFusions {
    private GeneratedFusions() {}

    /**
     * A chain of {@code blocks} four-op blocks over {@code devices} devices: an allgather pipelined over streams
     * (set from [S, DIDx D, M] to [Stream S, D, M]), a pointwise add in the same loop, a set back to the sharded
     * layout (closing the loop) and a local multiply. Every lowering pass has work to do on it.
     */
    public static Fusion streamedChain(int blocks, int devices) {
        IrBuilder b = new IrBuilder();
        DeviceMesh mesh = DeviceMesh.forNumDevices(devices);
        Extent s = b.symbol("S");
        Extent d = b.symbol("D");
        Extent m = b.symbol("M");
        TensorView x = tensor(b, mesh, b.iter(s), b.iter(d, DIDX), b.iter(m));
        TensorView input = x;
        List<FusionOp> ops = new ArrayList<>();
        for (int i = 0; i < blocks; i++) {
            TensorView gathered = tensor(b, mesh, b.iter(s, STREAM), b.iter(d), b.iter(m));
            ops.add(new FusionOp.Set(gathered, x));
            TensorView doubled = tensor(b, mesh, b.iter(s, STREAM), b.iter(d), b.iter(m));
            ops.add(new FusionOp.Binary(BinaryOpType.ADD, doubled, gathered, gathered));
            TensorView sharded = tensor(b, mesh, b.iter(s), b.iter(d, DIDX), b.iter(m));
            ops.add(new FusionOp.Set(sharded, doubled));
            TensorView squared = tensor(b, mesh, b.iter(s), b.iter(d, DIDX), b.iter(m));
            ops.add(new FusionOp.Binary(BinaryOpType.MUL, squared, sharded, sharded));
            x = squared;
        }
        return b.fusion("streamed_chain_" + blocks, List.of(input), ops, List.of(x));
    }

    private static TensorView tensor(IrBuilder b, DeviceMesh mesh, IterDomain... axes) {
        return b.tensor(DataType.FLOAT, MemoryType.GLOBAL, mesh, axes);
    }
}
