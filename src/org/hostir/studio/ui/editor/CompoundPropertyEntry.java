package org.hostir.studio.ui.editor;

import java.util.Objects;

import org.eclipse.jface.viewers.ILabelProvider;
import org.eclipse.ui.views.properties.IPropertySource;
import org.eclipse.ui.views.properties.PropertySheetEntry;

/**
 * A property-sheet entry whose applied value is one editor operation, however many selected tensors or ops it
 * sets (the Properties view sets each source of a multi-selection in turn). GEF's UndoablePropertySheetEntry
 * does the same with a compound command. For a multi-selection it shows a value only where the selected elements
 * agree and leaves the cell blank where they differ (Eclipse's entry shows the first element's value).
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

    @Override
    public String getValueAsString() {
        Object[] values = getValues();
        if (values.length > 1 && getDescriptor() != null) {
            ILabelProvider labels = getDescriptor().getLabelProvider();
            String first = shown(labels, values[0]);
            for (Object v : values) if (!Objects.equals(first, shown(labels, v))) return "";
        }
        return super.getValueAsString();
    }

    /** A value as its cell shows it (a nested list, an axis, by its own one-line text). */
    private static String shown(ILabelProvider labels, Object value) {
        if (value instanceof IPropertySource s) return String.valueOf(s.getEditableValue());
        return labels == null ? String.valueOf(value) : labels.getText(value);
    }
}
