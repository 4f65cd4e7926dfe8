package org.hostir.studio.exec;

import java.util.Arrays;
import java.util.List;

import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.MoeCombine;
import org.hostir.studio.ir.host.MoeDispatch;
import org.hostir.studio.trace.EventKind;

/**
 * nvFuser's doMoeDispatch and doMoeCombine on their NCCL path (csrc/multidevice/dispatch_combine.cpp:131-226 and
 * 289-351 at 81c4b22fd), on any {@link Device}: the counts go by an even AllToAll, the tokens by
 * {@link AllToAllv}s in nvFuser's order (x, topk_idx, topk_weights, src_idx; then x, src_idx). The host reads the
 * counts (nvFuser's toSplitSizes copies them to the CPU, a sync) and does the local reorders on downloaded copies.
 * One difference, on purpose: nvFuser sorts with {@code at::argsort} (not stable), the Studio stably, so tokens of
 * one expert keep their order and a run is reproducible; the combine restores the order either way.
 */
final class MoeExchange {
    /** Allocates the buffer of an output of the node (the evaluator's allocation, counted in its memory). */
    interface Allocator {
        Buffer allocate(TensorView tv, long[] shape);
    }

    private final Device device;
    private final BackendStream stream;
    private final Allocator allocator;
    private final int iteration;

    MoeExchange(Device device, BackendStream stream, Allocator allocator, int iteration) {
        this.device = device;
        this.stream = stream;
        this.allocator = allocator;
        this.iteration = iteration;
    }

    /** The six outputs of a dispatch, in nvFuser's order (communication.h:272-293). */
    record Dispatched(Buffer x, Buffer topkIdx, Buffer topkWeights, Buffer srcIdx, Buffer toRank, Buffer fromRank) {
        List<Buffer> all() { return List.of(x, topkIdx, topkWeights, srcIdx, toRank, fromRank); }
    }

    Dispatched dispatch(MoeDispatch d, List<Integer> team, Buffer x, Buffer topkIdx, Buffer topkWeights) {
        if (device instanceof ModelledRouting m) return modelled(m).dispatch(d, team, x, topkIdx, topkWeights);
        MoeDispatch.Routing r = d.routing().orElseThrow();
        String name = "Dispatch " + d.id();
        device.synchronize();
        DenseTensor hx = device.download(x);
        DenseTensor idx = device.download(topkIdx);
        DenseTensor w = device.download(topkWeights);
        int world = team.size();
        long perRank = MoeRouting.expertsPerRank(name, d.numExperts(), world);
        long tokens = MoeRouting.checkInputs(name, d, hx, idx, w);
        long[] experts = new long[(int) tokens];
        for (int t = 0; t < tokens; t++) experts[t] = MoeRouting.expert(name, d.topkIdx(), idx.getLong(t, 0), d.numExperts());
        long[] order = MoeRouting.stableArgsort(experts);
        long[] toRank = new long[world];
        for (long e : experts) toRank[(int) (e / perRank)]++;
        Buffer toRankBuf = put(r.tokensToRank(), DenseTensor.ofLongs(DataType.INT64, new long[] {world}, toRank));
        Buffer fromRankBuf = allocator.allocate(r.tokensFromRank(), new long[] {world});
        Work counts = device.collective(new CollectiveCall(CommunicationType.ALL_TO_ALL, team, -1, team, team,
                toRankBuf, fromRankBuf, null), stream, info(d.id(), name + " counts", EventKind.COMMUNICATION));
        device.waitWork(stream, counts);
        device.synchronize();
        long[] fromRank = device.download(fromRankBuf).toLongArray();
        long received = Arrays.stream(fromRank).sum();
        long[] srcRows = order;
        Buffer[] recv = {
            exchange(d.id(), name + " x", team, d.out(), MoeRouting.rows(hx, order), toRank, fromRank, received),
            exchange(d.id(), name + " topk_idx", team, r.outTopkIdx(), MoeRouting.rows(idx, order), toRank, fromRank,
                    received),
            exchange(d.id(), name + " topk_weights", team, r.outTopkWeights(), MoeRouting.rows(w, order), toRank,
                    fromRank, received),
            exchange(d.id(), name + " src_idx", team, r.outSrcIdx(),
                    DenseTensor.ofLongs(r.outSrcIdx().dtype(), new long[] {tokens}, srcRows), toRank, fromRank, received)};
        return new Dispatched(recv[0], recv[1], recv[2], recv[3], toRankBuf, fromRankBuf);
    }

