package org.hostir.studio.export;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterTransform;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;

/**
 * The nvFuser scheduling calls that rebuild a tensor's loop domain from its logical one: its splits and merges in
 * order (at the positions they find), one reorder to the final loop order, the parallel types, and the
 * allocation domain. Positions are replayed here, so the calls hold whatever order the file's steps took.
 */
final class LoopCalls {
    sealed interface Call {}

    record Split(int axis, long factor, boolean innerSplit) implements Call {}

    record Merge(int axis) implements Call {}

    /** {@code tv->reorder({{old, new}, ...})}: old position {@code from.get(i)} goes to position i. */
    record Reorder(List<Integer> from) implements Call {}

    record Parallelize(int axis, ParallelType type) implements Call {}

    /** {@code tv->swizzle1d(axis, type)}. */
    record Swizzle1D(int axis, ParallelType type) implements Call {}

    record AllocationIsLoop() implements Call {}

    private LoopCalls() {}

    /** The calls that schedule {@code t}'s loop domain; a refusal is about {@code t}. */
    static List<Call> of(TensorView tv) throws ExportException {
        LoopDomain loop = tv.loop();
        List<Integer> ids = new ArrayList<>(loop.logical().stream().map(IterDomain::id).toList());
        List<Call> calls = new ArrayList<>();
        for (IterTransform t : loop.transforms()) {
            switch (t) {
                case IterTransform.Split s -> {
                    int pos = ids.indexOf(s.in());
                    calls.add(new Split(pos, constant(tv, s.factor()), s.innerSplit()));
                    ids.set(pos, s.outer().id());
                    ids.add(pos + 1, s.inner().id());
                }
                case IterTransform.Swizzle1D z -> {
                    int pos = ids.indexOf(z.in().id());
                    calls.add(new Swizzle1D(pos, z.parallelType()));
                    ids.set(pos, z.out().id());
                }
                case IterTransform.Merge m -> {
                    int pos = ids.indexOf(m.outer());
                    if (ids.indexOf(m.inner()) != pos + 1) {
                        throw new ExportException(tv.subject(), "a merge of loop axes that are not next to each other");
                    }
                    calls.add(new Merge(pos));
                    ids.remove(pos + 1);
                    ids.set(pos, m.out().id());
                }
            }
        }
        List<Integer> from = loop.loop().stream().map(a -> ids.indexOf(a.id())).toList();
        boolean identity = true;
        for (int i = 0; i < from.size(); i++) identity &= from.get(i) == i;
        if (!identity) calls.add(new Reorder(from));
        for (int i = 0; i < loop.loop().size(); i++) {
            ParallelType p = loop.loop().get(i).parallelType();
            if (p != ParallelType.SERIAL) calls.add(new Parallelize(i, p));
        }
        if (loop.allocationIsLoop()) calls.add(new AllocationIsLoop());
        return calls;
    }

    private static long constant(TensorView t, Scalar factor) throws ExportException {
        if (factor instanceof Extent.Constant(long v)) return v;
        throw new ExportException(t.subject(), "a split factor that is not a number");
    }
}
