package org.hostir.studio.ir.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.MeshLookup;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.ScalarBinary;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Stream;

/**
 * The values inside statements, in the spellings {@code ir.print.IrText} writes: tensors, iter domains, meshes,
 * scalars and streams. Anything else (an iter domain suffix such as {@code rf}, a parallel type the Studio does
 * not model) throws, and the statement holding it is kept as text.
 */
final class DumpValues {
    private static final Set<String> KNOWN_NAMES = Set.of(NamedScalar.STREAM_IDX.name(),
            NamedScalar.NUMBER_OF_STREAMS.name(), NamedScalar.RANK.name(), NamedScalar.DEVICE_ID.name());

    /** Deeper than any mesh nvFuser builds (it shards on DIDx, DIDy, DIDz); a bound against hostile nesting. */
    private static final int MAX_MESH_RANK = 8;

    private final DumpCursor in;
    private final ReadState state;

    /** How many expressions enclose the one being read. */
    private int scalarDepth;

    DumpValues(DumpCursor in, ReadState state) {
        this.in = in;
        this.state = state;
    }

    /** {@code T0_g_float[ideviceIdx.x0{i0}, iS1{i2}] (DeviceMesh{0 1})}, the mesh part optional. */
    TensorView tensor() {
        in.expect("T");
        int id = in.intNumber();
        if (in.here() != '_') throw in.error("expected '_' after the tensor number");
        in.advance();
        int letters = in.pos();
        while (Character.isLetter(in.here())) in.advance();
        MemoryType memory = memoryType(in.text().substring(letters, in.pos()));
        DataType dtype;
        if (in.here() == '[') { // nvFuser before #2889 printed no dtype: read as float, and the reader warns
            dtype = DataType.FLOAT;
            state.saw("tensors without a dtype", NvFuserGeneration.EARLY_2024);
        } else {
            if (in.here() != '_') throw in.error("expected '_' after the memory type");
            in.advance();
            int start = in.pos();
            while (in.here() != '[' && in.here() != 0 && !Character.isWhitespace(in.here())) in.advance();
            dtype = dataType(in.text().substring(start, in.pos()), start);
            state.saw("tensors with a dtype", NvFuserGeneration.where(NvFuserGeneration::printsDtype));
        }
        in.expect("[");
        List<LoopDomainReading.Printed> printed = new ArrayList<>();
        int axesAt = in.pos();
        if (!in.accept("]")) {
            do printed.add(axis()); while (in.accept(","));
            in.expect("]");
        }
        DeviceMesh mesh = null;
        if (in.peek("(DeviceMesh{")) {
            in.expect("(");
            mesh = mesh();
            in.expect(")");
        }
        state.sawTensor(id);
        return LoopDomainReading.tensor(id, dtype, memory, printed, mesh, axesAt);
    }

    private MemoryType memoryType(String letter) {
        for (MemoryType m : MemoryType.values()) {
            if (m.letter().equals(letter)) return m;
        }
        throw in.error("unknown memory type '" + letter + "'");
    }

    private DataType dataType(String name, int at) {
        for (DataType t : DataType.values()) {
            if (t.dumpName().equals(name)) return t;
        }
        throw new DumpFormatException("unknown data type '" + name + "'", at);
    }

    /** An iter domain whose extent is a symbol or a constant (a loop's, a select's axis). */
    IterDomain iterDomain() {
        int at = in.pos();
        LoopDomainReading.Printed p = axis();
        LoopDomain.Axis a = p.axis();
        if (!(a.extent() instanceof Extent e)) throw new DumpFormatException("expected an extent i<n> or a number", at);
        return new IterDomain(a.id(), e, a.iterType(), a.parallelType(), p.expanded());
    }

    /**
     * {@code iS1{i2}}, {@code ideviceIdx.x0{i0}}, {@code iStreamIdx2{i0}}, the early {@code iStream7{i0}}, and a
     * split's part {@code iS10{( ceilDiv(i0, 4) )}}, an expanded broadcast {@code bS16{1 ex i10}} (read as an axis of
     * the expanded extent, marked expanded: {@code IterDomain}).
     */
    private LoopDomainReading.Printed axis() {
        char letter = in.next();
        IterType type = switch (letter) {
            case 'i' -> IterType.ITERATION;
            case 'r' -> IterType.REDUCTION;
            case 'b' -> IterType.BROADCAST;
            default -> throw in.error("expected an iter domain");
        };
        in.advance();
        ParallelType parallel = parallelType();
        int id = in.intNumber();
        in.expect("{");
        // a split's part prints its extent as an expression, ( ceilDiv(i0, 4) ): LoopDomainReading takes only that
        Scalar extent = in.peek("(") ? scalar() : extent();
        boolean expanded = false;
        if (type == IterType.BROADCAST && extent.equals(Scalar.constant(1)) && in.accept(" ex ")) {
            extent = extent();
            type = IterType.ITERATION;
            expanded = true;
        }
        in.expect("}");
        // IterDomain::toString marks an rFactor product "rf" (csrc/ir/internal_base_nodes.cpp:319)
        boolean rfactor = in.text().startsWith("rf", in.pos()) && in.pos() + 2 <= in.end();
        if (rfactor) in.moveTo(in.pos() + 2);
        if (Character.isLetter(in.here())) throw in.error("unknown iter domain suffix");
        state.sawIterDomain(id);
        return new LoopDomainReading.Printed(new LoopDomain.Axis(id, extent, type, parallel, rfactor), expanded);
    }

