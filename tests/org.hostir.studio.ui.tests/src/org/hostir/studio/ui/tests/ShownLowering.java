package org.hostir.studio.ui.tests;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Spinner;
import org.eclipse.swt.widgets.Text;
import org.hostir.studio.ui.LoweringShown;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.PassInspector;

/**
 * What the Lowering view shows, read as a person reads it: its lists (the {@link PassInspector} it answers as an
 * adapter), the message and the file label above them, the filter; and its fields set as a person sets them (the
 * rank combo, an option's spinner), each change announced to the view as the widget announces it.
 */
public final class ShownLowering {
    private ShownLowering() {}

    public static PassInspector of(LoweringView view) { return view.getAdapter(PassInspector.class); }

    /** The view's top composite: the fields, the message and the lists. */
    private static Composite root(LoweringView view) {
        Control c = of(view).passList();
        while (!(c.getParent().getLayout() instanceof org.eclipse.swt.layout.GridLayout g && g.numColumns == 1
                && c.getParent().getChildren().length >= 3)) {
            c = c.getParent();
        }
        return c.getParent();
    }

    /** The message above the lists while it shows (why the lowering failed, a hint), else "". */
    public static String message(LoweringView view) {
        for (Control c : root(view).getChildren()) {
            if (c instanceof Text t && (t.getStyle() & SWT.MULTI) != 0) return t.getVisible() ? t.getText() : "";
        }
        return "";
    }

    /** The label beside "Fusion:" (the path, marked when the editor's unsaved text is what is lowered). */
    public static String fileLabel(LoweringView view) {
        var labels = ViewTestSupport.descendants(root(view), Label.class);
        for (int i = 0; i + 1 < labels.size(); i++) {
            if (labels.get(i).getText().equals("Fusion:")) return labels.get(i + 1).getText();
        }
        throw new AssertionError("no Fusion: label");
    }

    /** Whether the file label says the editor's unsaved text is what is shown. */
    public static boolean showsUnsaved(LoweringView view) { return fileLabel(view).endsWith(LoweringView.UNSAVED); }

    /** The pass filter's field (a person clicks it and types). */
    public static Text filter(LoweringView view) {
        return ViewTestSupport.descendants(root(view), Text.class).stream().filter(t -> (t.getStyle() & SWT.SEARCH) != 0)
                .findFirst().orElseThrow(() -> new AssertionError("no filter field"));
    }

    /** The options the view lowers with, as a run of the same file gets them. */
    public static java.util.Map<String, String> options(LoweringView view) {
        return view.getAdapter(LoweringShown.class).options();
    }

    /** Chooses {@code rank} in the Rank combo; a rank not lowered yet is lowered in a job (join it). */
    public static void selectRank(LoweringView view, int rank) {
        Combo combo = ViewTestSupport.descendants(root(view), Combo.class).getFirst();
        combo.select(rank);
        combo.notifyListeners(SWT.Selection, new org.eclipse.swt.widgets.Event());
    }

    /** Sets the field labelled {@code label} (a spinner: "Number of streams") and lets the view lower again. */
    public static void setSpinner(LoweringView view, String label, int value) {
        Spinner s = spinner(view, label);
        s.setSelection(value);
        s.notifyListeners(SWT.Selection, new org.eclipse.swt.widgets.Event());
    }

    /** The spinner after the view's label {@code label} ("Devices"), where a person clicks to type a number. */
    public static Spinner spinner(LoweringView view, String label) {
        var children = ViewTestSupport.descendants(root(view), Control.class);
        for (int i = 0; i + 1 < children.size(); i++) {
            if (children.get(i) instanceof Label l && l.getText().equals(label + ":") && children.get(i + 1) instanceof Spinner s) {
                return s;
            }
        }
        throw new AssertionError("no spinner " + label + " in the Lowering view");
    }

    /** The toggle that shows and hides the option fields ("Options", the number of options set, an arrow). */
    public static org.eclipse.swt.widgets.Button optionsToggle(LoweringView view) {
        return ViewTestSupport.descendants(root(view), org.eclipse.swt.widgets.Button.class).stream()
                .filter(b -> (b.getStyle() & SWT.TOGGLE) != 0 && b.getText().startsWith("Options"))
                .findFirst().orElseThrow(() -> new AssertionError("no Options toggle"));
    }

    /** Whether the option fields show: the toggle is down and the first option's field is on screen. */
    public static boolean optionsShown(LoweringView view) {
        Control streams = null;
        var children = ViewTestSupport.descendants(root(view), Control.class);
        for (int i = 0; i + 1 < children.size() && streams == null; i++) {
            if (children.get(i) instanceof Label l && l.getText().equals("Streams:")) streams = children.get(i + 1);
        }
        if (streams == null) throw new AssertionError("no Streams field");
        return optionsToggle(view).getSelection() && streams.isVisible() && streams.getSize().y > 0;
    }

    /** A person opens the option fields with the toggle where they are hidden (the view's height hid them). */
    public static void openOptions(org.hostir.studio.ui.tests.input.Person person, LoweringView view) {
        if (optionsShown(view)) return;
        person.clickCenter(optionsToggle(view));
        person.settle(300);
        if (!optionsShown(view)) throw new AssertionError("the Options toggle did not show the fields");
    }

    /** The view's top composite, whose client area is the view's (the fields, the message and the lists in it). */
    public static Composite top(LoweringView view) { return root(view); }

    /** The composite of the fields above the lists (file, devices, rank, compare, filter and every option). */
    public static Composite fields(LoweringView view) {
        Control c = filter(view);
        while (c.getParent() != root(view)) c = c.getParent();
        return (Composite) c;
    }
}
