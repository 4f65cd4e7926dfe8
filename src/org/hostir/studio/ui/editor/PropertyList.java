package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Supplier;

import org.eclipse.ui.views.properties.ComboBoxPropertyDescriptor;
import org.eclipse.ui.views.properties.IPropertyDescriptor;
import org.eclipse.ui.views.properties.IPropertySource;
import org.eclipse.ui.views.properties.PropertyDescriptor;
import org.eclipse.ui.views.properties.TextPropertyDescriptor;

/**
 * A property source made of a list of properties, each with its text (or choice) value, a validator run on
 * every keystroke of the cell editor and again on apply, and the edit it makes. Values are strings; combo
 * properties take the index the property sheet passes or the choice's text (for programmatic use).
 */
class PropertyList implements IPropertySource {
    /** Checks a new value: null when acceptable, else the message for the user. */
    interface Check {
        String check(String value);
    }

    /** Applies an accepted value. */
    interface Apply {
        void apply(String value);
    }

    /** {@code suggestions}: a text property's drop-down of values it accepts, with {@code hint} (else null). */
    record Prop(String id, String label, String category, String[] choices, Supplier<Object> value, Check check,
                Apply apply, Supplier<String[]> suggestions, String hint) {
        Prop(String id, String label, String category, String[] choices, Supplier<Object> value, Check check, Apply apply) {
            this(id, label, category, choices, value, check, apply, null, null);
        }

        boolean editable() { return apply != null; }
    }

    private final FusionCommands editor;
    private final String editable;
    final List<Prop> props = new ArrayList<>();

    PropertyList(FusionCommands editor, String editableValue) {
        this.editor = editor;
        this.editable = editableValue;
    }

    PropertyList text(String id, String label, String category, Supplier<Object> value, Check check, Apply apply) {
        props.add(new Prop(id, label, category, null, value, check, apply));
        return this;
    }

    /** A text property whose cell offers {@code suggestions} (typed text is taken too) and says {@code hint}. */
    PropertyList suggesting(String id, String label, String category, Supplier<String[]> suggestions, String hint,
                            Supplier<Object> value, Check check, Apply apply) {
        props.add(new Prop(id, label, category, null, value, check, apply, suggestions, hint));
        return this;
    }

    PropertyList choice(String id, String label, String category, String[] choices, Supplier<Object> value, Apply apply) {
        props.add(new Prop(id, label, category, choices, value, v -> Arrays.asList(choices).contains(v) ? null
                : "one of " + String.join(", ", choices), apply));
        return this;
    }

    PropertyList readOnly(String id, String label, String category, Supplier<Object> value) {
        props.add(new Prop(id, label, category, null, value, v -> "read-only", null));
        return this;
    }

    @Override
    public Object getEditableValue() { return editable; }

    @Override
    public IPropertyDescriptor[] getPropertyDescriptors() {
        List<IPropertyDescriptor> out = new ArrayList<>();
        for (Prop p : props) {
            PropertyDescriptor d;
            if (!p.editable()) {
                d = new PropertyDescriptor(p.id(), p.label());
            } else if (p.suggestions() != null) {
                d = SuggestionCellEditor.descriptor(p.id(), p.label(), p.suggestions().get(), p.hint());
                d.setValidator(v -> p.check().check(String.valueOf(v)));
            } else if (p.choices() != null) {
                d = new ComboBoxPropertyDescriptor(p.id(), p.label(), p.choices());
            } else {
                d = new TextPropertyDescriptor(p.id(), p.label());
                d.setValidator(v -> p.check().check(String.valueOf(v)));
            }
            if (p.category() != null) d.setCategory(p.category());
            out.add(d);
        }
        return out.toArray(IPropertyDescriptor[]::new);
    }

    Prop prop(Object id) {
        for (Prop p : props) if (p.id().equals(id)) return p;
        return null;
    }

    @Override
    public Object getPropertyValue(Object id) {
        Prop p = prop(id);
        if (p == null) return null;
        Object v = valueOf(p);
        if (p.editable() && p.choices() != null) return Math.max(0, Arrays.asList(p.choices()).indexOf(String.valueOf(v)));
        return v == null ? "" : v;
    }

    /** The property's value as text (the choice's name for combos). */
    String text(Object id) {
        Prop p = prop(id);
        Object v = p == null ? null : valueOf(p);
        return v == null ? "" : v instanceof IPropertySource s ? String.valueOf(s.getEditableValue()) : String.valueOf(v);
    }

    /**
     * A property's value, or null when what it describes is gone: a rename or delete applied from this very sheet
     * (the sheet reads its old entries once more before it follows the new selection; issue 35, a tensor renamed in
     * Properties raised "No value present" and left the editor's model apart from its text).
     */
    private static Object valueOf(Prop p) {
        try {
            return p.value().get();
        } catch (NoSuchElementException gone) {
            return null;
        }
    }

    @Override
    public void setPropertyValue(Object id, Object value) {
        Prop p = prop(id);
        if (p == null || !p.editable()) {
            // a nested list (an axis) tells its parent it changed by setting itself: not an edit of the parent
            boolean nested = value instanceof IPropertySource || (p != null && String.valueOf(value).equals(text(id)));
            if (p != null && !nested) editor.refuse(p.label() + " is derived by the op and cannot be edited");
            return;
        }
        String v = p.choices() != null && value instanceof Integer i
                ? (i >= 0 && i < p.choices().length ? p.choices()[i] : null) : String.valueOf(value);
        if (v == null) return;
        if (v.equals(text(id))) return;
        String problem = p.check().check(v);
        if (problem != null) {
            editor.refuse(p.label() + ": " + problem);
            return;
        }
        p.apply().apply(v);
    }

    @Override
    public boolean isPropertySet(Object id) { return false; }

    @Override
    public void resetPropertyValue(Object id) {}
}