    private ParallelType parallelType() {
        String rest = in.text().substring(in.pos(), Math.min(in.pos() + 12, in.end()));
        for (NvFuserGeneration g : NvFuserGeneration.values()) {
            String name = g.streamAxisName();
            if (rest.startsWith(name) && isDigitAt(rest, name.length())) {
                in.moveTo(in.pos() + name.length());
                state.saw("i" + name + " axes", NvFuserGeneration.where(x -> x.streamAxisName().equals(name)));
                return ParallelType.STREAM;
            }
        }
        for (ParallelType p : List.of(ParallelType.DIDX, ParallelType.DIDY)) {
            if (rest.startsWith(p.dumpName()) && isDigitAt(rest, p.dumpName().length())) {
                in.moveTo(in.pos() + p.dumpName().length());
                return p;
            }
        }
        if (rest.startsWith("S") && isDigitAt(rest, 1)) {
            in.advance();
            return ParallelType.SERIAL;
        }
        throw in.error("unknown parallel type");
    }

    private static boolean isDigitAt(String s, int i) { return i < s.length() && Character.isDigit(s.charAt(i)); }

    private Extent extent() {
        if (in.next() == 'i') {
            in.advance();
            return state.symbol(in.intNumber());
        }
        return new Extent.Constant(in.number());
    }

    /**
     * {@code DeviceMesh{0 1 2}}, or a mesh of several axes row by row, {@code DeviceMesh{{0 1}{2 3}}}: nvFuser opens
     * a brace per axis a row starts and closes one per axis it ends (operator<< at
     * csrc/multidevice/device_mesh.cpp:53-75 at 81c4b22fd), so the nesting depth is the rank and the rows are equal.
     */
    DeviceMesh mesh() {
        in.expect("DeviceMesh");
        List<Integer> ids = new ArrayList<>();
        List<Integer> shape = new ArrayList<>();
        meshAxis(ids, shape, 0);
        return shape.size() == 1 ? new DeviceMesh(ids) : new DeviceMesh(ids, shape);
    }

    /** One brace of a mesh at {@code axis}: device ids (the last axis) or the braces of the next axis. */
    private void meshAxis(List<Integer> ids, List<Integer> shape, int axis) {
        int at = in.pos();
        in.expect("{");
        if (axis >= MAX_MESH_RANK) throw in.error("a mesh of more than " + MAX_MESH_RANK + " axes");
        int count = 0;
        boolean rows = in.peek("{");
        while (!in.peek("}")) {
            if (rows) meshAxis(ids, shape, axis + 1);
            else ids.add(in.intNumber());
            count++;
        }
        in.expect("}");
        while (shape.size() <= axis) shape.add(-1);
        if (shape.get(axis) == -1) shape.set(axis, count);
        else if (shape.get(axis) != count) throw new DumpFormatException("a mesh's rows differ in length", at);
        if (!rows && axis + 1 < shape.size()) throw new DumpFormatException("a mesh's rows differ in depth", at);
    }

    /** Blank-separated device ids up to {@code close}, which is consumed. */
    List<Integer> ids(char close) {
        List<Integer> ids = new ArrayList<>();
        while (!in.accept(String.valueOf(close))) ids.add(in.intNumber());
        return ids;
    }

    /**
     * {@code ( StreamIdx % numberOfStreams )}, {@code i0}, {@code 36}, {@code DeviceMesh{1 0}.at(StreamIdx)};
     * nested at most {@link HostIrDumpReader#MAX_NESTING} deep, so that neither this nor a printer overflows the stack.
     */
    Scalar scalar() {
        if (++scalarDepth > HostIrDumpReader.MAX_NESTING) {
            scalarDepth--;
            throw new DumpFormatException("an expression nests " + HostIrDumpReader.MAX_NESTING + " deep at most",
                    in.pos(), DumpFormatException.LIMIT);
        }
        try {
            return nestedScalar();
        } finally {
            scalarDepth--;
        }
    }

