package org.hostir.studio.ui.editor;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.ui.handlers.HandlerUtil;

/** Command "Auto Layout" of the fusion editor: lays the graph out again, as one undoable operation. */
public final class AutoLayoutHandler extends AbstractHandler {
    @Override
    public Object execute(ExecutionEvent event) {
        if (HandlerUtil.getActiveEditor(event) instanceof FusionEditor editor) editor.autoLayout();
        return null;
    }
}
