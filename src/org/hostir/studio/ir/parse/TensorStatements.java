package org.hostir.studio.ir.parse;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.BinaryOpType;
import org.hostir.studio.ir.CastFunctions;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.UnaryOpType;
import org.hostir.studio.ir.host.Allocate;
import org.hostir.studio.ir.host.HirAliasSelect;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.ShardByStream;
import org.hostir.studio.ir.host.SymmetricContiguousView;

/**
 * The statements that open with their output tensor: {@code T = ALLOCATE(...)}, the slice
 * ({@code HirAliasSelect}, early {@code select}) and the host ops {@code FusionOpPrinter} writes (Set,
 * Set.Permute, unary and cast, binary, where, reduction, broadcast, squeeze, expand, matmul, linear).
 */
final class TensorStatements {
    private final DumpCursor in;
    private final ReadState state;
    private final DumpValues values;

    TensorStatements(DumpCursor in, ReadState state, DumpValues values) {
        this.in = in;
        this.state = state;
        this.values = values;
    }

    HostNode read() {
        TensorView out = values.tensor();
        in.expect("=");
        if (in.accept("ALLOCATE(")) return allocate(out);
        if (in.accept("HirAliasSelect(")) {
            state.saw("HirAliasSelect", NvFuserGeneration.where(g -> g.selectName().equals("HirAliasSelect")));
            return select(out);
        }
        if (in.accept("select(")) {
            state.saw("select", NvFuserGeneration.where(g -> g.selectName().equals("select")));
            return select(out);
        }
        // ShardByStream::toString (csrc/host_ir/ir.cpp:442); quoted dumps also spell "stream_index = i"
        if (in.accept("ShardByStream(")) {
            TensorView source = values.tensor();
            in.expect(",");
            in.expect("stream_index");
            in.expect("=");
            Scalar index = values.scalar();
            in.expect(")");
            state.saw("ShardByStream", NvFuserGeneration.V2026_04);
            return new ShardByStream(state.freshNodeId(), out, source, index);
        }
        if (in.accept("SymmetricContiguousView(")) {
            TensorView source = values.tensor();
            in.expect(")");
            state.saw("SymmetricContiguousView", NvFuserGeneration.V2026_04);
            return new SymmetricContiguousView(state.freshNodeId(), out, source);
        }
        return new HostOp(state.freshNodeId(), op(out, false));
    }

    /** A fusion op after {@code out}: a host op, or ({@code expectEquals}) a line of a HostUnit's kernel. */
    FusionOp op(TensorView out, boolean expectEquals) {
        if (expectEquals) in.expect("=");
        if (in.next() == 'T') return binary(out);
        if (in.accept("-")) return unary(out, UnaryOpType.NEG);
        String name = in.word();
        in.expect("(");
        UnaryOpType unary = unaryNamed(name, out);
        if (unary != null) return unary(out, unary);
        FusionOp op = switch (name) {
            case "Set", "Set.Permute" -> set(out, name.equals("Set.Permute"));
            case "reduction" -> reduction(out);
            case "broadcast" -> broadcast(out);
            case "squeeze" -> new FusionOp.Squeeze(out, values.tensor(), flags());
            case "expand" -> new FusionOp.Expand(out, values.tensor());
            case "reshape" -> new FusionOp.Reshape(out, values.tensor());
            case "where" -> where(out);
            case "matmul" -> new FusionOp.Matmul(out, values.tensor(), after(","));
            case "linear" -> linear(out);
            default -> throw new DumpFormatException("unknown op '" + name + "'", in.pos());
        };
        in.expect(")");
        if (op instanceof FusionOp.Where) in.expect(";");
        return op;
    }

    /**
     * The unary op printed as {@code name}: an op's dump name, with {@code f} on a float output where nvFuser adds
     * it, or a cast function ({@code __float2bfloat}); null for any other name.
     */
    private static UnaryOpType unaryNamed(String name, TensorView out) {
        if (name.startsWith("__")) return UnaryOpType.CAST;
        for (UnaryOpType t : UnaryOpType.values()) {
            if (t == UnaryOpType.CAST || t.inlineSymbol().isPresent()) continue;
            boolean suffixed = out.dtype() == DataType.FLOAT && t.floatSuffix();
            if (name.equals(t.dumpName() + (suffixed ? "f" : ""))) return t;
        }
        return null;
    }

    /** The operand and the closing {@code );} of {@code -T0;} or {@code expf(T0);} (the name already read). */
    private FusionOp unary(TensorView out, UnaryOpType op) {
        TensorView input = values.tensor();
        if (op.inlineSymbol().isEmpty()) in.expect(")");
        in.expect(";");
        if (op == UnaryOpType.CAST && CastFunctions.name(input.dtype(), out.dtype()).isEmpty()) {
            throw in.error("no cast function from " + input.dtype().fileName() + " to " + out.dtype().fileName());
        }
        return new FusionOp.Unary(op, out, input);
    }