    private Scalar nestedScalar() {
        if (in.accept("(")) {
            // IrText's ceilDiv: "( ceilDiv(a, b) )", also inside a larger expression (an ALLOCATE's size)
            if (in.accept("ceilDiv(")) {
                Scalar a = scalar();
                in.expect(",");
                Scalar b = scalar();
                in.expect(")");
                in.expect(")");
                return new ScalarBinary(ScalarBinary.Op.CEIL_DIV, a, b);
            }
            Scalar lhs = scalar();
            ScalarBinary.Op op = scalarOp();
            Scalar rhs = scalar();
            in.expect(")");
            return new ScalarBinary(op, lhs, rhs);
        }
        if (Character.isDigit(in.next())) return new Extent.Constant(in.number());
        if (in.peek("DeviceMesh{")) {
            DeviceMesh mesh = mesh();
            in.expect(".");
            String method = in.word();
            MeshLookup.Kind kind = switch (method) {
                case "at" -> MeshLookup.Kind.AT;
                case "idxOf" -> MeshLookup.Kind.IDX_OF;
                default -> throw in.error("unknown mesh lookup '" + method + "'");
            };
            in.expect("(");
            Scalar argument = scalar();
            in.expect(")");
            return new MeshLookup(kind, mesh, argument);
        }
        return named(in.word());
    }

    private Scalar named(String name) {
        if (state.loopIndices.contains(name) || KNOWN_NAMES.contains(name)) return new NamedScalar(name);
        if (name.matches("i\\d{1,9}")) return state.symbol(Integer.parseInt(name.substring(1)));
        throw in.error("unknown scalar '" + name + "'");
    }

    private ScalarBinary.Op scalarOp() {
        for (ScalarBinary.Op op : List.of(ScalarBinary.Op.EQ, ScalarBinary.Op.ADD, ScalarBinary.Op.SUB,
                ScalarBinary.Op.MUL, ScalarBinary.Op.DIV, ScalarBinary.Op.MOD)) {
            if (in.accept(op.symbol())) return op;
        }
        throw in.error("expected an operator");
    }

    /** Whether a tensor ({@code T12_..}, ir_utils::varName's "T" and number) comes next. */
    boolean atTensor() {
        in.skipWs();
        return TENSOR_NAME.matcher(in.text()).region(in.pos(), in.text().length()).lookingAt();
    }

    /**
     * A scalar Val as Val::toString prints it (csrc/ir/base_nodes.cpp:265-281 at 81c4b22fd): an integer expression
     * {@link #scalar} reads, or one the Studio's integer scalars do not model, kept by its printed name: a symbolic
     * Val of another dtype ({@code d3}, {@code b1}, {@code f4}, {@code c2}, typePrefix at csrc/type.cpp:1639), a bool
     * or negative constant, a floating constant printed {@code double(2.5)}.
     */
    Scalar scalarVal() {
        in.skipWs();
        Matcher m = OTHER_SCALAR.matcher(in.text()).region(in.pos(), in.text().length());
        if (!m.lookingAt()) return scalar();
        in.moveTo(m.end());
        return new NamedScalar(m.group());
    }

    private static final Pattern TENSOR_NAME = Pattern.compile("T\\d+_");
    private static final Pattern OTHER_SCALAR = Pattern.compile(
            "(?:[dbfc]|f4x2_)\\d+\\b|true\\b|false\\b|-\\d+\\b|[a-z][a-z0-9_]*\\((?:[-+0-9.eE]+|-?inf|nan)\\)");

    /** {@code Stream 0} or {@code Stream ( StreamIdx % numberOfStreams )}. */
    Stream stream() {
        in.expect("Stream");
        return streamAfterKeyword();
    }

    /**
     * What follows {@code Stream}: {@code 0} (a fixed key), {@code 0x174e5c80} (main's unindexed stream, named by
     * its address), or an index expression ({@code ( StreamIdx % numberOfStreams )}, {@code i535}).
     */
    Stream streamAfterKeyword() {
        if (in.peek("0x")) {
            in.skipWs();
            int start = in.pos();
            in.moveTo(start + 2);
            while (Character.digit(in.here(), 16) >= 0) in.advance();
            String address = in.text().substring(start, in.pos());
            if (address.length() < 3 || address.length() > 18) throw in.error("expected a stream address");
            state.saw("Stream 0x..", NvFuserGeneration.V2026_04);
            return new Stream.Pointer(address);
        }
        if (Character.isDigit(in.next())) return new Stream.Fixed(in.intNumber());
        return new Stream.Indexed(scalar());
    }

    /** Tensors each followed by {@code ,} up to {@code close}: PostOnStream's and HostUnit's lists. */
    List<TensorView> listed(char close) {
        List<TensorView> out = new ArrayList<>();
        while (!in.accept(String.valueOf(close))) {
            out.add(tensor());
            in.expect(",");
        }
        return out;
    }

    /** Tensors separated by {@code ,} up to {@code close}: the container's inputs and outputs. */
    List<TensorView> separated(char close) {
        List<TensorView> out = new ArrayList<>();
        if (in.accept(String.valueOf(close))) return out;
        do out.add(tensor()); while (in.accept(","));
        in.expect(String.valueOf(close));
        return out;
    }
}
