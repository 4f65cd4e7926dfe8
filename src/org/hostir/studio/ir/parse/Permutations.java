package org.hostir.studio.ir.parse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.TensorView;

/**
 * The permutation of a {@code Set.Permute}, which the dump does not print. nvFuser creates the output's logical
 * iter domains in the input's order and prints them permuted, so the order of the output's iter domain ids tells
 * which input axis each came from (seed 003: {@code T4[iS15{4}, iS14{3}, iS16{3}]} from axes of extents 3, 4, 3 is
 * {@code [1, 0, 2]}). The guess is checked against the extents; null when it fails or is no permutation at all.
 */
final class Permutations {
    private Permutations() {}

    /** Output axis i = input axis perm[i], counting the input's non-reduction axes (what the output keeps). */
    static List<Integer> infer(TensorView input, TensorView output) {
        List<IterDomain> kept = input.allocationAxes();
        int n = output.rank();
        if (kept.size() != n) return null;
        List<Integer> byId = IntStream.range(0, n).boxed()
                .sorted(Comparator.comparingInt(i -> output.axis(i).id())).toList();
        List<Integer> perm = new ArrayList<>(Collections.nCopies(n, 0));
        for (int rank = 0; rank < n; rank++) perm.set(byId.get(rank), rank);
        boolean identity = true;
        for (int i = 0; i < n; i++) {
            if (!kept.get(perm.get(i)).extent().equals(output.axis(i).extent())) return null;
            identity &= perm.get(i) == i;
        }
        return identity ? null : List.copyOf(perm);
    }
}
