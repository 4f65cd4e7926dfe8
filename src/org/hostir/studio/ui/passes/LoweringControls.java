package org.hostir.studio.ui.passes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.layout.RowLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Spinner;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.dialogs.FilteredResourcesSelectionDialog;
import org.hostir.studio.lower.LoweringOption;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.OptionType;
import org.hostir.studio.ui.OptionField;
import org.hostir.studio.ui.ComboTips;

/**
 * The rows of fields above the pass list: devices, rank, the pass filter, and one field per declared lowering
 * option (made from its declaration). Changing an option asks the view to re-lower; changing the rank or the
 * filter only re-shows what is already lowered.
 */
final class LoweringControls {
    /** How long the filter text must rest before the pass list follows it. */
    static final int FILTER_DELAY_MS = 150;
    final Composite root;
    final Label file;
    final Button choose;
    final Spinner devices;
    final Combo rank;
    /** The rank compared with the one shown, or none ({@link #NO_RANK}, the first item). */
    final Combo against;
    static final String NO_RANK = "none";
    final List<OptionField> optionFields = new ArrayList<>();
    final Text filter;
    /** Shows or hides the options' rows; its text says how many options differ from their defaults. */
    final Button optionsToggle;
    private final Composite options;
    /** The view's size the options were last shown or hidden for. */
    private Point decidedFor;

    /** {@code chosen} gets the file a person picks with Choose... */
    LoweringControls(Composite parent, Runnable relower, Runnable reshow, Consumer<IFile> chosen) {
        root = new Composite(parent, SWT.NONE);
        GridLayout layout = new GridLayout(1, false);
        layout.marginHeight = 1;   // at 1280 x 800 the pass list's last row needs these pixels (issue 35)
        layout.marginWidth = 4;
        layout.verticalSpacing = 2;
        root.setLayout(layout);

        Composite first = row(root, 12);
        label(first, "Fusion:");
        file = new Label(first, SWT.NONE);
        file.setText("(open a .fusion file or choose one)");
        // the path gives way to the fields when the row is short of width (its tooltip has it whole)
        GridData fileData = new GridData(SWT.FILL, SWT.CENTER, true, false);
        fileData.widthHint = 60;
        file.setLayoutData(fileData);
        choose = new Button(first, SWT.PUSH);
        choose.setText("Choose...");
        choose.addListener(SWT.Selection, e -> chooseFile(chosen));
        label(first, "Devices:");
        devices = new Spinner(first, SWT.BORDER);
        devices.setValues(2, 1, 64, 0, 1, 2);
        devices.addListener(SWT.Selection, e -> relower.run());
        label(first, "Rank:");
        rank = new Combo(first, SWT.READ_ONLY);
        rank.setLayoutData(new GridData(60, SWT.DEFAULT));
        rank.addListener(SWT.Selection, e -> reshow.run());
        label(first, "Compare with:");
        against = new Combo(first, SWT.READ_ONLY);
        against.setItems(new String[] { NO_RANK });
        against.select(0);
        against.addListener(SWT.Selection, e -> reshow.run());
        ComboTips.onLabel(against, "Another rank's program after the same pass, beside this rank's (tree and text diff)");
        label(first, "Filter:");
        filter = new Text(first, SWT.SEARCH | SWT.ICON_CANCEL | SWT.BORDER);
        filter.setMessage("pass name");
        filter.setLayoutData(new GridData(110, SWT.DEFAULT));
        // the list is filtered once typing pauses: a rebuild per key made fast typists lose keys
        Runnable filterLater = () -> { if (!filter.isDisposed()) reshow.run(); };
        filter.addListener(SWT.Modify, e -> filter.getDisplay().timerExec(FILTER_DELAY_MS, filterLater));
        optionsToggle = new Button(first, SWT.TOGGLE);
        optionsToggle.addListener(SWT.Selection, e -> setOptionsShown(optionsToggle.getSelection()));

        options = optionRows(root, relower);
        describeOptions();
        // shown where the view is tall enough for them and its lists; a person's click holds until the view's size
        // changes (maximized, restored, the window resized), which decides again
        parent.addListener(SWT.Resize, e -> {
            if (parent.getSize().equals(decidedFor)) return;
            decidedFor = parent.getSize();
            setOptionsShown(roomForOptions(parent));
        });
    }

    /**
     * One field per option the passes declare, in rows that wrap at the view's width (one row clipped the last
     * options at 1280 x 800, issue 35): the labelled fields first, the check boxes after them, so that a row of
     * check boxes alone is only as high as a check box.
     */
    private Composite optionRows(Composite root, Runnable relower) {
        Composite options = new Composite(root, SWT.NONE);
        RowLayout flow = new RowLayout(SWT.HORIZONTAL);
        flow.wrap = true;
        flow.center = true;
        flow.marginTop = flow.marginBottom = flow.marginLeft = flow.marginRight = 0;
        flow.spacing = 2;   // between rows as between cells: a cell's right margin parts the cells of a row
        options.setLayout(flow);
        options.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        for (boolean flags : new boolean[] { false, true }) {
            for (LoweringOption<?> o : LoweringOptions.DECLARED) {
                if ((o.type() instanceof OptionType.Flag) != flags) continue;
                optionFields.add(OptionField.create(cell(options, flags), o, () -> {
                    describeOptions();
                    relower.run();
                }));
            }
        }
        return options;
    }

