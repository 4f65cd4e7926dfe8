package org.hostir.studio.ir.op;

import static org.hostir.studio.ir.op.Shapes.choose;
import static org.hostir.studio.ir.op.Shapes.extentsOf;
import static org.hostir.studio.ir.op.Shapes.runtime;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;

import org.hostir.studio.ir.CastFunctions;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.UnaryOpType;

/**
 * UnaryOp: one file op per {@link UnaryOpType}, whose constant carries the op's own names and dtype promotion, so a
 * new unary op is a constant there and its kernels. The output has the input's shape.
 */
final class UnaryOps implements OpDefinition<FusionOp.Unary> {
    public List<String> fileNames() { return Arrays.stream(UnaryOpType.values()).map(UnaryOpType::fileName).toList(); }

    public OpWork work() { return OpWork.ELEMENTWISE; }

    public int minInputs() { return 1; }

    public FusionOp build(String fileName, TensorView output, List<TensorView> inputs, OpAttributes a) {
        UnaryOpType type = UnaryOpType.fromFileName(fileName).orElseThrow();
        // castOp to the input's own dtype is a set (csrc/ops/arith.cpp)
        if (type == UnaryOpType.CAST && inputs.get(0).dtype() == output.dtype()) {
            return new FusionOp.Set(output, inputs.get(0));
        }
        return new FusionOp.Unary(type, output, inputs.get(0));
    }

    public void checkShape(FusionOp.Unary u, OpChecks c) {
        if (c.noReductions(OpRule.SHAPE_UNARY)) {
            c.sameShape(OpRule.SHAPE_UNARY, "output", u.output().axes(), extentsOf(runtime(u.input())));
        }
    }

    public void checkDtype(FusionOp.Unary u, OpChecks c) {
        if (u.op() == UnaryOpType.CAST) {
            DataType from = u.input().dtype();
            DataType to = u.output().dtype();
            if (from != to && CastFunctions.name(from, to).isEmpty()) {
                c.fail(OpRule.DTYPE_CAST, "cannot cast " + from.fileName() + " to " + to.fileName()
                        + " (nvFuser has no cast function for the pair)");
            }
        } else if (DtypeChecks.noFp8(c, u)) {
            DtypeChecks.expect(c, u, u.op().resultType(u.input().dtype()));
        }
    }

    /**
     * PyTorch's {@code -t} on bool raises (aten/src/ATen/native/UnaryOps.cpp TORCH_META_FUNC(neg): "Negation, the
     * `-` operator, on a bool tensor is not supported"), as its relu does (Activation.cpp: "Boolean inputs not
     * supported for relu").
     */
    public Optional<String> boolRefusal(FusionOp.Unary u) {
        if (u.op() == UnaryOpType.NEG) {
            return Optional.of("negation of a bool tensor is not supported (PyTorch refuses it: invert a mask with"
                    + " where, or cast to an integer first)");
        }
        if (u.op() == UnaryOpType.RELU) {
            return Optional.of("relu of a bool tensor is not supported (PyTorch refuses it: cast to an integer or"
                    + " float first)");
        }
        return Optional.empty();
    }

    public void outputExtents(FusionOp.Unary u, Extent[] e, BiPredicate<Extent, Extent> same) {
        List<IterDomain> in = runtime(u.input());
        for (int i = 0; i < in.size() && i < e.length; i++) e[i] = choose(in.get(i), in.get(i));
    }

    public <A> List<A> proposedAxes(List<List<A>> in, OpAttributes a, AxisAlgebra<A> x) { return in.get(0); }

    public void dump(FusionOp.Unary u, DumpLine d) {
        d.out().append(d.eq()).append(dumpCall(u, d.tensor(u.input()))).append(";\n");
    }

    /**
     * UnaryOp::printHelper: the inline symbol ({@code -T0}), the cast function of the dtype pair, or the op's
     * name with {@code f} on a float output where needFloatSuffix says so ({@code expf(T0)}).
     */
    static String dumpCall(FusionOp.Unary u, String input) {
        if (u.op().inlineSymbol().isPresent()) return u.op().inlineSymbol().get() + input;
        String name = u.op() == UnaryOpType.CAST
                ? CastFunctions.name(u.input().dtype(), u.output().dtype()).orElse("cast")
                : u.op().dumpName() + (u.output().dtype() == DataType.FLOAT && u.op().floatSuffix() ? "f" : "");
        return name + "(" + input + ")";
    }

    /**
     * {@code expf(T0);} or a cast function ({@code __float2bfloat(T0);}); neg prints inline ({@code -T0;}) and
     * the dump reader reads it by its symbol.
     */
    public FusionOp readDump(String name, TensorView out, DumpReader in) {
        UnaryOpType type = named(name, out);
        if (type == null) return null;
        TensorView input = in.tensor();
        in.expect(")");
        in.expect(";");
        if (type == UnaryOpType.CAST && CastFunctions.name(input.dtype(), out.dtype()).isEmpty()) {
            throw in.error("no cast function from " + input.dtype().fileName() + " to " + out.dtype().fileName());
        }
        return new FusionOp.Unary(type, out, input);
    }

    /**
     * The unary op printed as {@code name}: an op's dump name, with {@code f} on a float output where nvFuser adds
     * it, or a cast function ({@code __float2bfloat}); null for any other name.
     */
    private static UnaryOpType named(String name, TensorView out) {
        if (name.startsWith("__")) return UnaryOpType.CAST;
        for (UnaryOpType t : UnaryOpType.values()) {
            if (t == UnaryOpType.CAST || t.inlineSymbol().isPresent()) continue;
            boolean suffixed = out.dtype() == DataType.FLOAT && t.floatSuffix();
            if (name.equals(t.dumpName() + (suffixed ? "f" : ""))) return t;
        }
        return null;
    }

    public <X extends Exception> String cpp(FusionOp.Unary u, ExportNames<X> p) {
        return u.op() == UnaryOpType.CAST
                ? "castOp(" + p.dtype(u.output().dtype()) + ", " + p.name(u.input()) + ")"
                : u.op().fileName() + "(" + p.name(u.input()) + ")";
    }

    /**
     * fd.ops.&lt;op&gt;(x), fd.ops.cast(x, dtype=...) for a cast; gelu has no binding in nvfuser_direct, so it is
     * written as nvFuser's composite (csrc/ops/composite.cpp): x * (0.5 * (1 + erf(x * sqrt(1/2)))).
     */
    public <X extends Exception> String python(FusionOp.Unary u, ExportNames<X> p) {
        String x = p.name(u.input());
        if (u.op() == UnaryOpType.CAST) return "fd.ops.cast(" + x + ", dtype=" + p.dtype(u.output().dtype()) + ")";
        if (u.op() == UnaryOpType.GELU) {
            return "fd.ops.mul(" + x + ", fd.ops.mul(0.5, fd.ops.add(1.0, fd.ops.erf(fd.ops.mul(" + x
                    + ", 0.7071067811865476)))))";
        }
        return "fd.ops." + u.op().fileName() + "(" + x + ")";
    }
}
