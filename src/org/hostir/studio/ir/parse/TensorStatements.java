package org.hostir.studio.ir.parse;

import java.util.ArrayList;
import java.util.List;

import org.hostir.studio.ir.BinaryOpType;
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
import org.hostir.studio.ir.op.DumpReader;
import org.hostir.studio.ir.op.OpFamily;

/**
 * The statements that open with their output tensor: {@code T = ALLOCATE(...)}, the slice
 * ({@code HirAliasSelect}, early {@code select}) and the host ops {@code FusionOpPrinter} writes (Set,
 * Set.Permute, unary and cast, binary, where, reduction, broadcast, squeeze, expand, matmul, linear).
 */
final class TensorStatements {
    /** The spelling {@code select( .. )}: HirAliasSelect before 2025, a fusion's SelectOp since. */
    static final String SELECT = "select";
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
            if (state.selectIsFusionOp) throw in.error("SelectOp, a fusion's select, is not modelled");
            state.saw(SELECT, NvFuserGeneration.where(g -> g.selectName().equals("select")));
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
        if (in.accept("-")) return negation(out);
        String name = in.word();
        in.expect("(");
        DumpReader reader = reader();
        for (OpFamily family : OpFamily.values()) {
            FusionOp op = family.definition().readDump(name, out, reader);
            if (op != null) return op;
        }
        throw new DumpFormatException("unknown op '" + name + "'", in.pos());
    }

    /** {@code -T0;}: UnaryOp's inline spelling of neg (the symbol already read). */
    private FusionOp negation(TensorView out) {
        TensorView input = values.tensor();
        in.expect(";");
        return new FusionOp.Unary(UnaryOpType.NEG, out, input);
    }

    /** The cursor and values as the op definitions read their calls. */
    private DumpReader reader() {
        return new DumpReader() {
            public TensorView tensor() { return values.tensor(); }

            public void expect(String s) { in.expect(s); }

            public boolean accept(String s) { return in.accept(s); }

            public boolean peek(String s) { return in.peek(s); }

            public String word() { return in.word(); }

            public List<Boolean> flags() { return TensorStatements.this.flags(); }

            public List<Integer> permutation(TensorView input, TensorView output) {
                return Permutations.infer(input, output);
            }

            public RuntimeException error(String message) { return in.error(message); }
        };
    }

    /**
     * kir::Allocate with buffer and size (csrc/kernel_ir.cpp:548-560: resets_to_zero, then, when it reuses another
     * allocation's buffer, a {@code .alias=} line one step deeper), or (main's host_ir_lowering) hir::Allocate with
     * neither (csrc/host_ir/ir.cpp:527-532).
     */
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
        boolean resetsToZero = false;
        if (kernelIr) {
            in.expect(",");
            in.expect("resets_to_zero=");
            resetsToZero = bool();
        } else {
            state.saw("ALLOCATE(mem_type=.., zero_init=..)", NvFuserGeneration.V2026_04);
        }
        in.expect(")");
        TensorView alias = kernelIr && in.accept(".alias=") ? values.tensor() : null;
        return new Allocate(state.freshNodeId(), out, type, size, zeroInit,
                kernelIr ? Allocate.Form.KERNEL_IR : Allocate.Form.HOST_IR, resetsToZero, alias);
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
}