    /**
     * Whether the options' rows leave the lists {@link #LISTS_HEIGHT} pixels in the view: at 1280 x 800 they took four
     * rows of the Lowering view under an editor of 150 px (issue 35), and there they are behind the toggle instead.
     */
    private boolean roomForOptions(Composite parent) {
        int width = parent.getClientArea().width;
        if (width <= 0) return options.getVisible();
        int rows = options.computeSize(width, SWT.DEFAULT).y;
        int first = root.getChildren()[0].computeSize(width, SWT.DEFAULT).y;
        return parent.getClientArea().height - first - rows >= LISTS_HEIGHT;
    }

    /** The height the pass list, the tree and the diff keep before the options' rows are shown beside them. */
    static final int LISTS_HEIGHT = 280;

    /** Shows or hides the options' rows, the toggle following. */
    void setOptionsShown(boolean shown) {
        optionsToggle.setSelection(shown);
        describeOptions();
        if (options.getVisible() == shown && ((GridData) options.getLayoutData()).exclude == !shown) return;
        ((GridData) options.getLayoutData()).exclude = !shown;
        options.setVisible(shown);
        root.getParent().layout(true, true);
    }

    /** The toggle's text: how many options differ from their defaults; its tooltip: every option's value. */
    private void describeOptions() {
        long changed = optionFields.stream().filter(f -> !f.text().equals(f.option().formattedDefault())).count();
        StringBuilder tip = new StringBuilder("Lowering options (click to ")
                .append(optionsToggle.getSelection() ? "hide" : "show").append(" them):");
        for (OptionField f : optionFields) tip.append("\n").append(f.option().label()).append(": ").append(f.text());
        String text = "Options" + (changed == 0 ? "" : " (" + changed + " set)")
                + (optionsToggle.getSelection() ? " \u25be" : " \u25b8");
        if (!text.equals(optionsToggle.getText())) {
            optionsToggle.setText(text);
            optionsToggle.getParent().layout(true);
        }
        optionsToggle.setToolTipText(tip.toString());
    }

    /** One option's label and control, kept together when the row wraps. */
    private static Composite cell(Composite parent, boolean flag) {
        Composite c = new Composite(parent, SWT.NONE);
        GridLayout l = new GridLayout(flag ? 1 : 2, false);
        l.marginHeight = 0;
        l.marginWidth = 0;
        l.marginRight = 6;
        c.setLayout(l);
        return c;
    }

    private void chooseFile(Consumer<IFile> chosen) {
        var dialog = new FilteredResourcesSelectionDialog(root.getShell(), false,
                ResourcesPlugin.getWorkspace().getRoot(), IResource.FILE);
        dialog.setTitle("Choose a fusion file");
        dialog.setInitialPattern("*.fusion");
        if (dialog.open() == 0 && dialog.getFirstResult() instanceof IFile f) chosen.accept(f);
    }

    private static Composite row(Composite parent, int columns) {
        Composite c = new Composite(parent, SWT.NONE);
        GridLayout l = new GridLayout(columns, false);
        l.marginHeight = 0;
        l.marginWidth = 0;
        c.setLayout(l);
        c.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        return c;
    }

    private static void label(Composite parent, String text) {
        new Label(parent, SWT.NONE).setText(text);
    }

    /** The options as {@code --option} pairs, so that LoweringOptions.parse validates them as the CLI does. */
    Map<String, String> options() {
        Map<String, String> m = new LinkedHashMap<>();
        for (OptionField f : optionFields) m.put(f.option().key(), f.text());
        return m;
    }

    /** Shows {@code text} as the value of {@code option}, as a person sets the field (no event). */
    void show(LoweringOption<?> option, String text) { show(option.key(), text); }

    /** Shows {@code text} as the value of the option named {@code key} (no event); an unknown key is ignored. */
    void show(String key, String text) {
        for (OptionField f : optionFields) {
            if (f.option().key().equals(key)) f.show(text);
        }
        describeOptions();
    }

    /** Shows ranks 0..n-1, keeping the selected one when it still exists. */
    void setRanks(int n) {
        int keep = Math.max(0, rank.getSelectionIndex());
        String[] items = new String[n];
        for (int i = 0; i < n; i++) items[i] = Integer.toString(i);
        rank.setItems(items);
        rank.select(Math.min(keep, n - 1));
        int compared = comparedRank();
        String[] others = new String[n + 1];
        others[0] = NO_RANK;
        for (int i = 0; i < n; i++) others[i + 1] = "rank " + i;
        against.setItems(others);
        against.select(compared < n ? compared + 1 : 0);
        root.layout(true, true);
    }

    int selectedRank() { return Math.max(0, rank.getSelectionIndex()); }

    /** The rank chosen under Compare with, or -1 for none. */
    int comparedRank() { return against.getSelectionIndex() - 1; }
}
