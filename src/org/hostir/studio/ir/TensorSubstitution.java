package org.hostir.studio.ir;

import java.util.Map;

/** Replaces tensors (matched by id) inside fusion ops: how passes rewire ops to new tensors and slices. */
public final class TensorSubstitution {
    private TensorSubstitution() {}

    public static TensorView apply(TensorView tv, Map<Integer, TensorView> replacements) {
        return tv == null ? null : replacements.getOrDefault(tv.id(), tv);
    }

    public static FusionOp apply(FusionOp op, Map<Integer, TensorView> r) {
        return switch (op) {
            case FusionOp.Set s -> new FusionOp.Set(apply(s.output(), r), apply(s.input(), r), s.permutation());
            case FusionOp.Unary u -> new FusionOp.Unary(u.op(), apply(u.output(), r), apply(u.input(), r));
            case FusionOp.Where w -> new FusionOp.Where(apply(w.output(), r), apply(w.condition(), r), apply(w.x(), r),
                    apply(w.y(), r));
            case FusionOp.Squeeze q -> new FusionOp.Squeeze(apply(q.output(), r), apply(q.input(), r), q.flags());
            case FusionOp.Expand e -> new FusionOp.Expand(apply(e.output(), r), apply(e.input(), r));
            case FusionOp.Reshape x -> new FusionOp.Reshape(apply(x.output(), r), apply(x.input(), r));
            case FusionOp.Binary b -> new FusionOp.Binary(b.op(), apply(b.output(), r), apply(b.lhs(), r),
                    apply(b.rhs(), r));
            case FusionOp.Reduction x -> new FusionOp.Reduction(x.op(), apply(x.output(), r), apply(x.input(), r),
                    x.axes());
            case FusionOp.Broadcast b -> new FusionOp.Broadcast(apply(b.output(), r), apply(b.input(), r),
                    b.flags());
            case FusionOp.Matmul m -> new FusionOp.Matmul(apply(m.output(), r), apply(m.a(), r), apply(m.b(), r));
            case FusionOp.Linear l -> new FusionOp.Linear(apply(l.output(), r), apply(l.input(), r),
                    apply(l.weight(), r), apply(l.bias(), r));
        };
    }
}
