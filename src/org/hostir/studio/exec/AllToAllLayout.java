package org.hostir.studio.exec;

import java.util.Arrays;
import java.util.List;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Communication;

/**
 * Whether an AllToAll's flat chunks are the slices it moves. nvFuser posts alltoall_base on the flattened
 * buffers (postAllToAll) without reordering axes, so chunk j of the input is the slice j of the output's sharded
 * axis only when every input axis before it holds one element per rank, and symmetrically for the output. A run
 * that breaks this would exchange the wrong elements; it is refused instead. {@code check} decides it up front
 * from the file's extents ({@link #problem}, engine.Engine.check), so a run meets it only without them.
 */
public final class AllToAllLayout {
    private AllToAllLayout() {}

    static void check(Communication c, ScalarEnv env) {
        String problem = problem(c, env);
        if (problem != null) {
            throw new ExecutionException(problem, List.of(c.output().subject(), c.input().subject()));
        }
    }

    /** Why the flat chunks of AllToAll {@code c} are not the slices it moves on this rank's shapes, or null. */
    public static String problem(Communication c, ScalarEnv env) {
        TensorView in = c.input();
        TensorView out = c.output();
        int p = runtimePosition(in);
        int q = runtimePosition(out);
        long[] inShape = env.localShape(in);
        long[] outShape = env.localShape(out);
        if (product(inShape, q) == 1 && product(outShape, p) == 1) return null;
        // the output first, as the failure's tensors: a run's failure is located at the op that writes it
        return "AllToAll " + c.id() + " into " + Texts.quote(out.label()) + " (" + out.name()
                + ") moves the sharding of " + Texts.quote(in.label()) + " (" + in.name() + ", axis " + p + ", local shape " + Arrays.toString(inShape)
                + ") to axis " + q + " (local shape " + Arrays.toString(outShape) + "), but an axis with more than"
                + " one element per rank comes first; nvFuser's AllToAll splits the flat buffers and does not reorder:"
                + " make the axes before the sharded ones size 1 per rank or move them after";
    }

    private static int runtimePosition(TensorView tv) {
        int pos = 0;
        for (var a : tv.axes()) {
            if (a.isReduction()) continue;
            if (a.isDeviceDim()) return pos;
            pos++;
        }
        throw new ExecutionException(Texts.quote(tv.label()) + " has no sharded axis for an AllToAll");
    }

    private static long product(long[] shape, int upTo) {
        long n = 1;
        for (int i = 0; i < upTo; i++) n *= shape[i];
        return n;
    }
}
