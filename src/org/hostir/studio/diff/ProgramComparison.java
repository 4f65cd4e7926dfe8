package org.hostir.studio.diff;

import java.util.Objects;

import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.ir.print.HostIrPrinter;

/**
 * Two programs from different origins (a real nvFuser dump, the Studio's lowering, another dump) compared by
 * structure: both are made {@link Canonical} first, so ids and symbols are matched by where they appear and
 * numbering differences are not changes. Symbols bound more finely on one side than the other (nvFuser's fresh
 * symbols per tensor against a fusion file's shared {@code K}) are not a change either, but are named in
 * {@code symbolNote} ({@link SymbolBinding}). The tree diff pairs nodes by structure only (the two sides get
 * disjoint node ids); the text diff is of the canonical prints.
 *
 * @param left       the first program, canonical
 * @param right      the second program, canonical (node ids from {@link #RIGHT_NODE_BASE})
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
        HostIrContainer right = Canonical.of(b, RIGHT_NODE_BASE);
        String leftText = HostIrPrinter.print(left);
        String rightText = HostIrPrinter.print(Canonical.of(b, 0));
        String text = TextDiff.unified(leftText, rightText, labelA, labelB);
        String note = "";
        boolean equal = leftText.equals(rightText) && Canonical.of(b, 0).equals(left);
        if (!equal && SymbolBinding.masked(leftText).equals(SymbolBinding.masked(rightText))) {
            String binding = SymbolBinding.note(leftText, rightText);
            if (binding != null) {
                equal = true;
                note = binding;
            }
        }
        return new ProgramComparison(left, right, TreeDiff.compare(left, right), text, equal, note);
    }
}
