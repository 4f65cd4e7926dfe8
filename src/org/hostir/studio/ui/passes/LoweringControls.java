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
    /** The first rows: the fusion's path and Choose..., then the fields (devices to the Options toggle). */
    private final Composite first;
    private final Composite fields;
    /** The fusion's path, shortened in the middle where the row is short of width. */
    final PathLabel file;
    final Button choose;
    final Spinner devices;
    final Combo rank;
    /** The rank compared with the one shown, or none ({@link #NO_RANK}, the first item). */
    final Combo against;
    static final String NO_RANK = "none";
    /** The ranks {@link #against} offers after {@link #NO_RANK}, in its order: every rank but the one shown. */
    private final List<Integer> otherRanks = new ArrayList<>();
    /** The rank the Compare with list was made for (null: none yet). */
    private Integer shownRank;
    final List<OptionField> optionFields = new ArrayList<>();
    final Text filter;
    /** Shows or hides the options' rows; its text says how many options differ from their defaults. */
    final Button optionsToggle;
    private final Composite options;
    /** The view's size the options were last shown or hidden for. */
    private Point decidedFor;

    /** {@code chosen} gets the file a person picks with Choose... */
    LoweringControls(Composite parent, Runnable relower, Runnable reshow, Consumer<IFile> chosen) {
        root = column(parent);

        first = row(root, 2);
        Composite fileCell = row(first, 3);
        label(fileCell, "Fusion:");
        file = new PathLabel(fileCell, "(open a .fusion file or choose one)");
        // the path gives way to the fields when the row is short of width (its tooltip has it whole)
        GridData fileData = new GridData(SWT.FILL, SWT.CENTER, true, false);
        fileData.widthHint = 60;
        file.label.setLayoutData(fileData);
        choose = new Button(fileCell, SWT.PUSH);
        choose.setText("Choose...");
        choose.addListener(SWT.Selection, e -> chooseFile(chosen));
        fields = new Composite(first, SWT.NONE);
        RowLayout flow = flow();
        flow.spacing = 0;
        fields.setLayout(flow);
        fields.setLayoutData(new GridData(SWT.END, SWT.CENTER, false, false));
        Composite cell = cell(fields, false);
        label(cell, "Devices:");
        devices = new Spinner(cell, SWT.BORDER);
        devices.setValues(2, 1, 64, 0, 1, 2);
        devices.addListener(SWT.Selection, e -> relower.run());
        cell = cell(fields, false);
        label(cell, "Rank:");
        rank = new Combo(cell, SWT.READ_ONLY);
        rank.setLayoutData(new GridData(60, SWT.DEFAULT));
        rank.addListener(SWT.Selection, e -> {
            offerOtherRanks(rank.getItemCount(), shownRank == null ? -1 : shownRank);
            reshow.run();
        });
        cell = cell(fields, false);
        label(cell, "Compare with:");
        against = new Combo(cell, SWT.READ_ONLY);
        against.setItems(new String[] { NO_RANK });
        against.select(0);
        against.addListener(SWT.Selection, e -> reshow.run());
        ComboTips.onLabel(against, "Another rank's program after the same pass, beside this rank's (tree and text diff)");
        cell = cell(fields, false);
        label(cell, "Filter:");
        filter = new Text(cell, SWT.SEARCH | SWT.ICON_CANCEL | SWT.BORDER);
        filter.setMessage("pass name");
        filter.setLayoutData(new GridData(110, SWT.DEFAULT));
        // the list is filtered once typing pauses: a rebuild per key made fast typists lose keys
        Runnable filterLater = () -> { if (!filter.isDisposed()) reshow.run(); };
        filter.addListener(SWT.Modify, e -> filter.getDisplay().timerExec(FILTER_DELAY_MS, filterLater));
        optionsToggle = new Button(fields, SWT.TOGGLE);
        optionsToggle.addListener(SWT.Selection, e -> setOptionsShown(optionsToggle.getSelection()));

        options = optionRows(root, relower);
        describeOptions();
        fitOnResize(parent);
    }

    /** The controls' column, tight: at 1280 x 800 the pass list's last row needs these pixels (issue 35). */
    private static Composite column(Composite parent) {
        Composite c = new Composite(parent, SWT.NONE);
        GridLayout layout = new GridLayout(1, false);
        layout.marginHeight = 1;
        layout.marginWidth = 4;
        layout.verticalSpacing = 2;
        c.setLayout(layout);
        return c;
    }

    /**
     * The options are shown where the view is tall enough for them and its lists; a person's click holds until the
     * view's size changes (maximized, restored, the window resized), which decides again.
     */
    private void fitOnResize(Composite parent) {
        parent.addListener(SWT.Resize, e -> {
            fitFirstRow(parent.getClientArea().width);
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
        options.setLayout(flow());
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
            if (first != null) fitFirstRow(root.getParent().getClientArea().width);
        }
        optionsToggle.setToolTipText(tip.toString());
    }

    /** Cells in rows that wrap at the width given. */
    private static RowLayout flow() {
        RowLayout flow = new RowLayout(SWT.HORIZONTAL);
        flow.wrap = true;
        flow.center = true;
        flow.marginTop = flow.marginBottom = flow.marginLeft = flow.marginRight = 0;
        flow.spacing = 2;   // between rows as between cells: a cell's right margin parts the cells of a row
        return flow;
    }

    /**
     * The path and the fields in one row where the path keeps {@link #MIN_PATH_WIDTH} beside them, else the path on
     * a row of its own and the fields wrapping below it: in a view 500 px wide (the Help view beside it) the one
     * row cut the path to nothing (issue 35).
     */
    private void fitFirstRow(int viewWidth) {
        int width = viewWidth - 2 * ((GridLayout) root.getLayout()).marginWidth;
        if (width <= 0) return;
        Composite fileCell = (Composite) first.getChildren()[0];
        // the cell's width with the path at its width hint, the hint replaced by the least the path keeps: the file's
        // name whole (at 1600 x 1000 in a narrower part it kept 100 px, "/low\u2026matmul.fusion", issue 35)
        int fileMin = fileCell.computeSize(SWT.DEFAULT, SWT.DEFAULT).x - ((GridData) file.label.getLayoutData()).widthHint
                + Math.max(MIN_PATH_WIDTH, file.readableWidth());
        boolean oneRow = fileMin + fields.computeSize(SWT.DEFAULT, SWT.DEFAULT).x
                + ((GridLayout) first.getLayout()).horizontalSpacing <= width;
        GridLayout layout = (GridLayout) first.getLayout();
        if (layout.numColumns == (oneRow ? 2 : 1)) return;
        layout.numColumns = oneRow ? 2 : 1;
        fields.setLayoutData(oneRow ? new GridData(SWT.END, SWT.CENTER, false, false)
                : new GridData(SWT.FILL, SWT.CENTER, true, false));
        root.layout(true, true);
    }

    /** Shows the fusion's path (and {@code note} after it), the first row following its file's name. */
    void showFile(String path, String note) {
        file.setText(path, note);
        fitFirstRow(root.getParent().getClientArea().width);
    }

    /** The path's width at least beside the fields in one row (at 1280 x 800 it has about 170 px there). */
    static final int MIN_PATH_WIDTH = 100;

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
        offerOtherRanks(n, selectedRank());
        fitFirstRow(root.getParent().getClientArea().width);   // the fields' width follows the ranks' width
        root.layout(true, true);
    }

    /** Selects {@code r} under Rank, as a person's pick does (Compare with follows). */
    void selectRank(int r) {
        int before = selectedRank();
        rank.select(r);
        offerOtherRanks(rank.getItemCount(), before);
    }

    /**
     * Compare with lists every rank but the one shown: offered the shown rank, it compared the rank with itself
     * (issue 35). The compared rank stays chosen; when it became the shown one, the rank shown before takes its place.
     */
    private void offerOtherRanks(int n, int shownBefore) {
        int shown = selectedRank(), compared = comparedRank();
        if (compared == shown) compared = shownBefore != shown ? shownBefore : -1;
        otherRanks.clear();
        List<String> items = new ArrayList<>(List.of(NO_RANK));
        for (int i = 0; i < n; i++) {
            if (i == shown) continue;
            otherRanks.add(i);
            items.add("rank " + i);
        }
        against.setItems(items.toArray(String[]::new));
        against.select(compared >= 0 && compared < n ? otherRanks.indexOf(compared) + 1 : 0);
        shownRank = shown;
    }

    int selectedRank() { return Math.max(0, rank.getSelectionIndex()); }

    /** The rank chosen under Compare with, or -1 for none. */
    int comparedRank() {
        int at = against.getSelectionIndex();
        return at <= 0 || at > otherRanks.size() ? -1 : otherRanks.get(at - 1);
    }
}
