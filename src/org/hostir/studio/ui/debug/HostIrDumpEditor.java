package org.hostir.studio.ui.debug;

import org.eclipse.debug.ui.actions.ToggleBreakpointAction;
import org.eclipse.ui.editors.text.TextEditor;
import org.eclipse.ui.texteditor.ITextEditorActionConstants;

/**
 * A Host IR dump or log as text (Open With > Host IR Dump Editor): a text editor whose ruler toggles a node
 * breakpoint on a double click at a node's line, as Java's editor does on a statement ({@link DumpBreakpoints}
 * says which node a line is). A run of the dump's programs (a debug configuration's dump) holds there.
 */
public final class HostIrDumpEditor extends TextEditor {
    public static final String ID = "org.hostir.studio.ui.debug.dumpEditor";

    @Override
    protected void createActions() {
        super.createActions();
        setAction(ITextEditorActionConstants.RULER_DOUBLE_CLICK, new ToggleBreakpointAction(this,
                getDocumentProvider().getDocument(getEditorInput()), getVerticalRuler()));
    }
}
