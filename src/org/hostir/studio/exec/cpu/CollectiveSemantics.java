package org.hostir.studio.exec.cpu;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Rounding;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.host.CommunicationType;

/**
 * What each collective computes, on flat buffers in logical element order: chunk j of a gathered or scattered
 * buffer is the outermost-axis slice of {@code senders[j]} or for {@code receivers[j]}. A buffer is a 1-D
 * contiguous {@link DenseTensor} in the sender's dtype, so a double buffer moves and reduces in float64 and a
 * float32 one (float, bfloat16, half, ..) in float32, as NCCL reduces each type in itself.
 */
final class CollectiveSemantics {
    /** One rank's contribution: its input (or null) and how many elements its output takes (or -1). */
    record Part(CommunicationType type, int root, List<Integer> senders, List<Integer> receivers, DenseTensor input,
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
        int length = length(input(parts, team.get(0)));
        if (length % n != 0) throw new IllegalStateException(length + " elements do not split evenly over " + n
                + " ranks");
        int chunk = length / n;
        Map<Integer, Object> results = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Part p = parts.get(team.get(i));
            if (p == null || p.outputLength() < 0) continue;
            if (p.outputLength() != length) throw new IllegalStateException("rank " + team.get(i) + " receives into "
                    + p.outputLength() + " elements, the all-to-all delivers " + length);
            DenseTensor out = DenseTensor.zeros(input(parts, team.get(0)).dtype(), length);
            for (int j = 0; j < n; j++) {
                DenseTensor in = input(parts, team.get(j));
                if (length(in) != length) throw new IllegalStateException("rank " + team.get(j) + " sends "
                        + length(in) + " elements, rank " + team.get(0) + " " + length);
                out.narrow(0, j * chunk, chunk).copyFrom(in.narrow(0, i * chunk, chunk));
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

    private static int length(DenseTensor flat) { return (int) flat.numel(); }

    private static DenseTensor input(Map<Integer, Part> parts, int rank) {
        Part p = parts.get(rank);
        if (p == null || p.input() == null) throw new IllegalStateException("rank " + rank + " has no input to send");
        return p.input();
    }

    private static DenseTensor concat(List<Integer> senders, Map<Integer, Part> parts) {
        DenseTensor first = input(parts, senders.get(0));
        int chunk = length(first);
        DenseTensor all = DenseTensor.zeros(first.dtype(), (long) chunk * senders.size());
        for (int j = 0; j < senders.size(); j++) {
            DenseTensor in = input(parts, senders.get(j));
            if (length(in) != chunk) throw new IllegalStateException("rank " + senders.get(j) + " sends "
                    + length(in) + " elements, rank " + senders.get(0) + " " + chunk);
            all.narrow(0, (long) j * chunk, chunk).copyFrom(in);
        }
        return all;
    }

    private static DenseTensor reduce(Part any, Map<Integer, Part> parts) {
        ReductionOpType op = any.reduction();
        DenseTensor acc = input(parts, any.senders().get(0)).copy();
        for (int s : any.senders().subList(1, any.senders().size())) {
            DenseTensor in = input(parts, s);
            if (length(in) != length(acc) || in.dtype() != acc.dtype()) {
                throw new IllegalStateException("rank " + s + " reduces " + length(in) + " " + in.dtype().fileName()
                        + " elements, others " + length(acc) + " " + acc.dtype().fileName());
            }
            combineInto(op, acc, in);
        }
        return acc;
    }

    /** acc = acc (op) in, element by element, in the buffers' own precision; both are contiguous 1-D. */
    private static void combineInto(ReductionOpType op, DenseTensor acc, DenseTensor in) {
        int n = length(acc);
        if (acc.isIntegral()) {
            long[] a = acc.intBuffer();
            long[] b = in.intBuffer();
            for (int i = 0; i < n; i++) {
                a[acc.offset() + i] = Rounding.wrap(combine(op, a[acc.offset() + i], b[in.offset() + i]), acc.dtype());
            }
        } else if (acc.isWide()) {
            double[] a = acc.wideBuffer();
            double[] b = in.wideBuffer();
            for (int i = 0; i < n; i++) a[acc.offset() + i] = combine(op, a[acc.offset() + i], b[in.offset() + i]);
        } else {
            float[] a = acc.buffer();
            float[] b = in.buffer();
            for (int i = 0; i < n; i++) a[acc.offset() + i] = combine(op, a[acc.offset() + i], b[in.offset() + i]);
        }
    }

    /**
     * NCCL's ncclSum, ncclMax, ncclMin and ncclProd on one float32 element: the float64 step rounded once, which
     * is the float32 result bit for bit (double's 53 bits are more than 2 x 24 + 2, so a sum's or product's double
     * rounding is innocuous; max and min are exact).
     */
    static float combine(ReductionOpType op, float a, float b) { return (float) combine(op, (double) a, b); }

    /** NCCL's reductions on one integer (ncclInt32, ncclInt64): exact, wrapping as the integer type does. */
    static long combine(ReductionOpType op, long a, long b) {
        return switch (op) {
            case SUM -> a + b;
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            case PROD -> a * b;
        };
    }

    /** NCCL's reductions on one float64 element (ncclFloat64). */
    static double combine(ReductionOpType op, double a, double b) {
        return switch (op) {
            case SUM -> a + b;
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            case PROD -> a * b;
        };
    }

    /** Every rank with an output (or only {@code onlyRank}) gets {@code data}. */
    private static Map<Integer, Object> deliver(Map<Integer, Part> parts, DenseTensor data, int onlyRank) {
        Map<Integer, Object> results = new HashMap<>();
        parts.forEach((rank, p) -> {
            if (p.outputLength() < 0 || (onlyRank >= 0 && rank != onlyRank)) return;
            if (p.outputLength() != length(data)) throw new IllegalStateException("rank " + rank + " receives into "
                    + p.outputLength() + " elements, the collective delivers " + length(data));
            results.put(rank, data);
        });
        return results;
    }

    private static Map<Integer, Object> split(Map<Integer, Part> parts, DenseTensor data, List<Integer> receivers) {
        Map<Integer, Object> results = new HashMap<>();
        int chunk = length(data) / receivers.size();
        if (chunk * receivers.size() != length(data)) throw new IllegalStateException(length(data)
                + " elements do not split evenly over " + receivers.size() + " ranks");
        for (int j = 0; j < receivers.size(); j++) {
            int rank = receivers.get(j);
            Part p = parts.get(rank);
            if (p == null || p.outputLength() < 0) continue;
            if (p.outputLength() != chunk) throw new IllegalStateException("rank " + rank + " receives into "
                    + p.outputLength() + " elements, its chunk has " + chunk);
            results.put(rank, data.narrow(0, (long) j * chunk, chunk)); // a view: receivers only read it
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
