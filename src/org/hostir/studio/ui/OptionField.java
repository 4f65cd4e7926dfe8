package org.hostir.studio.ui;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Spinner;
import org.hostir.studio.lower.LoweringException;
import org.hostir.studio.lower.LoweringOption;
import org.hostir.studio.lower.OptionType;

/**
 * The control of one lowering option, made from its declaration, so that the Lowering view and the launch tab
 * show every option the passes declare without listing them: a spinner for a range, a read-only combo for a
 * choice, a check box for a flag, with the option's key and its help as tooltip (a choice's on its label, {@link
 * ComboTips}). Values go in and out as
 * {@code --option} text, so {@code LoweringOptions.parse} checks them as it checks the command line's.
 */
public final class OptionField {
    private final LoweringOption<?> option;
    private final Control control;

    private OptionField(LoweringOption<?> option, Control control) {
        this.option = option;
        this.control = control;
    }

    /** {@code Label:} and the control (a check box alone for a flag), added to {@code parent} in that order. */
    public static OptionField create(Composite parent, LoweringOption<?> option, Runnable changed) {
        if (!(option.type() instanceof OptionType.Flag)) {
            Label label = new Label(parent, SWT.NONE);
            label.setText(option.label() + ":");
            label.setToolTipText(option.help());
        }
        Control control = switch (option.type()) {
            case OptionType.IntRange r -> {
                Spinner s = new Spinner(parent, SWT.BORDER);
                s.setValues((Integer) option.defaultValue(), r.min(), r.max(), 0, 1, 4);
                s.addListener(SWT.Selection, e -> changed.run());
                yield s;
            }
            case OptionType.Choice<?> c -> {
                Combo combo = new Combo(parent, SWT.READ_ONLY);
                combo.setItems(c.spellings().toArray(String[]::new));
                combo.addListener(SWT.Selection, e -> changed.run());
                yield combo;
            }
            case OptionType.Flag f -> {
                Button b = new Button(parent, SWT.CHECK);
                b.setText(option.label());
                b.addListener(SWT.Selection, e -> changed.run());
                yield b;
            }
        };
        String tip = option.key() + ": " + option.help();
        if (control instanceof Combo c) ComboTips.onLabel(c, tip); else control.setToolTipText(tip);
        OptionField field = new OptionField(option, control);
        field.show(option.formattedDefault());
        return field;
    }

    public LoweringOption<?> option() { return option; }

    public Control control() { return control; }

    /** The value shown, as {@code --option} text. */
    public String text() {
        return switch (control) {
            case Spinner s -> Integer.toString(s.getSelection());
            case Combo c -> c.getText();
            case Button b -> Boolean.toString(b.getSelection());
            default -> throw new IllegalStateException("no option control: " + control);
        };
    }

    /** Shows {@code text} (any spelling the option accepts); the default when it is not a value of the option. */
    public void show(String text) {
        String value;
        try {
            value = option.format(option.parse(text));
        } catch (LoweringException e) {
            value = option.formattedDefault();
        }
        switch (control) {
            case Spinner s -> s.setSelection(Integer.parseInt(value));
            case Combo c -> c.select(Math.max(0, c.indexOf(value)));
            case Button b -> b.setSelection(Boolean.parseBoolean(value));
            default -> throw new IllegalStateException("no option control: " + control);
        }
    }
}
