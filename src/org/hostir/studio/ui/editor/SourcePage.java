package org.hostir.studio.ui.editor;

import org.eclipse.core.resources.IFile;
import org.eclipse.jface.text.source.CompositeRuler;
import org.eclipse.jface.text.source.LineNumberRulerColumn;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.IFileEditorInput;
import org.eclipse.ui.editors.text.TextEditor;
import org.hostir.studio.ui.ThemeColors;
import org.hostir.studio.ui.ViewIds;

/**
 * The Source page: a text editor whose document (and so the dirty state, save, and the Lowering view's text) is there
 * from the opening, and whose widgets (the text widget, its rulers, the colouring) are made when the page is first
 * shown or its caret is needed ({@link #make}), as multi-page editors make their pages lazily. Issue 35: making them
 * for a 1,000-op fusion's text was a quarter of the UI thread's time before the graph's first picture, for a page
 * that an opening does not show. The text's own undo history starts then too: a graph edit is undone on the graph.
 */
final class SourcePage extends TextEditor {
    private JsonColoring coloring;
    private Composite parent;
    private boolean made;
    private LineNumberRulerColumn lineNumbers;
    private Runnable checkNow = () -> {};

    /** What brings the problem markers up to the text before Ctrl+1 looks at them: the editor's pending check. */
    void checkBeforeQuickAssist(Runnable check) { checkNow = check; }

    private IFile file() { return getEditorInput() instanceof IFileEditorInput in ? in.getFile() : null; }

    @Override
    protected void initializeEditor() {
        super.initializeEditor();
        setHelpContextId(ViewIds.HELP_EDITOR);   // F1 on the Source page: the fusion's help, not plain text's
        setDocumentProvider(new AtomicFileDocumentProvider());
        setSourceViewerConfiguration(coloring = new JsonColoring(getPreferenceStore(),
                new SourceQuickAssist(this::file, () -> checkNow.run())));
    }

    /** The multi-page editor hands over the page's composite: it stays empty until {@link #make}. */
    @Override
    public void createPartControl(Composite pageParent) { parent = pageParent; }

    /** Makes the page's widgets, once; {@code shown}: the page is in front, so its text is coloured now. */
    void make(boolean shown) {
        if (!made && parent != null && !parent.isDisposed()) {
            made = true;
            super.createPartControl(parent);
            if (getVerticalRuler() != null && getVerticalRuler().getControl() != null) {
                ThemeColors.follow(getVerticalRuler().getControl(), this::colourRulers);
            }
            parent.layout(true, true);
        }
        if (shown && made) coloring.shown();
    }

    /** Whether the widgets exist (the page was shown, or a problem's line was gone to). */
    boolean made() { return made; }

    /**
     * The line numbers in the theme's colours whenever the editors' preferences set them (at creation, at a change
     * of those preferences): the dark theme writes its ruler colours into those preferences and a switch back to
     * Light leaves them there, so the ruler stayed dark beside the light text (issue 35).
     */
    @Override
    protected void initializeLineNumberRulerColumn(LineNumberRulerColumn column) {
        super.initializeLineNumberRulerColumn(column);
        lineNumbers = column;
        column.setForeground(ThemeColors.get(ThemeColors.LINE_NUMBER, SWT.COLOR_DARK_GRAY));
        column.setBackground(ThemeColors.get(ThemeColors.TEXT_BACKGROUND, SWT.COLOR_LIST_BACKGROUND));
    }

    /**
     * The rulers on the text pane's background, read again from the colour registry at each theme change: the
     * annotation ruler's canvas keeps the background the CSS engine gave it under Dark (the editors' CSS styles the
     * text, not a ruler's canvas, at the switch back).
     */
    private void colourRulers() {
        var background = ThemeColors.get(ThemeColors.TEXT_BACKGROUND, SWT.COLOR_LIST_BACKGROUND);
        Control ruler = getVerticalRuler().getControl();
        ruler.setBackground(background);
        if (ruler instanceof Composite c) {
            for (Control column : c.getChildren()) column.setBackground(background);
        }
        if (lineNumbers != null && lineNumbers.getControl() != null && !lineNumbers.getControl().isDisposed()) {
            initializeLineNumberRulerColumn(lineNumbers);
            lineNumbers.redraw();
        }
        if (getVerticalRuler() instanceof CompositeRuler composite) composite.relayout();
        ruler.redraw();
    }
}
