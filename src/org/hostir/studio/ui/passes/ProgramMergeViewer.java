package org.hostir.studio.ui.passes;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.compare.CompareConfiguration;
import org.eclipse.compare.contentmergeviewer.TextMergeViewer;
import org.eclipse.jface.text.source.CompositeRuler;
import org.eclipse.jface.text.source.SourceViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.LineBackgroundListener;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.widgets.Composite;
import org.hostir.studio.ui.ThemeColors;

/**
 * The side-by-side, read-only text diff of two programs, made one way for the Lowering view (a pass's BEFORE and
 * AFTER, the AFTER pane, the program the pass made, with a {@link BreakpointRuler}) and the nvFuser Dump view (a
 * dump's program beside the previous one or the Studio's). The compare viewer makes its panes while it is
 * constructed, ancestor, left and right in that order, before this class's fields exist: they are kept in a list
 * made then.
 */
final class ProgramMergeViewer extends TextMergeViewer {
    private List<SourceViewer> made;
    private List<CompositeRuler> rulers;
    /** The AFTER pane's breakpoints; null in a viewer made {@link #plain}. */
    private final BreakpointRuler breakpoints;

    /** The Lowering view's diff: breakpoints in the AFTER pane; {@code onTheme} runs after each theme's colours. */
    static ProgramMergeViewer withBreakpoints(Composite parent, CompareConfiguration configuration, Runnable onTheme) {
        return new ProgramMergeViewer(parent, configuration, true, onTheme);
    }

    /** The Dump view's diff: nothing to stop at in a program nvFuser printed. */
    static ProgramMergeViewer plain(Composite parent, CompareConfiguration configuration) {
        return new ProgramMergeViewer(parent, configuration, false, () -> { });
    }

    private ProgramMergeViewer(Composite parent, CompareConfiguration configuration, boolean withBreakpoints,
                               Runnable onTheme) {
        super(parent, SWT.NONE, readOnlyBeforeAfter(configuration));
        breakpoints = withBreakpoints ? new BreakpointRuler(made.getLast(), rulers.getLast()) : null;
        // Compare makes its panes' contributors at its first refresh only (a null input is no change), and its dispose
        // uses them: a view closed (or restarted) before any pass was shown logged an NPE in handleDispose (issue 35)
        refresh();
        // the viewer takes its colours from the text editors' preferences, which stay dark after a switch from Dark
        // to Light in a Studio started in Dark (issue 35: a pane stayed #2d2d2d on a light view): the theme's text
        // colours (colorDefinitions in plugin.xml, css/dark.css), once the theme's CSS has styled the new widgets
        // (a view made under Dark had white panes) and again at each switch
        ThemeColors.follow(getControl(), () -> {
            setBackgroundColor(ThemeColors.get(ThemeColors.TEXT_BACKGROUND, SWT.COLOR_LIST_BACKGROUND).getRGB());
            setForegroundColor(ThemeColors.get(ThemeColors.TEXT, SWT.COLOR_LIST_FOREGROUND).getRGB());
            onTheme.run();
        });
    }

    /**
     * Neither side editable; the earlier program on the left, as a diff reads, whatever the user's swap preference
     * says: the viewer picks its (mirrored or plain) content provider while it is built, so this goes first.
     */
    private static CompareConfiguration readOnlyBeforeAfter(CompareConfiguration c) {
        c.setLeftEditable(false);
        c.setRightEditable(false);
        c.setProperty(CompareConfiguration.MIRRORED, Boolean.FALSE);
        return c;
    }

    @Override
    protected SourceViewer createSourceViewer(Composite parent, int textOrientation) {
        CompositeRuler ruler = new CompositeRuler();
        SourceViewer v = new SourceViewer(parent, ruler, textOrientation | SWT.H_SCROLL | SWT.V_SCROLL);
        if (made == null) {
            made = new ArrayList<>();
            rulers = new ArrayList<>();
        }
        made.add(v);
        rulers.add(ruler);
        return v;
    }

    BreakpointRuler breakpoints() { return breakpoints; }

    /** An empty pane's line background: the pane's own, whatever the current-line painter said before. */
    private static final LineBackgroundListener NO_BAND = e -> {
        if (((StyledText) e.widget).getCharCount() == 0) e.lineBackground = null;
    };

    /**
     * The editors' current-line band read as a line in an empty pane (drive 17, finding 12: the Dump view before any
     * dump was open, the Lowering view's panes with no pass shown). The compare viewer's painter sets it from a line
     * background listener that it adds again when a pane's document changes; the last listener has the last word, so
     * this one goes (again) after it: call it after each empty input.
     */
    void noBandWhenEmpty() {
        for (StyledText pane : panes()) {
            pane.removeLineBackgroundListener(NO_BAND);
            pane.addLineBackgroundListener(NO_BAND);
        }
    }

    /** The texts of the BEFORE (left) and AFTER (right) panes, the last two made (an ancestor pane comes first). */
    List<StyledText> panes() {
        return made.subList(made.size() - 2, made.size()).stream().map(SourceViewer::getTextWidget).toList();
    }
}
