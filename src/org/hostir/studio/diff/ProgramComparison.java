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
 * @param left       the first program, canonical (symbols renamed when it is the finer side), with the node of the
 *                   program compared that each of its nodes copies
 * @param right      the second program, canonical, node ids from {@link #RIGHT_NODE_BASE}, likewise
 * @param equal      the same program, numbering aside
 * @param symbolNote empty, or which symbols one side merges
 */
public record ProgramComparison(Canonical.Copy leftCopy, Canonical.Copy rightCopy, TreeDiff tree, String textDiff,
                                boolean equal, String symbolNote) {
    /** Where the right program's node ids start, past any left id, so no pair is made by id. */
    public static final int RIGHT_NODE_BASE = 1 << 24;

    public ProgramComparison {
        Objects.requireNonNull(leftCopy);
        Objects.requireNonNull(rightCopy);
        Objects.requireNonNull(tree);
        Objects.requireNonNull(textDiff);
        Objects.requireNonNull(symbolNote);
    }

    /** The first program, canonical. */
    public HostIrContainer left() { return leftCopy.program(); }

    /** The second program, canonical, node ids from {@link #RIGHT_NODE_BASE}. */
    public HostIrContainer right() { return rightCopy.program(); }

    public static ProgramComparison compare(HostIrContainer a, HostIrContainer b, String labelA, String labelB) {
        Canonical.Copy left = Canonical.copy(a, 0);
        Canonical.Copy right = Canonical.copy(b, 0);
        String leftText = HostIrPrinter.print(left.program());
        String rightText = HostIrPrinter.print(right.program());
        SymbolBinding binding = SymbolBinding.of(leftText, rightText);
        if (!leftText.equals(rightText)) {
            if (binding.leftToOne()) {
                left = Canonical.renamed(left, 0, SymbolBinding.function(binding.leftToRight()));
            } else if (binding.rightToOne()) {
                right = Canonical.renamed(right, 0, SymbolBinding.function(binding.rightToLeft()));
            }
        }
        String shownLeft = HostIrPrinter.print(left.program());
        String shownRight = HostIrPrinter.print(right.program());
        boolean equal = shownLeft.equals(shownRight) && left.program().equals(right.program());
        Canonical.Copy rightApart = Canonical.renamed(right, RIGHT_NODE_BASE, Map.of());
        return new ProgramComparison(left, rightApart, TreeDiff.compare(left.program(), rightApart.program()),
                TextDiff.unified(shownLeft, shownRight, labelA, labelB), equal, binding.note());
    }
}
