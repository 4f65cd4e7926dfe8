package org.hostir.studio.trace.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Launch;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TraceRun;

/**
 * The Host IR node of each device bar of an imported trace (the Studio's own traces name it in
 * {@link TimelineEvent#nodeId()} already):
 * <ul>
 * <li>by nvFuser's NVTX ranges: {@code HostIrEvaluator::runWithInputs} runs a container's top-level expressions in
 * order, each inside a range {@code "HostIrEvaluator::dispatch " + e->getOpString()} (nvFuser
 * csrc/host_ir/evaluator.cpp:66-83 at 81c4b22fd, through FUSER_PERF_SCOPE, csrc/instrumentation.h:103); a bar whose
 * launching call lies in the k-th such range of a run (counted from 0 anew in each {@code runWithInputs} range) is
 * work of top-level node k, named {@code "<op> #k"};</li>
 * <li>else by kernel name: an NCCL kernel is the Communication of its collective
 * ({@code ncclDevKernel_AllGather_RING_LL}: {@code Communication AllGather}; Send, Recv and SendRecv:
 * {@code P2PCommunication}), as is a peer-to-peer copy (a copy engine pulling a peer's chunk); PyTorch's symmetric
 * memory kernels ({@code c10d::symmetric_memory::}) are a Communication over symmetric memory; a GEMM library's
 * kernel (gemm, nvjet, cutlass, xmma) is a matmul, and a kernel nvFuser compiled ({@code nvfuser_*}) a fusion's
 * LaunchKernel.</li>
 * </ul>
 * Given the program of each rank ({@link ProgramNode}s: the Studio's lowering of the fusion that ran, or the
 * {@code NVFUSER_DUMP=host_ir} log of the run), a range's position picks the node, whose id the match then carries;
 * a range whose op is not that node's is left unnamed by the program and counted in {@link #mismatches()}.
 * Immutable; one {@link Match} per matched bar, in timeline order.
 */
public record NodeMatching(List<Match> matches, int mismatches) {
    /** How a bar was matched. */
    public enum How {
        NVTX_RANGE("nvFuser's NVTX range"), KERNEL_NAME("kernel name");

        private final String words;

        How(String words) {
            this.words = words;
        }

        public String words() { return words; }
    }

    /**
     * A device bar and its node: {@code index} is the top-level node's position (-1 when matched by name),
     * {@code nodeId} the program's node id (-1 without a program).
     */
    public record Match(TimelineEvent event, String node, int index, int nodeId, How how) {
    }

    /** nvFuser's range around one top-level expression; the rest of the name is the op string. */
    public static final String DISPATCH = "HostIrEvaluator::dispatch ";
    /** nvFuser's range around one run of a container. */
    public static final String RUN = "HostIrEvaluator::runWithInputs";
    private static final Pattern NCCL = Pattern.compile("nccl(?:Dev)?Kernel_([A-Za-z]+)");
    private static final Pattern GEMM = Pattern.compile("gemm|nvjet|cutlass|xmma|matmul");

    public NodeMatching {
        matches = List.copyOf(matches);
    }

    /** The matches of a run; none for the Studio's own runs, whose bars name their node. */
    public static NodeMatching of(TraceRun run) {
        return of(run, List.of());
    }

    /** The matches of a run whose ranks ran the given programs' top-level nodes. */
    public static NodeMatching of(TraceRun run, List<ProgramNode> program) {
        if (run.fromStudio()) return new NodeMatching(List.of(), 0);
        Map<List<Integer>, ProgramNode> nodes = new HashMap<>();
        for (ProgramNode n : program) nodes.put(List.of(n.rank(), n.index()), n);
        int[] mismatches = {0};
        Map<TimelineEvent, Match> byRange = byRange(run, nodes, mismatches);
        List<Match> matches = new ArrayList<>();
        for (TimelineEvent e : run.timeline().events()) {
            if (e.stream() < 0) continue;
            Match m = byRange.get(e);
            if (m == null) m = byName(e);
            if (m != null) matches.add(m);
        }
        return new NodeMatching(matches, mismatches[0]);
    }

