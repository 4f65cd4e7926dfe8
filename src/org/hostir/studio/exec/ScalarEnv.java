package org.hostir.studio.exec;

import java.util.HashMap;
import java.util.Map;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.MeshLookup;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.ScalarBinary;
import org.hostir.studio.ir.TensorView;

/**
 * Values of the host scalars while a rank's program runs: symbols by their user name, {@code numberOfStreams},
 * this rank ({@code deviceIdx.x}) and loop indices as they are bound.
 */
public final class ScalarEnv {
    private final Map<String, Long> symbols;
    private final Map<String, Long> named = new HashMap<>();

    public ScalarEnv(Map<String, Long> symbols, int rank, int numberOfStreams) {
        this.symbols = Map.copyOf(symbols);
        // deviceIdx.x is only written for meshes {0 .. n-1}, where this rank's position is its id
        named.put(NamedScalar.RANK.name(), (long) rank);
        named.put(NamedScalar.DEVICE_ID.name(), (long) rank);
        named.put(NamedScalar.NUMBER_OF_STREAMS.name(), (long) numberOfStreams);
    }

    public void bind(NamedScalar s, long value) { named.put(s.name(), value); }

    public void unbind(NamedScalar s) { named.remove(s.name()); }

    public long eval(Scalar s) {
        return switch (s) {
            case Extent.Constant c -> c.value();
            case Extent.Symbolic sym -> {
                Long v = symbols.get(sym.name());
                if (v == null) throw new ExecutionException("symbol " + Texts.quote(sym.name()) + " (i" + sym.id() + ") has no value");
                yield v;
            }
            case NamedScalar n -> {
                Long v = named.get(n.name());
                if (v == null) throw new ExecutionException(Texts.quote(n.name()) + " is not bound here");
                yield v;
            }
            case ScalarBinary b -> {
                long l = eval(b.lhs());
                long r = eval(b.rhs());
                yield switch (b.op()) {
                    case ADD -> l + r;
                    case SUB -> l - r;
                    case MUL -> l * r;
                    case DIV -> l / r;
                    case MOD -> Math.floorMod(l, r);
                    case EQ -> l == r ? 1 : 0;
                    case LT -> l < r ? 1 : 0;
                    case CEIL_DIV -> Math.ceilDiv(l, r);
                };
            }
            case MeshLookup m -> lookup(m);
        };
    }

    /** nvFuser's DeviceMesh::at and idxOf; a rank outside the mesh has no position there. */
    private long lookup(MeshLookup m) {
        long arg = eval(m.argument());
        return switch (m.kind()) {
            case AT -> {
                if (arg < 0 || arg >= m.mesh().size()) {
                    throw new ExecutionException("position " + arg + " is outside mesh " + m.mesh().deviceIds());
                }
                yield m.mesh().deviceIds().get((int) arg);
            }
            case IDX_OF -> {
                int position = m.mesh().indexOf((int) arg);
                if (position < 0) {
                    throw new ExecutionException("device " + arg + " is not in mesh " + m.mesh().deviceIds());
                }
                yield position;
            }
        };
    }

    /** A rank's runtime shape of a tensor: non-reduction axes; DID and broadcast axes have size 1. */
    public long[] localShape(TensorView tv) {
        long[] shape = new long[tv.allocationAxes().size()];
        int k = 0;
        for (int i = 0; i < tv.rank(); i++) {
            if (tv.axis(i).isReduction()) continue;
            shape[k++] = localExtent(tv, i);
        }
        return shape;
    }

    /** The unsharded runtime shape: DID axes at their full extent. */
    public long[] globalShape(TensorView tv) {
        return tv.allocationAxes().stream().mapToLong(a -> a.isBroadcast() ? 1 : eval(a.extent())).toArray();
    }

    /** A sharded axis must split evenly: every rank holds the same extent (the buffers of a collective match). */
    private long localExtent(TensorView tv, int i) {
        IterDomain a = tv.axis(i);
        if (a.isDeviceDim() && tv.mesh() != null && !a.isBroadcast()) {
            long extent = eval(a.extent());
            int devices = tv.devicesAlong(a.parallelType());
            if (extent % devices != 0) {
                throw new ExecutionException("axis " + i + " of " + Texts.quote(tv.label()) + " (" + tv.name() + ") has extent " + extent
                        + ", which does not split evenly over the " + devices + " devices of its mesh");
            }
        }
        return eval(tv.localExtent(i));
    }
}
