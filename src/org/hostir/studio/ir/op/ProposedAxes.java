package org.hostir.studio.ir.op;

import java.util.ArrayList;
import java.util.List;

/**
 * The output axes the families propose for a new or rewired op in the editor (docs/fusion-file-format.md, "Ops"):
 * an output axis is the input axis it comes from, parallel type included; lenient where the inputs do not fit yet.
 */
final class ProposedAxes {
    private ProposedAxes() {}

    /** The input's axes, permuted where a full permutation is given. */
    static <A> List<A> permuted(List<A> in, List<Integer> permute) {
        if (permute.isEmpty() || permute.size() != in.size()) return in;
        List<A> out = new ArrayList<>();
        for (int p : permute) {
            if (p < 0 || p >= in.size()) return in;
            out.add(in.get(p));
        }
        return out;
    }

    /** Position by position, a unit axis giving way to the other; the longer list where ranks differ. */
    static <A> List<A> pointwise(List<A> a, List<A> b, AxisAlgebra<A> x) {
        if (a.size() != b.size()) return a.size() >= b.size() ? a : b;
        List<A> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) out.add(x.isUnit(a.get(i)) && !x.isUnit(b.get(i)) ? b.get(i) : a.get(i));
        return out;
    }

    /** Batch axes broadcast right-aligned; a DID axis counts as extent 1 (each rank holds one slice). */
    static <A> List<A> batch(List<A> a, List<A> b, AxisAlgebra<A> ax) {
        int n = Math.max(a.size(), b.size());
        List<A> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            A x = i - (n - a.size()) >= 0 ? a.get(i - (n - a.size())) : null;
            A y = i - (n - b.size()) >= 0 ? b.get(i - (n - b.size())) : null;
            if (x == null) out.add(y);
            else if (y == null) out.add(x);
            else out.add(ax.isUnit(x) && !ax.isUnit(y) && !ax.isDeviceDim(y) ? y : x);
        }
        return out;
    }
}