    /** The device bars launched inside nvFuser's dispatch ranges. */
    private static Map<TimelineEvent, Match> byRange(TraceRun run, Map<List<Integer>, ProgramNode> nodes, int[] mismatches) {
        Map<List<Integer>, List<Match>> ranges = new LinkedHashMap<>();
        Map<List<Integer>, Integer> ordinal = new LinkedHashMap<>();
        for (TimelineEvent e : run.timeline().events()) { // per rank and row, in start order
            if (e.stream() >= 0) continue;
            List<Integer> row = List.of(e.rank(), e.stream());
            if (e.name().equals(RUN)) ordinal.put(row, 0);
            if (!e.name().startsWith(DISPATCH)) continue;
            int k = ordinal.merge(row, 1, Integer::sum) - 1;
            String op = e.name().substring(DISPATCH.length()).strip();
            ProgramNode node = nodes.get(List.of(e.rank(), k));
            boolean named = node != null && ProgramNode.bare(op).equals(ProgramNode.bare(node.op()));
            if (node != null && !named) mismatches[0]++;
            ranges.computeIfAbsent(row, r -> new ArrayList<>()).add(new Match(e, op + " #" + k
                    + (named ? " (node " + node.nodeId() + ")" : ""), k, named ? node.nodeId() : -1, How.NVTX_RANGE));
        }
        Map<TimelineEvent, Match> found = new IdentityHashMap<>();
        for (Launch l : run.launches()) {
            TimelineEvent call = l.host();
            List<Match> row = ranges.getOrDefault(List.of(call.rank(), call.stream()), List.of());
            Match range = enclosing(row, call.startNs());
            if (range != null) {
                found.put(l.device(), new Match(l.device(), range.node(), range.index(), range.nodeId(), How.NVTX_RANGE));
            }
        }
        return found;
    }

    /** The last range of a row (in start order; top-level ranges do not overlap) that began by {@code t} and holds it. */
    private static Match enclosing(List<Match> ranges, long t) {
        int lo = 0, hi = ranges.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ranges.get(mid).event().startNs() <= t) lo = mid + 1;
            else hi = mid;
        }
        if (lo == 0) return null;
        Match m = ranges.get(lo - 1);
        return m.event().endNs() >= t ? m : null;
    }

    private static Match byName(TimelineEvent e) {
        String n = e.name();
        Matcher nccl = NCCL.matcher(n);
        if (nccl.find()) {
            String op = nccl.group(1);
            boolean p2p = op.equals("Send") || op.equals("Recv") || op.equals("SendRecv");
            return new Match(e, p2p ? "P2PCommunication" : "Communication " + op, -1, -1, How.KERNEL_NAME);
        }
        if (e.kind() == EventKind.P2P) return new Match(e, "P2PCommunication", -1, -1, How.KERNEL_NAME);
        if (n.contains("symmetric_memory::")) return new Match(e, "Communication (symmetric memory)", -1, -1, How.KERNEL_NAME);
        String lower = n.toLowerCase(Locale.ROOT);
        if (lower.startsWith("nvfuser_")) return new Match(e, "LaunchKernel " + n, -1, -1, How.KERNEL_NAME);
        if (GEMM.matcher(lower).find()) return new Match(e, "matmul", -1, -1, How.KERNEL_NAME);
        return null;
    }

    /** Device time per node, the largest first: node, how, bars, total nanoseconds. */
    public List<NodeTime> byNode() {
        Map<List<Object>, long[]> sums = new LinkedHashMap<>();
        for (Match m : matches) {
            long[] s = sums.computeIfAbsent(List.of(m.node(), m.how(), m.index()), k -> new long[2]);
            s[0]++;
            s[1] += m.event().durationNs();
        }
        List<NodeTime> rows = new ArrayList<>();
        sums.forEach((k, s) -> rows.add(new NodeTime((String) k.get(0), (How) k.get(1), (int) s[0], s[1])));
        rows.sort(Comparator.comparingLong(NodeTime::totalNs).reversed().thenComparing(NodeTime::node));
        return rows;
    }

    /** One node's device bars in all ranks. */
    public record NodeTime(String node, How how, int bars, long totalNs) {
    }
}
