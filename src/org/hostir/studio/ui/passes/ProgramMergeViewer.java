package org.hostir.studio.ui.passes;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.compare.CompareConfiguration;
import org.eclipse.compare.contentmergeviewer.TextMergeViewer;
import org.eclipse.jface.text.source.CompositeRuler;
import org.eclipse.jface.text.source.SourceViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.widgets.Composite;

/**
 * The side-by-side text diff of a pass whose AFTER pane (the program the pass made; the final program at the last
 * pass) has a {@link BreakpointRuler}. The compare viewer makes its panes while it is constructed, ancestor, left
 * (BEFORE) and right (AFTER) in that order, before this class's fields exist: they are kept in a list made then.
 */
final class ProgramMergeViewer extends TextMergeViewer {
    private List<SourceViewer> made;
    private List<CompositeRuler> rulers;
    private final BreakpointRuler breakpoints;

    ProgramMergeViewer(Composite parent, CompareConfiguration configuration) {
        super(parent, SWT.NONE, configuration);
        breakpoints = new BreakpointRuler(made.getLast(), rulers.getLast());
        // Compare makes its panes' contributors at its first refresh only (a null input is no change), and its dispose
        // uses them: a view closed (or restarted) before any pass was shown logged an NPE in handleDispose (issue 35)
        refresh();
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

    /** The texts of the BEFORE (left) and AFTER (right) panes, the last two made (an ancestor pane comes first). */
    List<StyledText> panes() {
        return made.subList(made.size() - 2, made.size()).stream().map(SourceViewer::getTextWidget).toList();
    }
}
