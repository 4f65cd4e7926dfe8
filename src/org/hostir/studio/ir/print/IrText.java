package org.hostir.studio.ir.print;

import java.util.List;
import java.util.stream.Collectors;

import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.IterTransform;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.MeshLookup;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.ScalarBinary;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Stream;

/** The one-line spellings of IR values in nvFuser's dump format. */
public final class IrText {
    private IrText() {}

    /** {@code T0_g_float[ideviceIdx.x0{i0}, iS1{i2}] (DeviceMesh{0 1})}. */
    public static String tensor(TensorView tv) { return tensor(tv, NvFuserGeneration.V2025_06); }

    /** A tensor in the spelling of one dump generation. */
    public static String tensor(TensorView tv, NvFuserGeneration g) {
        // nvFuser prints the loop domain: the logical axes unless the tensor was split, merged or reordered
        String axes = tv.loop() == null
                ? tv.axes().stream().map(a -> iterDomain(a, g)).collect(Collectors.joining(", "))
                : tv.loop().loop().stream().map(a -> loopAxis(a, g)).collect(Collectors.joining(", "));
        // before #2889 nvFuser printed no dtype and padded the brackets: T0_g[ iS0{128} ]
        String s = g.printsDtype()
                ? "T" + tv.id() + "_" + tv.memoryType().letter() + "_" + tv.dtype().dumpName() + "[" + axes + "]"
                : "T" + tv.id() + "_" + tv.memoryType().letter() + "[ " + axes + " ]";
        return tv.mesh() == null ? s : s + " (" + mesh(tv.mesh()) + ")";
    }

    /**
     * {@code iS1{i2}}, {@code ideviceIdx.x0{i0}}, {@code iStreamIdx2{i0}}, {@code rS8{i3}}, {@code bS8{1}}, and an
     * expanded broadcast {@code bS9{1 ex i4}} (IterDomain::toString: {@code " ex " << expandedExtent()}).
     */
    public static String iterDomain(IterDomain id) { return iterDomain(id, NvFuserGeneration.V2025_06); }

    /** An iter domain in the spelling of one dump generation ({@code iStream7} in the early 2025 one). */
    public static String iterDomain(IterDomain id, NvFuserGeneration g) {
        String parallel = id.isStream() ? g.streamAxisName() : id.parallelType().dumpName();
        if (id.expanded()) return IterType.BROADCAST.letter() + parallel + id.id() + "{1 ex " + scalar(id.extent()) + "}";
        return id.iterType().letter() + parallel + id.id() + "{" + scalar(id.extent()) + "}";
    }

    /** A loop axis: {@code ideviceIdx.x2{4}}, {@code iS3{( ceilDiv(i0, 4) )}}. */
    public static String loopAxis(LoopDomain.Axis a, NvFuserGeneration g) {
        String parallel = a.parallelType() == ParallelType.STREAM ? g.streamAxisName() : a.parallelType().dumpName();
        return a.iterType().letter() + parallel + a.id() + "{" + scalar(a.extent()) + "}" + (a.rfactor() ? "rf" : "");
    }

    /**
     * nvFuser's {@code Swizzle1D::toString}: {@code iS6{4} = Swizzle1D(iS4{4}, parallelType=deviceIdx.x)}, the
     * parallel type as {@code operator<<} prints it (stringifyThread).
     */
    public static String swizzle1d(IterTransform.Swizzle1D z) {
        return loopAxis(z.out(), NvFuserGeneration.V2025_06) + " = Swizzle1D(" + loopAxis(z.in(), NvFuserGeneration.V2025_06)
                + ", parallelType=" + z.parallelType().dumpName() + ")";
    }

    /**
     * The same, with the output as the loop domain has it now: nvFuser prints an iter domain with the parallel type
     * it has when printed ({@code iStreamIdx6{4} = Swizzle1D(...)} once the swizzled axis is parallelized).
     */
    public static String swizzle1d(IterTransform.Swizzle1D z, LoopDomain loop) {
        LoopDomain.Axis out = loop.loop().stream().filter(a -> a.id() == z.out().id()).findFirst().orElse(z.out());
        return swizzle1d(new IterTransform.Swizzle1D(z.in(), z.parallelType(), out));
    }

    /**
     * {@code DeviceMesh{0 1 2 3}}; a mesh of more axes nested axis by axis, {@code DeviceMesh{{0 1}{2 3}}},
     * {@code DeviceMesh{{{0 1}{2 3}}{{4 5}{6 7}}}}: a brace opens before and closes after each run of an axis' stride,
     * as nvFuser's operator<< prints it (csrc/multidevice/device_mesh.cpp:53-75 at 81c4b22fd).
     */
    public static String mesh(DeviceMesh mesh) {
        int rank = mesh.rank();
        if (mesh.size() == 0) return "DeviceMesh{}";
        int[] strides = new int[rank];
        strides[rank - 1] = mesh.shape().get(rank - 1);
        for (int axis = rank - 2; axis >= 0; axis--) strides[axis] = mesh.shape().get(axis) * strides[axis + 1];
        StringBuilder s = new StringBuilder("DeviceMesh");
        List<Integer> ids = mesh.deviceIds();
        for (int i = 0; i < ids.size(); i++) {
            for (int stride : strides) if (i % stride == 0) s.append('{');
            s.append(ids.get(i));
            if ((i + 1) % strides[rank - 1] != 0) s.append(' ');
            for (int stride : strides) if ((i + 1) % stride == 0) s.append('}');
        }
        return s.toString();
    }

    /** Space-separated ids, as in {@code team=(0 1 2 3)}. */
    public static String ids(List<Integer> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(" "));
    }

    public static String scalar(Scalar s) { return scalar(s, NvFuserGeneration.V2025_06); }

    /**
     * A scalar in {@code g}'s spelling: the stream loop's index is NamedScalar::getParallelIndex(Stream), printed as
     * stringifyThread prints Stream ({@code StreamIdx} at the seeds, {@code streamIdx} since #5096, csrc/type.cpp:781
     * at 81c4b22fd); other named scalars as they are named.
     */
    public static String scalar(Scalar s, NvFuserGeneration g) {
        return switch (s) {
            case Extent.Symbolic sym -> "i" + sym.id();
            case Extent.Constant c -> Long.toString(c.value());
            case NamedScalar n -> n.equals(NamedScalar.STREAM_IDX) ? g.streamAxisName() : n.name();
            case ScalarBinary b when b.op() == ScalarBinary.Op.CEIL_DIV ->
                    "( ceilDiv(" + scalar(b.lhs(), g) + ", " + scalar(b.rhs(), g) + ") )";
            case ScalarBinary b -> "( " + scalar(b.lhs(), g) + " " + b.op().symbol() + " " + scalar(b.rhs(), g) + " )";
            case MeshLookup m -> mesh(m.mesh()) + "." + m.kind().method() + "(" + scalar(m.argument(), g) + ")";
        };
    }

    public static String stream(Stream s) { return stream(s, NvFuserGeneration.V2025_06); }

    public static String stream(Stream s, NvFuserGeneration g) {
        return switch (s) {
            case Stream.Fixed f -> "Stream " + (g.callSyntax() ? Stream.addressOf(f) : String.valueOf(f.number()));
            case Stream.Indexed i -> "Stream " + scalar(i.index(), g);
            case Stream.Pointer p -> "Stream " + p.address();
        };
    }
}
