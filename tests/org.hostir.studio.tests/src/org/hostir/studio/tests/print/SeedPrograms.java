package org.hostir.studio.tests.print;

import static org.hostir.studio.ir.DataType.FLOAT;
import static org.hostir.studio.ir.MemoryType.GLOBAL;
import static org.hostir.studio.ir.MemoryType.LOCAL;
import static org.hostir.studio.ir.ParallelType.DIDX;
import static org.hostir.studio.ir.ParallelType.STREAM;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.BinaryOpType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.CommunicatorBackend;
import org.hostir.studio.ir.host.EndCoalescing;
import org.hostir.studio.ir.host.HostIrBuilder;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.Stream;

/**
 * The Host IR programs the seeds print, built by hand with the builder API the way nvFuser's test_host_irs
 * builds its programs: the expected side of the golden printer tests.
 */
final class SeedPrograms {
    private static final DeviceMesh MESH8 = DeviceMesh.forNumDevices(8);
    private static final List<Integer> TEAM8 = MESH8.deviceIds();
    private static final Scalar STREAM_IDX = NamedScalar.STREAM_IDX;

    private final IrBuilder b = new IrBuilder();
    private final HostIrBuilder h = new HostIrBuilder(b);

    private SeedPrograms() {}

    private Extent.Symbolic sym(String name) { return b.symbol(name); }

    private TensorView tv(MemoryType mem, DeviceMesh mesh, IterDomain... axes) {
        return b.tensor(FLOAT, mem, mesh, axes);
    }

    private TensorView global(IterDomain... axes) { return tv(GLOBAL, MESH8, axes); }

    /** {@code GetCurrentStream into Stream 0} and the loop that makes each worker stream wait for Stream 0. */
    private List<HostNode> streamPrologue(IterDomain axis) {
        return List.of(h.getCurrentStream(Stream.USER),
                h.forStreams(axis, List.of(h.setCurrentStream(HostIrBuilder.WORKER_STREAM), h.synchronize(Stream.USER))));
    }

    /** The main stream loop: switch to the worker stream, the body, back to Stream 0 which waits for the worker. */
    private HostNode streamLoop(IterDomain axis, List<HostNode> body) {
        List<HostNode> all = new ArrayList<>();
        all.add(h.setCurrentStream(HostIrBuilder.WORKER_STREAM));
        all.addAll(body);
        all.add(h.setCurrentStream(Stream.USER));
        all.add(h.synchronize(HostIrBuilder.WORKER_STREAM));
        return h.forStreams(axis, all);
    }

