package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.runtime;
import static org.hostir.studio.ir.op.Shapes.shape;

import java.util.List;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.AxisMap;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.ReshapeAxes;
import org.hostir.studio.ir.TensorView;

/**
 * ReshapeOp (the former ViewOp): the input's elements in order, in the output's shape; the output's axes give the
 * new extents. Axes kept whole are found by {@link ReshapeAxes}.
 */
final class ReshapeOp implements OpDefinition<FusionOp.Reshape> {
    public List<String> fileNames() { return List.of("reshape"); }

    public OpWork work() { return OpWork.MOVE; }

    public int minInputs() { return 1; }

    public FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes a) {
        return new FusionOp.Reshape(output, inputs.get(0));
    }

    /**
     * The element count, and the DID axes: each must stay one axis, with equal products of the extents before
     * it on both sides. nvFuser keeps a sharding through a reshape only on the outermost reshaped axis of an outer
     * split by the device count (csrc/multidevice/propagation.cpp), which a logical DID axis cannot express.
     */
    public void checkShape(FusionOp.Reshape r, OpChecks c) {
        List<IterDomain> in = runtime(r.input());
        List<IterDomain> out = r.output().axes();
        if (!c.noReductions(OpRule.SHAPE_RESHAPE) || !c.outputSizedByInputs(OpRule.SHAPE_RESHAPE)) return;
        if (!ReshapeAxes.sameCount(in, out, c::value)) {
            c.fail(OpRule.SHAPE_RESHAPE, "the input " + shape(in) + " and the output " + shape(out)
                    + " have different numbers of elements");
            return;
        }
        int[] kept = ReshapeAxes.kept(in, out, c::value);
        if (keptAxesSharded(c, in, out, kept)) madeAxesUnsharded(c, out, kept);
    }

    /** Each DID input axis is kept whole as an output axis of its parallel type; false after a report. */
    private static boolean keptAxesSharded(OpChecks c, List<IterDomain> in, List<IterDomain> out, int[] kept) {
        for (int i = 0; i < in.size(); i++) {
            if (!in.get(i).isDeviceDim()) continue;
            if (kept[i] == AxisMap.NONE) {
                c.fail(OpRule.RESHAPE_SHARDED_AXIS, "input axis " + i + " of " + shape(in) + " is "
                        + in.get(i).parallelType().fileName() + "-sharded and the reshape to " + shape(out)
                        + " splits or merges it; keep it a whole axis of the output with the same parallel type");
                return false;
            }
            if (out.get(kept[i]).parallelType() != in.get(i).parallelType()) {
                // the reshape is fine: the output does not say the kept axis is sharded (issue 30 item 10)
                c.fail(OpRule.RESHAPE_SHARDED_AXIS, "input axis " + i + " of " + shape(in) + " is "
                        + in.get(i).parallelType().fileName() + "-sharded and the reshape keeps it whole as output"
                        + " axis " + kept[i] + ", which is " + out.get(kept[i]).parallelType().fileName()
                        + "; annotate output axis " + kept[i] + " " + in.get(i).parallelType().fileName()
                        + " (a reshape moves no data between devices: to gather it, set the output afterwards)");
                return false;
            }
        }
        return true;
    }

    /** A DID output axis is one the reshape keeps whole. */
    private static void madeAxesUnsharded(OpChecks c, List<IterDomain> out, int[] kept) {
        for (int o = 0; o < out.size(); o++) {
            boolean fromInput = false;
            for (int k : kept) fromInput |= k == o;
            if (out.get(o).isDeviceDim() && !fromInput) {
                c.fail(OpRule.RESHAPE_SHARDED_AXIS, "output axis " + o + " of " + shape(out) + " is "
                        + out.get(o).parallelType().fileName() + "-sharded but is made by splitting or merging"
                        + " input axes; shard an axis the reshape keeps whole");
                return;
            }
        }
    }

    public void checkDtype(FusionOp.Reshape r, OpChecks c) { DtypeChecks.same(c, r); }

    /** The axes the reshape keeps whole take the input's extents; split and merged ones are the file's. */
    public void outputExtents(FusionOp.Reshape r, Extent[] e, BiPredicate<Extent, Extent> same) {
        List<IterDomain> in = runtime(r.input());
        int[] kept = ReshapeAxes.kept(in, r.output().axes());
        for (int i = 0; i < kept.length; i++) if (kept[i] != AxisMap.NONE) e[kept[i]] = in.get(i).extent();
    }

    /** ReshapeOp::toString is one line, as ExpandOp's (nvFuser also marks reshaped axes "rf", not kept here). */
    /** The new shape is the user's: the input's axes until they are edited. */
    public <A> List<A> proposedAxes(List<List<A>> in, OpAttributes a, AxisAlgebra<A> x) { return in.get(0); }

    public void dump(FusionOp.Reshape r, DumpLine d) {
        d.out().setLength(d.out().length() - 1);
        d.out().append(" = reshape( ").append(d.tensor(r.input())).append(" )\n");
    }

    public FusionOp readDump(String name, TensorView out, DumpReader in) {
        if (!name.equals("reshape")) return null;
        FusionOp op = new FusionOp.Reshape(out, in.tensor());
        in.expect(")");
        return op;
    }

    public <X extends Exception> String cpp(FusionOp.Reshape r, ExportNames<X> p) throws X {
        return "reshape(" + p.name(r.input()) + ", std::vector<Val*>{" + Spelling.cppVals(p.shape(r.output())) + "})";
    }

    public <X extends Exception> String python(FusionOp.Reshape r, ExportNames<X> p) throws X {
        return "fd.ops.reshape(" + p.name(r.input()) + ", new_shape=[" + Spelling.joined(p.shape(r.output())) + "])";
    }
}
