package org.hostir.studio.ui.passes;

import java.util.function.ToIntFunction;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;

/**
 * The Lowering view's Fusion path, shortened in the middle to the width its row gives it
 * ({@code /project/fol\u2026/name.fusion}), whole in its tooltip. A plain label cut the path at its end wherever the view
 * was narrower than in the default layout (issue 35: beside the editor, a narrower part), hiding the file's name.
 */
final class PathLabel {
    static final String ELLIPSIS = "\u2026";
    final Label label;
    private String path = "", note = "";

    PathLabel(Composite parent, String text) {
        label = new Label(parent, SWT.NONE);
        label.addListener(SWT.Resize, e -> fit());
        setText(text);
    }

    /** Shows {@code text}, as much of it as fits, and puts it whole in the tooltip. */
    void setText(String text) { setText(text, ""); }

    /** Shows {@code path} and {@code note} after it, as much as fits, both whole in the tooltip. */
    void setText(String path, String note) {
        this.path = path;
        this.note = note;
        label.setToolTipText(path + note);
        fit();
    }

    /**
     * The least width at which the path still reads: the file's name whole after an ellipsis ({@code \u2026/name}),
     * which the view's first row keeps beside its fields, else gives the path a row of its own.
     */
    int readableWidth() {
        GC gc = new GC(label);
        try {
            return pad(gc) + gc.textExtent(ELLIPSIS + path.substring(Math.max(0, path.lastIndexOf('/')))).x;
        } finally {
            gc.dispose();
        }
    }

    /** The path and the note, as much as fits: the note goes with the file's name, which the end keeps first. */
    private void fit() {
        int width = label.getSize().x;
        String shown = path + note;
        if (width > 0) {
            GC gc = new GC(label);
            try {
                shown = shortened(path + note, width - pad(gc), s -> gc.textExtent(s).x);
            } finally {
                gc.dispose();
            }
        }
        if (!shown.equals(label.getText())) label.setText(shown);
    }

    /** The label's own padding around its text, as it measures itself. */
    private int pad(GC gc) {
        return Math.max(0, label.computeSize(SWT.DEFAULT, SWT.DEFAULT).x - gc.textExtent(label.getText()).x);
    }

    /**
     * {@code text} whole where it fits {@code width}, else its start and its end around {@link #ELLIPSIS}: the end
     * keeps the file's name whole where four characters of the start still fit, and two thirds of the characters
     * kept at least.
     */
    static String shortened(String text, int width, ToIntFunction<String> measure) {
        if (measure.applyAsInt(text) <= width) return text;
        int low = 0, high = text.length() - 1;   // the most characters kept that fit, by bisection
        while (low < high) {
            int kept = (low + high + 1) / 2;
            if (measure.applyAsInt(keep(text, kept)) <= width) low = kept;
            else high = kept - 1;
        }
        return keep(text, low);
    }

    private static String keep(String text, int kept) {
        int name = text.length() - text.lastIndexOf('/');
        int head = kept - Math.max(kept - kept / 3, Math.min(name, kept - Math.min(kept, 4)));
        return text.substring(0, head) + ELLIPSIS + text.substring(text.length() - (kept - head));
    }
}
