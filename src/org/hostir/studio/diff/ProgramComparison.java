package org.hostir.studio.diff;

import java.util.Map;
import java.util.Objects;

import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.print.HostIrPrinter;

/**
 * Two programs from different origins (a real nvFuser dump, the Studio's lowering, another dump) compared by
 * structure: both are made {@link Canonical} first, so ids and symbols are matched by where they appear and
 * numbering differences are not changes. Symbols bound more finely on one side (nvFuser's fresh symbols per tensor
 * against a fusion file's shared {@code K}) are not a change either: the finer side is shown in the coarser side's
 * symbols and {@code symbolNote} names them ({@link SymbolBinding}). The tree diff pairs nodes by structure only
 * (the two sides get disjoint node ids); the text diff is of the canonical prints.
 *
 * @param left       the first program, canonical (symbols renamed when it is the finer side)
 * @param right      the second program, canonical, node ids from {@link #RIGHT_NODE_BASE}
 * @param equal      the same program, numbering aside
 * @param symbolNote empty, or which symbols one side merges
 */
public record ProgramComparison(HostIrContainer left, HostIrContainer right, TreeDiff tree, String textDiff,
                                boolean equal, String symbolNote) {
    /** Where the right program's node ids start, past any left id, so no pair is made by id. */
    public static final int RIGHT_NODE_BASE = 1 << 24;

    public ProgramComparison {
        Objects.requireNonNull(left);
        Objects.requireNonNull(right);
        Objects.requireNonNull(tree);
        Objects.requireNonNull(textDiff);
        Objects.requireNonNull(symbolNote);
    }

    public static ProgramComparison compare(HostIrContainer a, HostIrContainer b, String labelA, String labelB) {
        HostIrContainer left = Canonical.of(a, 0);
        HostIrContainer right = Canonical.of(b, 0);
        String leftText = HostIrPrinter.print(left);
        String rightText = HostIrPrinter.print(right);
        SymbolBinding binding = SymbolBinding.of(leftText, rightText);
        if (!leftText.equals(rightText)) {
            if (binding.leftToOne()) {
                left = Canonical.renamed(left, 0, SymbolBinding.function(binding.leftToRight()));
            } else if (binding.rightToOne()) {
                right = Canonical.renamed(right, 0, SymbolBinding.function(binding.rightToLeft()));
            }
        }
        String shownLeft = HostIrPrinter.print(left);
        String shownRight = HostIrPrinter.print(right);
        boolean equal = shownLeft.equals(shownRight) && left.equals(right);
        HostIrContainer rightApart = Canonical.renamed(right, RIGHT_NODE_BASE, Map.of());
        return new ProgramComparison(left, rightApart, TreeDiff.compare(left, rightApart),
                TextDiff.unified(shownLeft, shownRight, labelA, labelB), equal, binding.note());
    }
}
