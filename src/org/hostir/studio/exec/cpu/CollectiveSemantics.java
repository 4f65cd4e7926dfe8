package org.hostir.studio.exec.cpu;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.host.CommunicationType;

/**
 * What each collective computes, on flat buffers in logical element order: chunk j of a gathered or scattered
 * buffer is the outermost-axis slice of {@code senders[j]} or for {@code receivers[j]}.
 */
final class CollectiveSemantics {
    /** One rank's contribution: its input (or null) and how many elements its output takes (or -1). */
    record Part(CommunicationType type, int root, List<Integer> senders, List<Integer> receivers, float[] input,
                int outputLength, ReductionOpType reduction) {}

    private CollectiveSemantics() {}

    static Map<Integer, Object> combine(Map<Integer, Object> contributions) {
        Map<Integer, Part> parts = new HashMap<>();
        contributions.forEach((rank, c) -> parts.put(rank, (Part) c));
        Part any = parts.values().iterator().next();
        for (var e : parts.entrySet()) {
            Part p = e.getValue();
            if (p.type() != any.type() || p.root() != any.root()) {
                throw new IllegalStateException("ranks disagree: " + describe(parts));
            }
        }
        // an exhaustive switch: a new communication type does not compile until its semantics are here
        return switch (any.type()) {
            case ALLGATHER -> deliver(parts, concat(any.senders(), parts), -1);
            case GATHER -> deliver(parts, concat(any.senders(), parts), any.root());
            case BROADCAST -> deliver(parts, input(parts, any.root()), -1);
            case SEND_RECV -> deliver(parts, input(parts, any.root()), receiver(parts.keySet(), any.root()));
            case SCATTER -> split(parts, input(parts, any.root()), any.receivers());
            case ALLREDUCE -> deliver(parts, reduce(any, parts), -1);
            case REDUCE -> deliver(parts, reduce(any, parts), any.root());
            case REDUCE_SCATTER -> split(parts, reduce(any, parts), any.receivers());
            case ALL_TO_ALL -> allToAll(parts, any.senders());
        };
    }

    /**
     * NCCL's (and c10d's alltoall_base) even all-to-all: each send buffer is cut into one chunk per team member;
     * team member i receives chunk i of every member j's buffer, in slot j of its own.
     */
    private static Map<Integer, Object> allToAll(Map<Integer, Part> parts, List<Integer> team) {
        int n = team.size();
        int length = input(parts, team.get(0)).length;
        if (length % n != 0) throw new IllegalStateException(length + " elements do not split evenly over " + n
                + " ranks");
        int chunk = length / n;
        Map<Integer, Object> results = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Part p = parts.get(team.get(i));
            if (p == null || p.outputLength() < 0) continue;
            if (p.outputLength() != length) throw new IllegalStateException("rank " + team.get(i) + " receives into "
                    + p.outputLength() + " elements, the all-to-all delivers " + length);
            float[] out = new float[length];
            for (int j = 0; j < n; j++) {
                float[] in = input(parts, team.get(j));
                if (in.length != length) throw new IllegalStateException("rank " + team.get(j) + " sends "
                        + in.length + " elements, rank " + team.get(0) + " " + length);
                System.arraycopy(in, i * chunk, out, j * chunk, chunk);
            }
            results.put(team.get(i), out);
        }
        return results;
    }

    /**
     * nvFuser's postSendRecv: the team is (sender receiver) and only the receiver takes the data, even where the
     * sender also holds the output (meshes {1 0} to {0 1}: each device is the receiver of one pair only).
     */
    private static int receiver(Set<Integer> team, int sender) {
        return team.stream().filter(r -> r != sender).findFirst().orElse(sender);
    }

    private static float[] input(Map<Integer, Part> parts, int rank) {
        Part p = parts.get(rank);
        if (p == null || p.input() == null) throw new IllegalStateException("rank " + rank + " has no input to send");
        return p.input();
    }

    private static float[] concat(List<Integer> senders, Map<Integer, Part> parts) {
        int chunk = input(parts, senders.get(0)).length;
        float[] all = new float[chunk * senders.size()];
        for (int j = 0; j < senders.size(); j++) {
            float[] in = input(parts, senders.get(j));
            if (in.length != chunk) throw new IllegalStateException("rank " + senders.get(j) + " sends " + in.length
                    + " elements, rank " + senders.get(0) + " " + chunk);
            System.arraycopy(in, 0, all, j * chunk, chunk);
        }
        return all;
    }

    private static float[] reduce(Part any, Map<Integer, Part> parts) {
        ReductionOpType op = any.reduction();
        float[] acc = input(parts, any.senders().get(0)).clone();
        for (int s : any.senders().subList(1, any.senders().size())) {
            float[] in = input(parts, s);
            if (in.length != acc.length) throw new IllegalStateException("rank " + s + " reduces " + in.length
                    + " elements, others " + acc.length);
            for (int i = 0; i < acc.length; i++) acc[i] = combine(op, acc[i], in[i]);
        }
        return acc;
    }

    /** NCCL's ncclSum, ncclMax, ncclMin and ncclProd on one element (float32, as the buffers hold it). */
    static float combine(ReductionOpType op, float a, float b) {
        return switch (op) {
            case SUM -> a + b;
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            case PROD -> a * b;
        };
    }

    /** Every rank with an output (or only {@code onlyRank}) gets {@code data}. */
    private static Map<Integer, Object> deliver(Map<Integer, Part> parts, float[] data, int onlyRank) {
        Map<Integer, Object> results = new HashMap<>();
        parts.forEach((rank, p) -> {
            if (p.outputLength() < 0 || (onlyRank >= 0 && rank != onlyRank)) return;
            if (p.outputLength() != data.length) throw new IllegalStateException("rank " + rank + " receives into "
                    + p.outputLength() + " elements, the collective delivers " + data.length);
            results.put(rank, data);
        });
        return results;
    }

    private static Map<Integer, Object> split(Map<Integer, Part> parts, float[] data, List<Integer> receivers) {
        Map<Integer, Object> results = new HashMap<>();
        int chunk = data.length / receivers.size();
        if (chunk * receivers.size() != data.length) throw new IllegalStateException(data.length
                + " elements do not split evenly over " + receivers.size() + " ranks");
        for (int j = 0; j < receivers.size(); j++) {
            int rank = receivers.get(j);
            Part p = parts.get(rank);
            if (p == null || p.outputLength() < 0) continue;
            if (p.outputLength() != chunk) throw new IllegalStateException("rank " + rank + " receives into "
                    + p.outputLength() + " elements, its chunk has " + chunk);
            results.put(rank, Arrays.copyOfRange(data, j * chunk, (j + 1) * chunk));
        }
        return results;
    }

    private static String describe(Map<Integer, Part> parts) {
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(parts).forEach((rank, p) -> sb.append(sb.isEmpty() ? "" : ", ").append("rank ")
                .append(rank).append(" posted ").append(p.type().dumpName())
                .append(p.root() >= 0 ? " (root " + p.root() + ")" : ""));
        return sb.toString();
    }
}