    /** The combined tokens: each received row back at its source rank, at row {@code src_idx} there. */
    Buffer combine(MoeCombine c, List<Integer> team, Buffer x, Buffer srcIdx, Buffer toRankBuf, Buffer fromRankBuf) {
        if (device instanceof ModelledRouting m) return modelled(m).combine(c, team, x, srcIdx, toRankBuf);
        String name = "Combine " + c.id();
        device.synchronize();
        DenseTensor hx = device.download(x);
        DenseTensor src = device.download(srcIdx);
        long[] toRank = device.download(toRankBuf).toLongArray();
        long[] fromRank = device.download(fromRankBuf).toLongArray();
        MoeRouting.checkCombine(name, c, team.size(), hx, src, toRank, fromRank);
        // src_rank = arange(R).repeat_interleave(n_tokens_from_rank); sorted by it (dispatch_combine.cpp:326-332)
        long[] srcRank = new long[(int) hx.size(0)];
        int at = 0;
        for (int rank = 0; rank < fromRank.length; rank++) for (long k = 0; k < fromRank[rank]; k++) srcRank[at++] = rank;
        long[] order = MoeRouting.stableArgsort(srcRank);
        long total = Arrays.stream(toRank).sum();
        DenseTensor recvX = download(exchangeTemp(c.id(), name + " x", team, MoeRouting.rows(hx, order), fromRank,
                toRank, new long[] {total, hx.size(1)}));
        DenseTensor recvSrc = download(exchangeTemp(c.id(), name + " src_idx", team, MoeRouting.rows(src, order),
                fromRank, toRank, new long[] {total}));
        DenseTensor combined = MoeRouting.indexCopy(name, c.out(), recvX, recvSrc);
        return put(c.out(), combined);
    }

    private Buffer exchange(int id, String name, List<Integer> team, TensorView out, DenseTensor send, long[] sendSplits,
                            long[] recvSplits, long received) {
        long[] shape = send.shape();
        shape[0] = received;
        Buffer recv = allocator.allocate(out, shape);
        Buffer sendBuf = device.upload(send);
        AllToAllv.exchange(device, stream, team, sendBuf, sendSplits, recv, recvSplits, info(id, name, EventKind.P2P));
        device.free(sendBuf, stream);
        return recv;
    }

    /** An exchange into a temporary buffer (the combine's receive side, before its index_copy). */
    private Buffer exchangeTemp(int id, String name, List<Integer> team, DenseTensor send, long[] sendSplits,
                                long[] recvSplits, long[] shape) {
        Buffer recv = device.allocate(shape, send.dtype());
        Buffer sendBuf = device.upload(send);
        AllToAllv.exchange(device, stream, team, sendBuf, sendSplits, recv, recvSplits, info(id, name, EventKind.P2P));
        device.free(sendBuf, stream);
        return recv;
    }

    private DenseTensor download(Buffer temp) {
        device.synchronize();
        DenseTensor host = device.download(temp);
        device.free(temp, stream);
        return host;
    }

    /** A host tensor into a fresh buffer of {@code tv} (the upload is a temporary, freed once copied). */
    private Buffer put(TensorView tv, DenseTensor host) {
        Buffer out = allocator.allocate(tv, host.shape());
        Buffer up = device.upload(host);
        device.copy(out, up, stream, info(-1, "copy", EventKind.COPY).withBytes(out.bytes()));
        device.free(up, stream);
        return out;
    }

    /** The same exchange on a device without data, its split sizes from the routing model (the simulator). */
    private ModelledMoeExchange modelled(ModelledRouting m) {
        return new ModelledMoeExchange(device, m, stream, allocator, iteration);
    }

    private OpInfo info(int id, String name, EventKind kind) { return OpInfo.of(id, iteration, name, kind); }
}
