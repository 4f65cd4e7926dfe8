package org.hostir.studio.exec;

import java.util.Arrays;
import java.util.List;

import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.CommunicationType;
import org.hostir.studio.ir.host.MoeCombine;
import org.hostir.studio.ir.host.MoeDispatch;
import org.hostir.studio.trace.EventKind;

/**
 * {@link MoeExchange}'s dispatch and combine on a device whose routing is modelled ({@link ModelledRouting}): the
 * same collectives in nvFuser's order (the counts by an even AllToAll, then x, topk_idx, topk_weights, src_idx by
 * {@link AllToAllv}s; the combine's x and src_idx back), with the split sizes from the model instead of the data.
 * The host's reorders are device copies here (a gather before the sends, the index_copy after the combine), and the
 * host's wait for the counts (toSplitSizes) is the stream's wait on the AllToAll.
 */
final class ModelledMoeExchange {
    private final Device device;
    private final ModelledRouting model;
    private final BackendStream stream;
    private final MoeExchange.Allocator allocator;
    private final int iteration;

    ModelledMoeExchange(Device device, ModelledRouting model, BackendStream stream, MoeExchange.Allocator allocator,
                        int iteration) {
        this.device = device;
        this.model = model;
        this.stream = stream;
        this.allocator = allocator;
        this.iteration = iteration;
    }

    MoeExchange.Dispatched dispatch(MoeDispatch d, List<Integer> team, Buffer x, Buffer topkIdx, Buffer topkWeights) {
        MoeDispatch.Routing r = d.routing().orElseThrow();
        String name = "Dispatch " + d.id();
        int world = team.size();
        long perRank = MoeRouting.expertsPerRank(name, d.numExperts(), world);
        long tokens = x.shape()[0];
        long[] toRank = new long[world];
        long[] fromRank = new long[world];
        int me = team.indexOf(device.rank());
        for (int s = 0; s < world; s++) {
            long[] perExpert = model.tokensPerExpert(team.get(s), tokens, (int) d.numExperts(), d.id());
            for (int e = 0; e < perExpert.length; e++) {
                if (s == me) toRank[(int) (e / perRank)] += perExpert[e];
                if (e / perRank == me) fromRank[s] += perExpert[e];
            }
        }
        Buffer toRankBuf = allocator.allocate(r.tokensToRank(), new long[] {world});
        Buffer fromRankBuf = allocator.allocate(r.tokensFromRank(), new long[] {world});
        model.remember(toRankBuf, new ModelledRouting.Exchanged(toRank, fromRank, tokens));
        Work counts = device.collective(new CollectiveCall(CommunicationType.ALL_TO_ALL, team, -1, team, team,
                toRankBuf, fromRankBuf, null), stream, info(d.id(), name + " counts", EventKind.COMMUNICATION));
        device.waitWork(stream, counts);
        long received = Arrays.stream(fromRank).sum();
        Buffer[] recv = {
            exchange(d.id(), name + " x", team, d.out(), x, toRank, fromRank, received),
            exchange(d.id(), name + " topk_idx", team, r.outTopkIdx(), topkIdx, toRank, fromRank, received),
            exchange(d.id(), name + " topk_weights", team, r.outTopkWeights(), topkWeights, toRank, fromRank,
                    received),
            exchange(d.id(), name + " src_idx", team, r.outSrcIdx(), null, toRank, fromRank, received)};
        return new MoeExchange.Dispatched(recv[0], recv[1], recv[2], recv[3], toRankBuf, fromRankBuf);
    }

    Buffer combine(MoeCombine c, List<Integer> team, Buffer x, Buffer srcIdx, Buffer toRankBuf) {
        String name = "Combine " + c.id();
        ModelledRouting.Exchanged k = model.recall(toRankBuf);
        long total = Arrays.stream(k.toRank()).sum();
        long[] row = x.shape().clone();
        row[0] = total;
        Buffer back = device.allocate(row, x.dtype());
        AllToAllv.exchange(device, stream, team, x, k.fromRank(), back, k.toRank(), info(c.id(), name + " x",
                EventKind.P2P));
        Buffer srcBack = device.allocate(new long[] {total}, srcIdx.dtype());
        AllToAllv.exchange(device, stream, team, srcIdx, k.fromRank(), srcBack, k.toRank(), info(c.id(),
                name + " src_idx", EventKind.P2P));
        long[] shape = x.shape().clone();
        shape[0] = k.tokens();
        Buffer out = allocator.allocate(c.out(), shape);
        // the index_copy into zeros: a dropped token's row stays zero
        device.copy(device.narrow(out, 0, 0, total), back, stream, info(c.id(), name + " index_copy",
                EventKind.COPY));
        for (Buffer b : List.of(back, srcBack)) device.free(b, stream);
        return out;
    }

    /** The kept tokens' rows of {@code in} (or of a new src_idx) gathered by expert, then exchanged. */
    private Buffer exchange(int id, String name, List<Integer> team, TensorView out, Buffer in, long[] sendSplits,
                            long[] recvSplits, long received) {
        long sent = Arrays.stream(sendSplits).sum();
        long[] shape = in == null ? new long[] {sent} : in.shape().clone();
        shape[0] = sent;
        Buffer send = device.allocate(shape, in == null ? out.dtype() : in.dtype());
        if (in != null && sent > 0) device.copy(send, device.narrow(in, 0, 0, sent), stream, info(id, name
                + " gather", EventKind.COPY));
        long[] recvShape = shape.clone();
        recvShape[0] = received;
        Buffer recv = allocator.allocate(out, recvShape);
        AllToAllv.exchange(device, stream, team, send, sendSplits, recv, recvSplits, info(id, name, EventKind.P2P));
        device.free(send, stream);
        return recv;
    }

    private OpInfo info(int id, String name, EventKind kind) { return OpInfo.of(id, iteration, name, kind); }
}
