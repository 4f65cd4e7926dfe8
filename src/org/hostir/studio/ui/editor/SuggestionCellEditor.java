package org.hostir.studio.ui.editor;

import org.eclipse.jface.viewers.CellEditor;
import org.eclipse.jface.viewers.ComboBoxCellEditor;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CCombo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.ui.views.properties.PropertyDescriptor;

/**
 * A Properties cell that is free text with a drop-down of suggestions (the Device mesh: {@code all}, none, the
 * meshes the fusion uses), so that what the field accepts is offered rather than guessed. JFace's combo cell is
 * index-valued and drops typed text; this one's value is the text, whether typed or picked.
 */
final class SuggestionCellEditor extends ComboBoxCellEditor {
    SuggestionCellEditor(Composite parent, String[] suggestions) {
        super(parent, suggestions, SWT.NONE);   // SWT.NONE: the combo is editable
    }

    private CCombo combo() { return (CCombo) getControl(); }

    @Override
    protected Object doGetValue() { return combo().getText(); }

    @Override
    protected void doSetValue(Object value) { combo().setText(value == null ? "" : String.valueOf(value)); }

    /** A property shown as text and edited with suggestions; {@code hint} is its description (the status line's). */
    static PropertyDescriptor descriptor(Object id, String label, String[] suggestions, String hint) {
        PropertyDescriptor d = new PropertyDescriptor(id, label) {
            @Override
            public CellEditor createPropertyEditor(Composite parent) {
                CellEditor editor = new SuggestionCellEditor(parent, suggestions);
                if (getValidator() != null) editor.setValidator(getValidator());
                return editor;
            }
        };
        d.setDescription(hint);
        return d;
    }
}
