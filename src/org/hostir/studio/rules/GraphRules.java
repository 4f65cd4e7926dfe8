package org.hostir.studio.rules;

import static org.hostir.studio.rules.ValidationContext.tensor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.diag.Rule;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.TensorView;

/**
 * The dataflow rules: each tensor defined once, inputs not defined by ops, everything read is defined, no
 * cycles, ops in dataflow order. All loops are iterative: a fusion may have 100k ops.
 */
final class GraphRules {
    private final ValidationContext cx;
    private final Fusion fusion;
    /** Tensor id -> index of the (first) op that defines it. */
    private final Map<Integer, Integer> definedBy = new HashMap<>();
    private final Set<Integer> inputIds = new HashSet<>();

    GraphRules(ValidationContext cx, Fusion fusion) {
        this.cx = cx;
        this.fusion = fusion;
    }

    void check() {
        fusion.inputs().forEach(t -> inputIds.add(t.id()));
        if (fusion.outputs().isEmpty()) {
            cx.report(cx.locator.output(-1), Rule.GRAPH_NO_OUTPUTS,
                    "the fusion has no outputs");
        }
        List<FusionOp> ops = fusion.ops();
        for (int k = 0; k < ops.size(); k++) {
            TensorView out = ops.get(k).output();
            Integer first = definedBy.putIfAbsent(out.id(), k);
            if (first != null) {
                cx.report(cx.locator.op(k), Rule.GRAPH_REDEFINED, tensor(out) + " is already defined by "
                        + cx.locator.op(first).path() + " (" + ValidationContext.op(ops.get(first)) + ")");
            }
            if (inputIds.contains(out.id())) {
                cx.report(cx.locator.op(k), Rule.GRAPH_INPUT_DEFINED, tensor(out)
                        + " is a fusion input and cannot also be computed by " + ValidationContext.op(ops.get(k)));
            }
        }
        for (int k = 0; k < ops.size(); k++) {
            for (TensorView in : ops.get(k).inputs()) {
                if (!isDefined(in)) {
                    cx.report(cx.locator.op(k), Rule.GRAPH_UNDEFINED, ValidationContext.op(ops.get(k)) + " reads "
                            + tensor(in) + ", which is neither a fusion input nor computed by an op");
                }
            }
        }
        for (int i = 0; i < fusion.outputs().size(); i++) {
            TensorView out = fusion.outputs().get(i);
            if (!isDefined(out)) {
                cx.report(cx.locator.output(i), Rule.GRAPH_UNDEFINED, "output " + tensor(out)
                        + " is neither a fusion input nor computed by an op");
            }
        }
        if (!reportCycles()) reportOrder();
    }

    private boolean isDefined(TensorView t) {
        return inputIds.contains(t.id()) || definedBy.containsKey(t.id());
    }

    /** Index of the op that defines this op's k-th input, or -1. */
    private List<Integer> producers(int k) {
        List<Integer> out = new ArrayList<>();
        for (TensorView in : fusion.ops().get(k).inputs()) {
            Integer p = inputIds.contains(in.id()) ? null : definedBy.get(in.id());
            if (p != null) out.add(p);
        }
        return out;
    }

    /** Kahn's algorithm; the ops left over lie on or behind a cycle, and walking producers finds one. */
    private boolean reportCycles() {
        int n = fusion.ops().size();
        int[] pending = new int[n];
        List<List<Integer>> consumers = new ArrayList<>(n);
        for (int k = 0; k < n; k++) consumers.add(new ArrayList<>());
        for (int k = 0; k < n; k++) {
            for (int p : producers(k)) {
                pending[k]++;
                consumers.get(p).add(k);
            }
        }
        Deque<Integer> ready = new ArrayDeque<>();
        for (int k = 0; k < n; k++) if (pending[k] == 0) ready.add(k);
        boolean[] done = new boolean[n];
        while (!ready.isEmpty()) {
            int k = ready.poll();
            done[k] = true;
            for (int c : consumers.get(k)) if (--pending[c] == 0) ready.add(c);
        }
        boolean[] reported = new boolean[n];
        boolean any = false;
        for (int start = 0; start < n; start++) {
            if (done[start] || reported[start]) continue;
            // walk to a producer that is itself not done until an op repeats: that closes a cycle
            LinkedHashSet<Integer> walk = new LinkedHashSet<>();
            int k = start;
            while (walk.add(k)) {
                k = producers(k).stream().filter(p -> !done[p]).findFirst().orElseThrow();
            }
            List<Integer> cycle = new ArrayList<>();
            boolean in = false;
            for (int w : walk) {
                if (w == k) in = true;
                if (in) cycle.add(w);
            }
            boolean seen = cycle.stream().anyMatch(c -> reported[c]);
            cycle.forEach(c -> reported[c] = true);
            walk.forEach(w -> reported[w] = true);
            if (seen) continue;
            int first = cycle.stream().mapToInt(Integer::intValue).min().orElseThrow();
            StringBuilder text = new StringBuilder();
            for (int c : cycle.reversed()) text.append(ValidationContext.op(fusion.ops().get(c))).append("; ");
            cx.report(cx.locator.op(first), Rule.GRAPH_CYCLE, "the ops form a cycle: "
                    + text.substring(0, text.length() - 2));
            any = true;
        }
        return any;
    }

    private void reportOrder() {
        List<FusionOp> ops = fusion.ops();
        for (int k = 0; k < ops.size(); k++) {
            for (TensorView in : ops.get(k).inputs()) {
                Integer p = inputIds.contains(in.id()) ? null : definedBy.get(in.id());
                if (p != null && p > k) {
                    cx.report(cx.locator.op(k), Rule.GRAPH_ORDER, ValidationContext.op(ops.get(k)) + " reads "
                            + tensor(in) + " before " + cx.locator.op(p).path() + " computes it; list ops in"
                            + " dataflow order");
                }
            }
        }
    }
}
