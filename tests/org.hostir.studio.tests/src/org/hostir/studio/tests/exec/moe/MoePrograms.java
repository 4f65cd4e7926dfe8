package org.hostir.studio.tests.exec.moe;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.hostir.studio.exec.Backend;
import org.hostir.studio.exec.Buffer;
import org.hostir.studio.exec.Device;
import org.hostir.studio.exec.Evaluator;
import org.hostir.studio.exec.ScalarEnv;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.MoeCombine;
import org.hostir.studio.ir.host.MoeDispatch;

/**
 * The Host IR programs of nvFuser's tests/cpp/test_multidevice_dispatch_combine.cpp (81c4b22fd), built as its
 * tests build them (makeSymbolicTensor for every tensor, lines 50-59 and 269-276; the receive side's first extent
 * is data-dependent, a symbol no one binds), and a run of one program on every rank of a CPU backend with each
 * rank's own inputs (HostIrEvaluator::runWithInput).
 */
final class MoePrograms {
    private MoePrograms() {}

    /** The tensors of one dispatch + combine, by nvFuser's names. */
    record Tensors(TensorView inX, TensorView inTopkIdx, TensorView inTopkWeights, TensorView recvX,
                   TensorView recvTopkIdx, TensorView recvTopkWeights, TensorView recvSrcIdx, TensorView toRank,
                   TensorView fromRank, TensorView combined) {}

    record Built(Tensors t, MoeDispatch dispatch, MoeCombine combine, IrBuilder ir) {}

    static Built build(int world, long numExperts, DataType weights) {
        IrBuilder b = new IrBuilder();
        DeviceMesh mesh = DeviceMesh.forNumDevices(world);
        var tokens = b.symbol("T");
        var hidden = b.symbol("H");
        var recv = b.symbol("T_recv");
        TensorView inX = tv(b, mesh, "in_x", DataType.FLOAT, b.iter(tokens), b.iter(hidden));
        TensorView inIdx = tv(b, mesh, "in_topk_idx", DataType.INT64, b.iter(tokens), b.broadcast());
        TensorView inW = tv(b, mesh, "in_topk_weights", weights, b.iter(tokens), b.broadcast());
        TensorView recvX = tv(b, mesh, "recv_x", DataType.FLOAT, b.iter(recv), b.iter(hidden));
        TensorView recvIdx = tv(b, mesh, "recv_topk_idx", DataType.INT64, b.iter(recv), b.broadcast());
        TensorView recvW = tv(b, mesh, "recv_topk_weights", weights, b.iter(recv), b.broadcast());
        TensorView recvSrc = tv(b, mesh, "recv_src_idx", DataType.INT64, b.iter(recv));
        var r = b.symbol("R");
        TensorView toRank = tv(b, mesh, "n_tokens_to_rank", DataType.INT64, b.iter(r));
        TensorView fromRank = tv(b, mesh, "n_tokens_from_rank", DataType.INT64, b.iter(r));
        TensorView combined = tv(b, mesh, "combined_x", DataType.FLOAT, b.iter(tokens), b.iter(hidden));
        Tensors t = new Tensors(inX, inIdx, inW, recvX, recvIdx, recvW, recvSrc, toRank, fromRank, combined);
        MoeDispatch dispatch = new MoeDispatch(b.nextNodeId(), numExperts, CommunicatorBackend.NCCL, inX, inIdx, inW,
                recvX, Optional.of(new MoeDispatch.Routing(recvIdx, recvW, recvSrc, toRank, fromRank)));
        // in_x->axis(0)->extent() as num_tokens (test line 82)
        MoeCombine combine = new MoeCombine(b.nextNodeId(), CommunicatorBackend.NCCL, recvX, recvW, recvSrc, combined,
                Optional.of(new MoeCombine.Counts(toRank, fromRank, tokens)));
        return new Built(t, dispatch, combine, b);
    }

    static HostIrContainer program(Built built, List<HostNode> nodes, List<TensorView> inputs,
                                   List<TensorView> outputs) {
        return new HostIrContainer(inputs, outputs, nodes, List.of(), built.ir().symbols(), built.ir().counters(),
                Map.of());
    }

    private static TensorView tv(IrBuilder b, DeviceMesh mesh, String label, DataType dtype,
                                 org.hostir.studio.ir.IterDomain... axes) {
        return b.tensor(label, dtype, MemoryType.GLOBAL, mesh, List.of(axes));
    }

    /**
     * Runs {@code program} on every rank with {@code inputs.get(rank)} bound (by tensor id) and returns each rank's
     * outputs downloaded; a rank's failure is rethrown as it is (the first rank's).
     */
    static List<Map<Integer, DenseTensor>> run(HostIrContainer program, int world,
                                               List<Map<Integer, DenseTensor>> inputs) throws Exception {
        try (CpuBackend backend = new CpuBackend(world, 10_000)) {
            return run(program, world, inputs, backend);
        }
    }

    /** {@link #run} on {@code backend}'s first {@code world} devices (the CUDA backend's GPUs too). */
    static List<Map<Integer, DenseTensor>> run(HostIrContainer program, int world,
                                               List<Map<Integer, DenseTensor>> inputs, Backend backend)
            throws Exception {
        ExecutorService hosts = Executors.newFixedThreadPool(world);
        try {
            List<Future<Map<Integer, DenseTensor>>> ranks = new ArrayList<>();
            for (int rank = 0; rank < world; rank++) {
                int k = rank;
                ranks.add(hosts.submit(() -> runRank(program, backend.device(k), inputs.get(k))));
            }
            List<Map<Integer, DenseTensor>> out = new ArrayList<>();
            for (var f : ranks) {
                try {
                    out.add(f.get());
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof Exception cause) throw cause;
                    throw e;
                }
            }
            return out;
        } finally {
            hosts.shutdownNow();
        }
    }

    private static Map<Integer, DenseTensor> runRank(HostIrContainer program, Device device,
                                                     Map<Integer, DenseTensor> inputs) {
        Map<Integer, Buffer> bound = new HashMap<>();
        inputs.forEach((id, t) -> bound.put(id, device.upload(t)));
        Evaluator evaluator = new Evaluator(program, device, new ScalarEnv(Map.of(), device.rank(), 1), bound);
        Map<Integer, Buffer> outs = evaluator.run();
        Map<Integer, DenseTensor> host = new HashMap<>();
        outs.forEach((id, buffer) -> host.put(id, device.download(buffer)));
        evaluator.release();
        return host;
    }
}
