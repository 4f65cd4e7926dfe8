package org.hostir.studio.ir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Which axes a reshape keeps whole: an input axis and an output axis are the same axis when the products of the
 * extents before them are equal and their extents are equal (a split or merge makes a new axis, as nvFuser's
 * reshape does with a root-to-logical transform). Extents compare as products of a constant and symbol names,
 * so [D, M * N] to [D, M, N] keeps D whatever M and N are.
 */
public final class ReshapeAxes {
    private ReshapeAxes() {}

    /** Per input runtime axis, the output runtime axis it stays as, or {@link AxisMap#NONE}. */
    public static int[] kept(List<IterDomain> in, List<IterDomain> out) { return kept(in, out, e -> OptionalLong.empty()); }

    /** As {@link #kept(List, List)}, an extent with a known value compared as that constant. */
    public static int[] kept(List<IterDomain> in, List<IterDomain> out, Function<Extent, OptionalLong> value) {
        int[] map = new int[in.size()];
        Arrays.fill(map, AxisMap.NONE);
        Monomial before = Monomial.ONE;
        List<Monomial> outPrefix = new ArrayList<>();
        Monomial p = Monomial.ONE;
        for (IterDomain o : out) {
            outPrefix.add(p);
            p = p.times(o.extent(), value);
        }
        for (int i = 0; i < in.size(); i++) {
            Extent e = in.get(i).extent();
            for (int o = 0; o < out.size(); o++) {
                boolean sameExtent = Monomial.ONE.times(e, value).equals(Monomial.ONE.times(out.get(o).extent(), value));
                // a DID axis on both sides is the device count whatever its spelling (D, or its value, 1 included)
                boolean bothDid = in.get(i).isDeviceDim() && out.get(o).isDeviceDim();
                if (outPrefix.get(o).equals(before) && ((sameExtent && !isOne(e)) || bothDid)) {
                    map[i] = o;
                    break;
                }
            }
            before = before.times(e, value);
        }
        return map;
    }

    /** Whether the element counts may be equal: equal products, or symbols that differ (undecided here). */
    public static boolean sameCount(List<IterDomain> in, List<IterDomain> out, Function<Extent, OptionalLong> value) {
        Monomial a = Monomial.ONE;
        for (IterDomain d : in) a = a.times(d.extent(), value);
        Monomial b = Monomial.ONE;
        for (IterDomain d : out) b = b.times(d.extent(), value);
        return a.equals(b) || !a.symbols.equals(b.symbols);
    }

    private static boolean isOne(Extent e) { return e instanceof Extent.Constant c && c.value() == 1; }

    /** A constant times a product of symbols (by name, with multiplicity). */
    private record Monomial(long constant, TreeMap<String, Integer> symbols) {
        static final Monomial ONE = new Monomial(1, new TreeMap<>());

        Monomial times(Extent e, Function<Extent, OptionalLong> value) {
            OptionalLong v = value.apply(e);
            if (v.isPresent()) return new Monomial(constant * v.getAsLong(), symbols);
            TreeMap<String, Integer> s = new TreeMap<>(symbols);
            return switch (e) {
                case Extent.Constant c -> new Monomial(constant * c.value(), s);
                case Extent.Symbolic sym -> {
                    s.merge(sym.name(), 1, Integer::sum);
                    yield new Monomial(constant, s);
                }
            };
        }
    }
}