    private TensorView after(String separator) {
        in.expect(separator);
        return values.tensor();
    }

    /** kir::Allocate with buffer and size, or (main's host_ir_lowering) hir::Allocate with neither. */
    private Allocate allocate(TensorView out) {
        boolean kernelIr = in.accept("buffer=");
        if (kernelIr) {
            TensorView buffer = values.tensor();
            if (!buffer.equals(out)) throw in.error("ALLOCATE's buffer is not the tensor it defines");
            in.expect(",");
        }
        in.expect("mem_type=");
        String memory = in.word();
        MemoryType type = null;
        for (MemoryType m : MemoryType.values()) {
            if (m.dumpName().equals(memory)) type = m;
        }
        if (type == null) throw in.error("unknown mem_type '" + memory + "'");
        in.expect(",");
        Scalar size = out.allocationSize();
        if (kernelIr) {
            in.expect("size=");
            size = values.scalar();
            in.expect(",");
        }
        in.expect("zero_init=");
        boolean zeroInit = bool();
        if (kernelIr) {
            in.expect(",");
            in.expect("resets_to_zero=false");
        } else {
            state.saw("ALLOCATE(mem_type=.., zero_init=..)", NvFuserGeneration.V2026_04);
        }
        in.expect(")");
        return new Allocate(state.freshNodeId(), out, type, size, zeroInit,
                kernelIr ? Allocate.Form.KERNEL_IR : Allocate.Form.HOST_IR);
    }

    private boolean bool() {
        String word = in.word();
        return switch (word) {
            case "true" -> true;
            case "false" -> false;
            default -> throw in.error("expected true or false");
        };
    }

    private HirAliasSelect select(TensorView out) {
        TensorView input = values.tensor();
        in.expect(",");
        in.expect("axis");
        in.expect("=");
        IterDomain axis = values.iterDomain();
        in.expect(",");
        in.expect("index");
        in.expect("=");
        Scalar index = values.scalar();
        in.expect(")");
        return new HirAliasSelect(state.freshNodeId(), out, input, axis, index);
    }

    private FusionOp binary(TensorView out) {
        TensorView lhs = values.tensor();
        BinaryOpType op = null;
        for (BinaryOpType t : BinaryOpType.values()) {
            if (op == null && in.accept(t.symbol())) op = t;
        }
        if (op == null) throw in.error("expected a binary operator");
        TensorView rhs = values.tensor();
        in.expect(";");
        return new FusionOp.Binary(op, out, lhs, rhs);
    }

    private FusionOp set(TensorView out, boolean permute) {
        TensorView input = values.tensor();
        in.expect(",");
        in.expect("cache_op=Streaming");
        if (!permute) return new FusionOp.Set(out, input);
        List<Integer> permutation = Permutations.infer(input, out);
        if (permutation == null) throw in.error("Set.Permute whose permutation the axes do not tell");
        return new FusionOp.Set(out, input, permutation);
    }

    private FusionOp reduction(TensorView out) {
        TensorView input = values.tensor();
        in.expect(",");
        in.expect("op");
        in.expect("=");
        String name = in.word();
        ReductionOpType type = null;
        for (ReductionOpType t : ReductionOpType.values()) {
            if (t.dumpName().equals(name)) type = t;
        }
        if (type == null) throw in.error("unknown reduction op '" + name + "'");
        in.expect(",");
        in.expect("initial value");
        in.expect("=");
        in.expect(type.initialValue());
        in.expect(",");
        in.expect("allreduce");
        in.expect("=");
        in.expect("false");
        List<Integer> axes = new ArrayList<>();
        for (int i = 0; i < out.rank(); i++) {
            if (out.axis(i).isReduction()) axes.add(i);
        }
        return new FusionOp.Reduction(type, out, input, axes);
    }

    private FusionOp broadcast(TensorView out) {
        TensorView input = values.tensor();
        return new FusionOp.Broadcast(out, input, flags());
    }

    /** {@code , flags = {true, false}} after the operand of broadcast and squeeze. */
    private List<Boolean> flags() {
        in.expect(",");
        in.expect("flags");
        in.expect("=");
        in.expect("{");
        List<Boolean> flags = new ArrayList<>();
        if (!in.accept("}")) {
            do flags.add(bool()); while (in.accept(","));
            in.expect("}");
        }
        return flags;
    }

    /** TernaryOp where: {@code where(c\n, x\n, y);} (the closing parenthesis is read by the caller). */
    private FusionOp where(TensorView out) {
        TensorView condition = values.tensor();
        TensorView x = after(",");
        TensorView y = after(",");
        return new FusionOp.Where(out, condition, x, y);
    }

    private FusionOp linear(TensorView out) {
        TensorView input = values.tensor();
        TensorView weight = after(",");
        TensorView bias = in.peek(",") ? after(",") : null;
        return new FusionOp.Linear(out, input, weight, bias);
    }
}