    private static List<HostNode> concat(List<HostNode> a, List<HostNode> b) {
        List<HostNode> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Allocate + Communication + Wait, as ConvertOpToCommunication emits them. */
    private List<HostNode> collective(CommunicationType type, TensorView in, TensorView out, ReductionOpType red) {
        var comm = h.communication(type, TEAM8, null, in, out, red, CommunicatorBackend.NCCL);
        return List.of(h.allocate(out), comm, h.waitFor(comm));
    }

    /** The P2P allgather's IF/ELSE of seed 000: local copy, else coalesced recv of the slice and send. */
    private HostNode p2pAllgather(TensorView outSlice, TensorView localShard, TensorView input) {
        List<HostNode> local = List.of(
                h.select(localShard, input, input.axis(0), Scalar.constant(0)),
                h.op(new FusionOp.Set(outSlice, localShard)));
        var start = h.startCoalescing();
        var recv = h.p2p(P2PCommunication.Type.RECV, outSlice, STREAM_IDX, CommunicatorBackend.NCCL);
        var send = h.p2p(P2PCommunication.Type.SEND, input, STREAM_IDX, CommunicatorBackend.NCCL);
        EndCoalescing end = h.endCoalescing();
        return h.ifThenElse(Scalar.eq(STREAM_IDX, NamedScalar.RANK), local,
                List.of(start, recv, send, end, h.waitFor(end)));
    }

    /** Seed 000, MultiDeviceStreamParallelTypeTest.AllgatherP2p. */
    static HostIrContainer allgatherP2p() {
        SeedPrograms s = new SeedPrograms();
        var d = s.sym("D");
        var m = s.sym("M");
        var b = s.b;
        TensorView t0 = s.global(b.iter(d, DIDX), b.iter(m));
        TensorView t1 = s.global(b.iter(d, STREAM), b.iter(m));
        TensorView t2 = s.tv(LOCAL, MESH8, b.iter(m));
        TensorView t3 = s.tv(LOCAL, MESH8, b.iter(m));
        var h = s.h;
        List<HostNode> body = List.of(
                h.select(t3, t1, t1.axis(0), STREAM_IDX),
                s.p2pAllgather(t3, t2, t0));
        List<HostNode> top = concat(concat(List.of(h.allocate(t1)), s.streamPrologue(t1.axis(0))),
                List.of(s.streamLoop(t1.axis(0), body)));
        return h.container(List.of(t0), List.of(t1), top);
    }

    /** Seed 000, MultiDeviceStreamParallelTypeTest.AG_matmul_P2p. */
    static HostIrContainer agMatmulP2p() {
        SeedPrograms s = new SeedPrograms();
        var b = s.b;
        var d = s.sym("D");
        var m = s.sym("M");
        var k = s.sym("K");
        var k1 = s.sym("K1"); // makeContigTensor gives T1 its own symbols
        var n = s.sym("N");
        TensorView t0 = s.global(b.iter(d, DIDX), b.iter(m), b.iter(k));
        TensorView t1 = s.global(b.iter(k1), b.iter(n));
        TensorView t2 = s.global(b.iter(d, STREAM), b.iter(m), b.iter(n), b.reduction(k));
        TensorView t3 = s.global(b.iter(d, STREAM), b.iter(m), b.iter(k));
        TensorView t4 = s.tv(LOCAL, MESH8, b.iter(m), b.iter(k));
        TensorView t5 = s.tv(LOCAL, MESH8, b.iter(m), b.iter(k));
        TensorView t6 = s.tv(LOCAL, MESH8, b.iter(m), b.iter(n), b.reduction(k));
        var h = s.h;
        List<HostNode> body = List.of(
                h.select(t5, t3, t3.axis(0), STREAM_IDX),
                s.p2pAllgather(t5, t4, t0),
                h.select(t6, t2, t2.axis(0), STREAM_IDX),
                h.op(new FusionOp.Matmul(t6, t5, t1)));
        List<HostNode> top = concat(concat(List.of(h.allocate(t3), h.allocate(t2)), s.streamPrologue(t3.axis(0))),
                List.of(s.streamLoop(t3.axis(0), body)));
        return h.container(List.of(t0, t1), List.of(t2), top);
    }

    /** Seed 001: a stream loop whose body slices input and output and runs one collective. */
    private static HostIrContainer collectiveLoop(SeedPrograms s, TensorView in, TensorView out,
                                                  CommunicationType type, ReductionOpType red) {
        var h = s.h;
        TensorView inSlice = s.b.sliceOf(in, GLOBAL, 0);
        TensorView outSlice = s.b.sliceOf(out, GLOBAL, 0);
        List<HostNode> body = concat(List.of(
                h.select(inSlice, in, in.axis(0), STREAM_IDX),
                h.select(outSlice, out, out.axis(0), STREAM_IDX)), s.collective(type, inSlice, outSlice, red));
        List<HostNode> top = concat(concat(List.of(h.allocate(out)), s.streamPrologue(out.axis(0))),
                List.of(s.streamLoop(out.axis(0), body)));
        return h.container(List.of(in), List.of(out), top);
    }

    /** Seed 001, MultiDeviceStreamParallelTypeTest.Allgather. */
    static HostIrContainer allgather() {
        SeedPrograms s = new SeedPrograms();
        var b = s.b;
        var st = s.sym("S");
        var d = s.sym("D");
        TensorView t0 = s.global(b.iter(st), b.iter(d, DIDX));
        TensorView t1 = s.global(b.iter(st, STREAM), b.iter(d));
        return collectiveLoop(s, t0, t1, CommunicationType.ALLGATHER, null);
    }

    /** Seed 001, MultiDeviceStreamParallelTypeTest.Allreduce. */
    static HostIrContainer allreduce() {
        SeedPrograms s = new SeedPrograms();
        var b = s.b;
        var st = s.sym("S");
        var d = s.sym("D");
        var m = s.sym("M");
        TensorView t0 = s.global(b.iter(st), b.iter(d, DIDX), b.iter(m));
        TensorView t1 = s.global(b.iter(st, STREAM), b.reduction(d), b.iter(m));
        return collectiveLoop(s, t0, t1, CommunicationType.ALLREDUCE, ReductionOpType.SUM);
    }

    /** Seed 001, MultiDeviceStreamParallelTypeTest.ReduceScatter. */
    static HostIrContainer reduceScatter() {
        SeedPrograms s = new SeedPrograms();
        var b = s.b;
        var st = s.sym("S");
        var d = s.sym("D");
        var a = s.sym("A");
        var m = s.sym("M");
        TensorView t0 = s.global(b.iter(st), b.iter(d, DIDX), b.iter(a), b.iter(m));
        TensorView t1 = s.global(b.iter(st, STREAM), b.reduction(d), b.iter(a, DIDX), b.iter(m));
        return collectiveLoop(s, t0, t1, CommunicationType.REDUCE_SCATTER, ReductionOpType.SUM);
    }

    /** Seed 001, MultiDeviceStreamParallelTypeTest.AG_matmul: the collective AG+GEMM pipeline. */
    static HostIrContainer agMatmul() {
        SeedPrograms s = new SeedPrograms();
        var b = s.b;
        var h = s.h;
        var st = s.sym("S");
        var d = s.sym("D");
        var m = s.sym("M");
        var k = s.sym("K");
        var k1 = s.sym("K1");
        var n = s.sym("N");
        TensorView t0 = s.global(b.iter(st), b.iter(d, DIDX), b.iter(m), b.iter(k));
        TensorView t1 = s.global(b.iter(k1), b.iter(n));
        TensorView t2 = s.global(b.iter(st, STREAM), b.iter(d), b.iter(m), b.iter(n), b.reduction(k));
        TensorView t3 = s.global(b.iter(st, STREAM), b.iter(d), b.iter(m), b.iter(k));
        TensorView t4 = b.sliceOf(t0, GLOBAL, 0);
        TensorView t5 = b.sliceOf(t3, GLOBAL, 0);
        TensorView t6 = b.sliceOf(t2, LOCAL, 0);
        List<HostNode> body = concat(concat(List.of(
                        h.select(t4, t0, t0.axis(0), STREAM_IDX),
                        h.select(t5, t3, t3.axis(0), STREAM_IDX)),
                s.collective(CommunicationType.ALLGATHER, t4, t5, null)),
                List.of(h.select(t6, t2, t2.axis(0), STREAM_IDX), h.op(new FusionOp.Matmul(t6, t5, t1))));
        List<HostNode> top = concat(concat(List.of(h.allocate(t3), h.allocate(t2)), s.streamPrologue(t3.axis(0))),
                List.of(s.streamLoop(t3.axis(0), body)));
        return h.container(List.of(t0, t1), List.of(t2), top);
    }

    /** Seed 001, MultiDeviceStreamParallelTypeTest.matmul_AR: matmul then Allreduce, pipelined. */
    static HostIrContainer matmulAllreduce() {
        SeedPrograms s = new SeedPrograms();
        var b = s.b;
        var h = s.h;
        var st = s.sym("S");
        var d = s.sym("D");
        var m = s.sym("M");
        var k = s.sym("K");
        var d1 = s.sym("D1");
        var k1 = s.sym("K1");
        var n = s.sym("N");
        IterDomain sAxis = b.iter(st);
        TensorView t0 = s.global(b.iter(d, DIDX), sAxis, b.iter(m), b.iter(k));
        TensorView t1 = s.global(b.iter(d1, DIDX), b.iter(k1), b.iter(n));
        IterDomain streamAxis = b.iter(st, STREAM);
        TensorView t2 = s.global(b.iter(d, DIDX), streamAxis, b.iter(m), b.iter(n), b.reduction(k));
        TensorView t3 = s.global(b.iter(st, STREAM), b.reduction(d), b.iter(m), b.iter(n));
        TensorView t4 = b.sliceOf(t0, LOCAL, 1);
        TensorView t5 = b.sliceOf(t2, GLOBAL, 1);
        TensorView t6 = b.sliceOf(t3, GLOBAL, 0);
        List<HostNode> body = concat(List.of(
                        h.select(t4, t0, sAxis, STREAM_IDX),
                        h.select(t5, t2, streamAxis, STREAM_IDX),
                        h.op(new FusionOp.Matmul(t5, t4, t1)),
                        h.select(t6, t3, t3.axis(0), STREAM_IDX)),
                s.collective(CommunicationType.ALLREDUCE, t5, t6, ReductionOpType.SUM));
        List<HostNode> top = concat(concat(List.of(h.allocate(t2), h.allocate(t3)), s.streamPrologue(streamAxis)),
                List.of(s.streamLoop(streamAxis, body)));
        return h.container(List.of(t0, t1), List.of(t3), top);
    }

    /** Seed 001, matmul_RS_through_bcast: a HostUnit broadcast, then matmul and ReduceScatter pipelined. */
    static HostIrContainer matmulReduceScatterThroughBroadcast() {
        SeedPrograms s = new SeedPrograms();
        var b = s.b;
        var h = s.h;
        var st = s.sym("S");
        var d = s.sym("D");
        var a = s.sym("A");
        var m = s.sym("M");
        var k = s.sym("K");
        var d1 = s.sym("D1");
        var k1 = s.sym("K1");
        var n = s.sym("N");
        IterDomain sAxis = b.iter(st);
        TensorView t0 = s.global(b.iter(d, DIDX), sAxis, b.iter(a), b.iter(m), b.iter(k));
        TensorView t1 = s.global(b.iter(d1, DIDX), b.iter(k1), b.iter(n));
        IterDomain b0 = b.broadcast();
        TensorView t2 = s.global(b.iter(d1, DIDX), b0, b.broadcast(), b.iter(k1), b.iter(n));
        var post = h.postOnStream(List.of(t1), List.of(t2),
                List.of(new FusionOp.Broadcast(t2, t1, List.of(true, false, true, false, false))));
        IterDomain streamAxis = b.iter(st, STREAM);
        TensorView t3 = s.global(b.iter(d, DIDX), streamAxis, b.iter(a), b.iter(m), b.iter(n), b.reduction(k));
        TensorView t4 = s.global(b.iter(st, STREAM), b.reduction(d), b.iter(a, DIDX), b.iter(m), b.iter(n));
        TensorView t5 = b.sliceOf(t0, LOCAL, 1);
        TensorView t6 = b.sliceOf(t2, LOCAL, 1);
        TensorView t7 = b.sliceOf(t3, GLOBAL, 1);
        TensorView t8 = b.sliceOf(t4, GLOBAL, 0);
        List<HostNode> body = concat(List.of(
                        h.select(t5, t0, sAxis, STREAM_IDX),
                        h.select(t6, t2, b0, STREAM_IDX),
                        h.select(t7, t3, streamAxis, STREAM_IDX),
                        h.op(new FusionOp.Matmul(t7, t5, t6)),
                        h.select(t8, t4, t4.axis(0), STREAM_IDX)),
                s.collective(CommunicationType.REDUCE_SCATTER, t7, t8, ReductionOpType.SUM));
        List<HostNode> top = concat(concat(List.of(post, h.allocate(t3), h.allocate(t4)),
                s.streamPrologue(streamAxis)), List.of(s.streamLoop(streamAxis, body)));
        return h.container(List.of(t0, t1), List.of(t4), top);
    }

    /** Seed 003, Scatter/PipelineTestTwoStages: sum on {0}, permute, Scatter to {0 1 2 3}, permute back, add. */
    static HostIrContainer scatterTwoStages() {
        SeedPrograms s = new SeedPrograms();
        var b = s.b;
        var h = s.h;
        DeviceMesh m0 = DeviceMesh.of(0);
        DeviceMesh m4 = DeviceMesh.forNumDevices(4);
        Extent c3 = new Extent.Constant(3);
        Extent c4 = new Extent.Constant(4);
        Extent c5 = new Extent.Constant(5);
        TensorView t0 = s.tv(GLOBAL, m0, b.iter(c3), b.iter(c4), b.iter(c3), b.iter(c5));
        TensorView t3 = s.tv(GLOBAL, m4, b.iter(c3), b.iter(c4, DIDX), b.iter(c3));
        TensorView t1 = s.tv(LOCAL, m0, b.iter(c3), b.iter(c4), b.iter(c3), b.reduction(c5));
        TensorView t4 = s.tv(GLOBAL, m0, b.iter(c4), b.iter(c3), b.iter(c3));
        TensorView t5 = s.tv(GLOBAL, m4, b.iter(c4, DIDX), b.iter(c3), b.iter(c3));
        TensorView t6 = s.tv(LOCAL, m4, b.iter(c3), b.iter(c4, DIDX), b.iter(c3));
        var scatter = h.communication(CommunicationType.SCATTER, m4.deviceIds(), Scalar.constant(0), t4, t5, null,
                CommunicatorBackend.NCCL);
        List<HostNode> top = List.of(
                h.op(new FusionOp.Reduction(ReductionOpType.SUM, t1, t0, List.of(3))),
                h.op(new FusionOp.Set(t4, t1, List.of(1, 0, 2))),
                h.allocate(t5),
                scatter,
                h.waitFor(scatter),
                h.op(new FusionOp.Set(t6, t5, List.of(1, 0, 2))),
                h.op(new FusionOp.Binary(BinaryOpType.ADD, t3, t6, t6)));
        return h.container(List.of(t0), List.of(t3), top);
    }
}
