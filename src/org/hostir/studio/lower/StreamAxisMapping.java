package org.hostir.studio.lower;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;

/**
 * Which axes are the same dimension, joined through the ops producer to consumer: the part of nvFuser's IdModel
 * (BROADCAST graph) that StreamParallelType asks {@code areIdsMapped} of. Built once over all the ops, so later ops
 * connect axes of earlier ones, as the IdModel of the whole container does. Built over the whole fusion rather
 * than one rank's program: nvFuser's IdModel sees only the rank's container, so a rank without the op joining two
 * axes would split a loop that the other ranks merge, and their collectives would pair up wrongly (found by the
 * property test: a wrong answer).
 */
final class StreamAxisMapping {
    private final Map<Integer, Integer> parent = new HashMap<>();

    private StreamAxisMapping() {}

    static StreamAxisMapping of(List<FusionOp> ops) {
        StreamAxisMapping m = new StreamAxisMapping();
        for (FusionOp op : ops) {
            for (int i = 0; i < op.inputs().size(); i++) {
                List<IterDomain> in = op.inputs().get(i).axes();
                for (int p = 0; p < in.size(); p++) {
                    int o = consumerAxis(op, i, p);
                    if (o != AxisMap.NONE) m.union(in.get(p).id(), op.output().axis(o).id());
                }
            }
        }
        return m;
    }

    boolean mapped(IterDomain a, IterDomain b) { return find(a.id()) == find(b.id()); }

    /**
     * The output axis input axis {@code p} becomes. A reduction keeps its input's other axes in order among the
     * output's non-reduction axes and may place its reduction axes anywhere (the seeds' matmul_AR prints
     * {@code [Stream S, rD, ...] = sum([DIDx D, Stream S, ...])}), so it is mapped by order, not position.
     */
    static int consumerAxis(FusionOp op, int input, int p) {
        if (!(op instanceof FusionOp.Reduction r)) return AxisMap.of(op, input)[p];
        boolean reduced = r.axes().contains(p);
        long before = IntStream.range(0, p)
                .filter(k -> !r.input().axis(k).isReduction() && r.axes().contains(k) == reduced).count();
        int seen = 0;
        for (int o = 0; o < r.output().rank(); o++) {
            if (r.output().axis(o).isReduction() != reduced) continue;
            if (seen++ == before) return o;
        }
        return AxisMap.NONE;
    }

    /**
     * The representative of {@code id}'s class, with the path to it compressed: a chain of ops joins its axes into
     * one long path, and without compression each look-up walked it (quadratic in the ops; a 1,000-op fusion spent
     * seconds here in every check, issue 35).
     */
    private int find(int id) {
        int root = id;
        while (parent.containsKey(root)) root = parent.get(root);
        for (int k = id; k != root; ) {
            int next = parent.get(k);
            parent.put(k, root);
            k = next;
        }
        return root;
    }

    private void union(int a, int b) {
        int ra = find(a);
        int rb = find(b);
        if (ra != rb) parent.put(ra, rb);
    }
}
