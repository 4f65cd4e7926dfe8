package org.hostir.studio.ui.editor;

import org.eclipse.ui.views.properties.PropertySheetEntry;

/**
 * A property-sheet entry whose applied value is one editor operation, however many selected tensors or ops it
 * sets (the Properties view sets each source of a multi-selection in turn). GEF's UndoablePropertySheetEntry
 * does the same with a compound command.
 */
final class CompoundPropertyEntry extends PropertySheetEntry {
    private final FusionEditor editor;

    CompoundPropertyEntry(FusionEditor editor) { this.editor = editor; }

    @Override
    protected PropertySheetEntry createChildEntry() { return new CompoundPropertyEntry(editor); }

    @Override
    public void applyEditorValue() {
        editor.commands().compound(super::applyEditorValue);
    }
}
