package org.hostir.studio.exec;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.trace.Breakdown;

/**
 * An all-to-all with split sizes (c10d's {@code alltoall_base(out, in, output_splits, input_splits)}, which
 * dispatch_combine.cpp:211-217 and 342-344 at 81c4b22fd call), posted as ProcessGroupNCCL posts it: one group of
 * {@code ncclSend}/{@code ncclRecv}, one pair per peer with a non-empty chunk. Chunk {@code j} of {@code send}
 * ({@code sendSplits[j]} rows of the outermost axis, in team order) goes to team member {@code j}; chunk {@code i}
 * of {@code recv} comes from member {@code i}. A rank's own chunk is a local copy. Because it is built from the
 * devices' point-to-point path, every backend runs it as it runs {@code P2PCommunication}s.
 */
public final class AllToAllv {
    private AllToAllv() {}

    /** Posts the exchange on {@code stream} and makes the stream wait for it (c10d's {@code work->wait()}). */
    public static void exchange(Device device, BackendStream stream, List<Integer> team, Buffer send,
                                long[] sendSplits, Buffer recv, long[] recvSplits, OpInfo info) {
        int me = team.indexOf(device.rank());
        if (me < 0 || sendSplits.length != team.size() || recvSplits.length != team.size()) {
            throw new ExecutionException(info.name() + ": rank " + device.rank() + " with " + sendSplits.length
                    + " send and " + recvSplits.length + " receive splits for a team of " + team.size());
        }
        long[] sendAt = offsets(sendSplits, send, "send", info);
        long[] recvAt = offsets(recvSplits, recv, "receive", info);
        info = info.withBreakdown(Breakdown.bytesToRank(info.name(), bytesToRank(team, sendSplits, send)));
        List<P2PCall> calls = new ArrayList<>();
        for (int j = 0; j < team.size(); j++) {
            if (j == me) continue;
            if (sendSplits[j] > 0) calls.add(new P2PCall(P2PCommunication.Type.SEND,
                    device.narrow(send, 0, sendAt[j], sendSplits[j]), team.get(j)));
            if (recvSplits[j] > 0) calls.add(new P2PCall(P2PCommunication.Type.RECV,
                    device.narrow(recv, 0, recvAt[j], recvSplits[j]), team.get(j)));
        }
        if (sendSplits[me] != recvSplits[me]) {
            throw new ExecutionException(info.name() + ": rank " + device.rank() + " sends itself " + sendSplits[me]
                    + " rows but expects " + recvSplits[me]);
        }
        if (sendSplits[me] > 0) {
            Buffer dst = device.narrow(recv, 0, recvAt[me], recvSplits[me]);
            device.copy(dst, device.narrow(send, 0, sendAt[me], sendSplits[me]), stream, info.withBytes(dst.bytes()));
        }
        if (calls.isEmpty()) return;
        long bytes = 0;
        for (P2PCall c : calls) bytes += c.buffer().bytes();
        Work work = device.pointToPoint(calls, stream, info.withBytes(bytes).withPeer(calls.get(0).peer()));
        device.waitWork(stream, work);
    }

    /** The bytes of each chunk by the rank it goes to (indexed by rank, up to the team's highest). */
    private static long[] bytesToRank(List<Integer> team, long[] sendSplits, Buffer send) {
        long rows = send.shape().length == 0 ? 1 : send.shape()[0];
        long rowBytes = rows == 0 ? 0 : send.bytes() / rows;
        long[] bytes = new long[team.stream().mapToInt(Integer::intValue).max().orElse(-1) + 1];
        for (int j = 0; j < team.size(); j++) bytes[team.get(j)] = sendSplits[j] * rowBytes;
        return bytes;
    }

    /** Where each chunk starts; the splits must be non-negative and cover the buffer's outermost axis. */
    private static long[] offsets(long[] splits, Buffer buffer, String side, OpInfo info) {
        long[] at = new long[splits.length];
        long sum = 0;
        for (int i = 0; i < splits.length; i++) {
            if (splits[i] < 0) throw new ExecutionException(info.name() + ": negative " + side + " split "
                    + splits[i] + " for team member " + i);
            at[i] = sum;
            sum += splits[i];
        }
        long rows = buffer.shape().length == 0 ? 1 : buffer.shape()[0];
        if (sum != rows) throw new ExecutionException(info.name() + ": " + side + " splits sum to " + sum
                + " rows, the buffer has " + rows);
        return at;
    }
}
