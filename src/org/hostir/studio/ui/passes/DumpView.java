package org.hostir.studio.ui.passes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.compare.CompareConfiguration;
import org.eclipse.compare.structuremergeviewer.DiffNode;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.dnd.Clipboard;
import org.eclipse.swt.dnd.TextTransfer;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.layout.RowData;
import org.eclipse.swt.layout.RowLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.FileDialog;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Listener;
import org.eclipse.swt.widgets.Spinner;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.dialogs.FilteredResourcesSelectionDialog;
import org.eclipse.ui.part.ViewPart;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.rules.FusionBindings;
import org.hostir.studio.ui.passes.model.DumpSnapshots;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.HostIrPreferences;
import org.hostir.studio.ui.ViewIds;
import org.hostir.studio.ui.ComboTips;
import org.hostir.studio.ui.ThemeColors;

/**
 * The Lowering view's companion for real nvFuser output: a {@code NVFUSER_DUMP=host_ir} dump or log (opened from a
 * file or pasted) as a sequence of snapshots, one per program, with the same tree and text diffs as passes, a
 * filter, and "Compare with Studio lowering", which diffs the selected snapshot against the Studio's lowering of a
 * chosen fusion file for a rank, device count and options (numbering matched by structure). A separate view so
 * the Lowering view itself stays as it is; docs/nvfuser-interop.md.
 */
public class DumpView extends ViewPart {
    public static final String ID = "org.hostir.studio.ui.passes.DumpView";
    /** What a compared pane's title adds: its text is not numbered as nvFuser or the Studio printed it. */
    private static final String CANONICAL = "canonical numbering";
    static final String PASTED = "(pasted)";

    private Label source;
    private Text filter;
    private Text message;
    private org.eclipse.swt.widgets.List list;
    private TreeViewer tree;
    private ProgramMergeViewer text;
    private CompareConfiguration compareConfig;
    private Spinner devices;
    private Spinner rank;
    private Text options;
    private Combo generation;
    private DumpSnapshots snapshots;
    private List<Integer> shown = List.of();
    private DumpSnapshots.Comparison comparison;
    /** The fusion the shown program is compared with (text and label), while a comparison is asked for; else null. */
    private Compared compared;

    private record Compared(String fusion, String label) {}

    /** How many lines the message line shows before it scrolls. */
    private static final int MESSAGE_LINES = 3;

    @Override
    public void createPartControl(Composite parent) {
        ViewIds.help(parent, ViewIds.HELP_DUMP);
        Composite root = new Composite(parent, SWT.NONE);
        GridLayout rootLayout = new GridLayout(1, false);
        rootLayout.marginHeight = rootLayout.verticalSpacing = 2;
        root.setLayout(rootLayout);
        controls(root);
        // the body: the verdict, the program list and the tree in a column, the compare panes beside it at the
        // body's full height. Stacked under the tree and three header rows, the panes showed two or three lines at
        // 1280 x 800 in the Host IR perspective's bottom folder (issue 35, item 7)
        SashForm main = new SashForm(root, SWT.HORIZONTAL);
        main.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        Composite column = new Composite(main, SWT.NONE);
        GridLayout columnLayout = new GridLayout(1, false);
        columnLayout.marginWidth = columnLayout.marginHeight = 0;
        columnLayout.verticalSpacing = 2;
        column.setLayout(columnLayout);
        message = new Text(column, SWT.MULTI | SWT.READ_ONLY | SWT.WRAP | SWT.V_SCROLL);
        message.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        message.addListener(SWT.Modify, e -> fitMessage());
        column.addListener(SWT.Resize, e -> fitMessage());
        SashForm lists = new SashForm(column, SWT.VERTICAL);
        lists.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        list = new org.eclipse.swt.widgets.List(lists, SWT.BORDER | SWT.SINGLE | SWT.V_SCROLL);
        list.addListener(SWT.Selection, e -> showSelected());
        tree = PassTree.create(lists);
        lists.addListener(SWT.Resize, e -> keepListRows(lists));
        compareConfig = new CompareConfiguration();
        // made as the Lowering view's diff is (read-only, refreshed at once, the theme's colours), less breakpoints
        text = ProgramMergeViewer.plain(main, compareConfig);
        // F1 in a pane: the compare viewer's own help context, with no content here, stood before the view's
        for (StyledText pane : text.panes()) ViewIds.help(pane, ViewIds.HELP_DUMP);
        text.noBandWhenEmpty();
        ThemeColors.follow(text.getControl(), this::lightSelection);
        main.setWeights(30, 70);
        reopen();
    }

    /**
     * The panes' text selection in the present theme's colours: the compare viewer takes it from the text editors'
     * preferences, which keep the dark theme's navy after Dark -> Light without a restart, so that a view opened
     * then selected navy on white (round 15, by hand; one open at the switch is repaired with the rest). Under a
     * light pane a dark selection gets the list's selection colours, read from the toolkit again at the switch.
     */
    private void lightSelection() {
        for (StyledText pane : text.panes()) {
            boolean lightPane = ThemeColors.luminance(pane.getBackground().getRGB()) > LIGHT_PANE;
            if (lightPane && ThemeColors.luminance(pane.getSelectionBackground().getRGB()) < DARK_SELECTION) {
                pane.setSelectionBackground(pane.getDisplay().getSystemColor(SWT.COLOR_LIST_SELECTION));
                pane.setSelectionForeground(pane.getDisplay().getSystemColor(SWT.COLOR_LIST_SELECTION_TEXT));
            }
        }
    }

    /** A pane lighter than this is Light's; a selection darker than this on it is the dark theme's left behind. */
    private static final double LIGHT_PANE = 0.5, DARK_SELECTION = 0.2;

    /** The rows the program list keeps when the column is short; the tree takes the rest. */
    private static final int LIST_ROWS = 4;

    /** The program list {@value #LIST_ROWS} rows high or 40 % of the column, whichever is more; the tree the rest. */
    private void keepListRows(SashForm lists) {
        // weights in pixels of the height the sash leaves, so that the list gets exactly its rows
        int height = lists.getClientArea().height - lists.getSashWidth();
        if (height <= 1 || list.isDisposed()) return;
        int rows = list.getItemHeight() * LIST_ROWS + list.computeTrim(0, 0, 0, 0).height;
        int top = Math.min(height - 1, Math.max(rows, height * 2 / 5));
        lists.setWeights(top, height - top);
    }

    /**
     * The message line (above the program list) as high as its text wraps to at the column's width, at most
     * {@value #MESSAGE_LINES} lines, the rest by scrolling: a comparison's verdict names up to six differences, and
     * at 1280 x 800 the line kept the height of a stale wrap, taking the program list's, the tree's and the panes'
     * rows, or showing one line of the verdict (issue 35, driven by hand).
     */
    private void fitMessage() {
        if (message.isDisposed()) return;
        Composite column = message.getParent();
        int width = column.getClientArea().width;
        int wanted = message.computeSize(width > 0 ? width : SWT.DEFAULT, SWT.DEFAULT).y;
        int most = message.getLineHeight() * MESSAGE_LINES + message.computeTrim(0, 0, 0, 0).height;
        GridData data = (GridData) message.getLayoutData();
        // no message, no line: an empty line took a row from the list and the tree
        boolean none = message.getText().isEmpty();
        int hint = none ? 0 : Math.min(wanted, most);
        if (data.heightHint == hint && data.exclude == none) return;
        data.heightHint = hint;
        data.exclude = none;
        message.setVisible(!none);
        column.layout(true);
    }

    /**
     * The dump shown last time, shown again with the program that was selected: the view forgot the file across a
     * restart, then a pasted dump and the selected program (issue 35). A file gone since is a line saying so, and is
     * forgotten.
     */
    private void reopen() {
        HostIrPreferences.DumpProgram program = HostIrPreferences.dumpProgram();   // before showing selects the first
        String last = HostIrPreferences.dumpFile(), pasted = HostIrPreferences.dumpPasted();
        if (last != null) {
            Path file = Path.of(last);
            if (!java.nio.file.Files.isRegularFile(file)) {
                HostIrPreferences.setDumpFile(null);
                message.setText(last + ": the dump shown last time is no longer there");
                return;
            }
            open(file);
        } else if (pasted != null) {
            show(pasted, PASTED);
        }
        if (snapshots != null && program != null) select(DumpPrograms.find(snapshots, program));
    }

    private void controls(Composite root) {
        // one row that wraps: the file (or the hint) and the controls; at 1280 x 800 two rows, where the file's line
        // on its own and the controls wrapped under it took three (issue 35, item 7). In one GridLayout row of
        // fifteen columns the label got no width and the last controls lay past the view's edge (issue 35)
        Composite row = new Composite(root, SWT.NONE);
        row.setLayout(centredRow(true));
        row.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        source = new Label(row, SWT.WRAP);
        source.setText("Open an NVFUSER_DUMP=host_ir dump or log (Open Dump...), or paste one (Paste)");
        row.addListener(SWT.Resize, e -> fitSource());
        button(row, "Open Dump...", this::openInteractively);
        button(row, "Paste", this::paste);
        filter = new Text(labelled(row, "Filter:"), SWT.BORDER | SWT.SEARCH);
        filter.setLayoutData(new RowData(100, SWT.DEFAULT));
        filter.addListener(SWT.Modify, e -> showList());
        devices = new Spinner(labelled(row, "Devices:"), SWT.BORDER);
        devices.setValues(2, 1, FusionBindings.MAX_DEVICES, 0, 1, 2);
        rank = new Spinner(labelled(row, "Rank:"), SWT.BORDER);
        rank.setValues(0, 0, 4095, 0, 1, 1);
        options = new Text(labelled(row, "Options:"), SWT.BORDER);
        options.setMessage("key=value ...");
        options.setLayoutData(new RowData(140, SWT.DEFAULT));
        generation = new Combo(labelled(row, "nvFuser:"), SWT.READ_ONLY);
        // the lowerable generations, newest last, as the --nvfuser flag spells them
        for (NvFuserGeneration g : NvFuserGeneration.lowerableValues()) generation.add(g.label());
        ComboTips.onLabel(generation, "the nvFuser generation the comparison prints both programs in; set to the"
                + " generation the dump reader detected when a program is selected");
        setGeneration(NvFuserGeneration.newest());
        button(row, "Compare with Studio lowering...", this::compareInteractively);
        // a comparison follows its settings: devices, rank, options (Enter) and generation compare again (issue 35)
        Listener again = e -> recompare();
        devices.addListener(SWT.Selection, again);
        rank.addListener(SWT.Selection, again);
        options.addListener(SWT.DefaultSelection, again);
        generation.addListener(SWT.Selection, again);
    }

    /** The file's line as wide as its text, at most the row's width (a long path wraps rather than being cut off). */
    private void fitSource() {
        Composite row = source.getParent();
        int most = row.getClientArea().width;
        if (most <= 0) return;
        int width = Math.min(source.computeSize(SWT.DEFAULT, SWT.DEFAULT).x, most);
        if (source.getLayoutData() instanceof RowData d && d.width == width) return;
        source.setLayoutData(new RowData(width, SWT.DEFAULT));
        row.getParent().layout(true, true);
    }

    /** A row of controls centred on one line, without margins; {@code wrap}: whether it may take more lines. */
    private static RowLayout centredRow(boolean wrap) {
        RowLayout layout = new RowLayout(SWT.HORIZONTAL);
        layout.wrap = wrap;
        layout.center = true;
        layout.marginLeft = layout.marginRight = layout.marginTop = layout.marginBottom = 0;
        return layout;
    }

    /**
     * A label and (made next in the returned composite) its control, which wrap as one: the row wrapped between
     * "nvFuser:" and its choice at 1280 x 800.
     */
    private static Composite labelled(Composite row, String label) {
        Composite pair = new Composite(row, SWT.NONE);
        pair.setLayout(centredRow(false));
        new Label(pair, SWT.NONE).setText(label);
        return pair;
    }

    private static void button(Composite parent, String label, Runnable action) {
        Button b = new Button(parent, SWT.PUSH);
        b.setText(label);
        b.addListener(SWT.Selection, e -> action.run());
    }

    // ---- opening ----

    private void openInteractively() {
        FileDialog d = new FileDialog(getSite().getShell(), SWT.OPEN);
        d.setFilterExtensions(new String[] {"*.log;*.txt", "*"});
        String chosen = d.open();
        if (chosen != null) open(Path.of(chosen));
    }

    /**
     * Shows the programs of a dump or log file, read as the CLI's {@code dump} reads it ({@link Engine#readDumps(Path)}:
     * strict UTF-8 with the line of a bad byte, a folder or pipe refused); a file that cannot be read is a message,
     * not an exception.
     */
    public void open(Path file) {
        try {
            show(new DumpSnapshots(file.toString(), Engine.readDumps(file)));
            HostIrPreferences.setDumpFile(file.toAbsolutePath().toString());
        } catch (EngineFailure e) {
            failed(e);
        }
    }

    /** The clipboard's text as a dump, kept (up to a size) to be shown again when the view comes back. */
    private void paste() {
        Clipboard c = new Clipboard(list.getDisplay());
        try {
            if (!(c.getContents(TextTransfer.getInstance()) instanceof String s)) return;
            show(s, PASTED);
            if (snapshots != null && !HostIrPreferences.setDumpPasted(s)) {
                message.setText("the pasted dump (" + s.length() + " characters, over "
                        + HostIrPreferences.MOST_PASTED + ") is not kept for the next start: open it from a file");
            }
        } finally {
            c.dispose();
        }
    }

    /** Shows the programs of dump text, labelled {@code label} in messages. */
    public void show(String dump, String label) {
        try {
            show(DumpSnapshots.read(dump, label));
        } catch (EngineFailure e) {
            failed(e);
        }
    }

    private void failed(EngineFailure e) {
        snapshots = null;
        fail(String.join("\n", e.lines()));
    }

    private void show(DumpSnapshots read) {
        snapshots = read;
        String label = read.file();
        // the view's one header line: no description above it naming the dump again (issue 35: "FILE: #2" over
        // "FILE: 3 programs", a row the lists lacked at 1280 x 800); the selected row and the panes' titles say
        // which program is shown
        source.setText(label + ": " + snapshots.size() + (snapshots.size() == 1 ? " program" : " programs")
                + (read.skipped().isEmpty() ? "" : "; " + read.skipped()));
        fitSource();
        source.getParent().getParent().layout(true, true);   // the row may wrap otherwise
        message.setText("");
        comparison = null;
        var first = snapshots.programs().stream().filter(p -> p.readable()).findFirst();
        first.ifPresent(p -> devices.setSelection(Engine.deviceCount(p.dump().program())));
        showList();
    }

    private void fail(String why) {
        message.setText(why);
        list.removeAll();
        tree.setInput(List.of());
        text.setInput(null);
        text.noBandWhenEmpty();
    }

    private void showList() {
        if (snapshots == null) return;
        shown = snapshots.visible(filter.getText());
        list.removeAll();
        for (int i : shown) list.add(snapshots.label(i));
        if (!shown.isEmpty()) list.select(0);
        showSelected();
    }

    // ---- showing and comparing ----

    private void showSelected() {
        int i = selected();
        comparison = null;
        compared = null;
        if (i < 0) {
            tree.setInput(List.of());
            text.setInput(null);
            text.noBandWhenEmpty();
            return;
        }
        NvFuserGeneration detected = snapshots.generation(i);
        if (detected.lowerable()) setGeneration(detected);
        tree.setInput(snapshots.rows(i));
        tree.expandAll();
        compareConfig.setLeftLabel(i == 0 ? "(first program)" : "BEFORE: the previous program");
        compareConfig.setRightLabel(snapshots.label(i));
        text.setInput(new DiffNode(new TextInput("before", snapshots.previousText(i)),
                new TextInput("after", snapshots.text(i))));
        HostIrPreferences.setDumpProgram(new HostIrPreferences.DumpProgram(snapshots.label(i), i));
    }

    /** The index (into the dump's programs) of the selected snapshot, or -1. */
    public int selected() {
        int at = list.getSelectionIndex();
        return at < 0 || at >= shown.size() ? -1 : shown.get(at);
    }

    private void compareInteractively() {
        if (selected() < 0) return;
        var d = new FilteredResourcesSelectionDialog(getSite().getShell(), false,
                ResourcesPlugin.getWorkspace().getRoot(), IResource.FILE);
        d.setTitle("Compare with the Studio's lowering of");
        d.setInitialPattern("*.fusion");
        if (d.open() != 0 || !(d.getFirstResult() instanceof IFile f)) return;
        try (var in = f.getContents(true)) {
            compareWith(new String(in.readAllBytes(), StandardCharsets.UTF_8), f.getFullPath().toString(),
                    devices.getSelection(), rank.getSelection(), pairs(options.getText()));
        } catch (CoreException | IOException e) {
            message.setText(f.getFullPath() + ": cannot read the file");
        }
    }

    /**
     * Diffs the selected snapshot against the Studio's lowering of a fusion for one rank; the result replaces the
     * tree and text until another snapshot is selected. Problems (the file, options, rank) go to the message line.
     */
    public void compareWith(String fusion, String label, int deviceCount, int rankIndex, Map<String, String> pairs) {
        int i = selected();
        if (i < 0 || !snapshots.programs().get(i).readable()) {
            message.setText("select a readable program of the dump first");
            return;
        }
        compared = new Compared(fusion, label);
        HostIrContainer studio;
        try {
            if (rankIndex >= deviceCount) {
                throw new IllegalArgumentException("rank " + rankIndex + " of " + deviceCount + " devices");
            }
            var loaded = Engine.load(new FusionSource.Text(fusion, label), deviceCount, Map.of());
            studio = Engine.lowerRank(loaded, LoweringOptions.parse(pairs), rankIndex);
        } catch (EngineFailure e) {
            message.setText(String.join("\n", e.lines()));
            return;
        } catch (RuntimeException e) {
            message.setText(label + ": " + e.getMessage());
            return;
        }
        String studioLabel = label + ", rank " + rankIndex + " of " + deviceCount;
        comparison = snapshots.compare(i, studio, studioLabel, generation());
        message.setText(comparison.verdict(6));
        tree.setInput(comparison.rows());
        tree.expandAll();
        // both panes print the programs renumbered in one canonical order, so that numbering alone differs nowhere:
        // the titles say so ("nvFuser: #2" over the canonical text read as nvFuser's own, issue 35)
        compareConfig.setLeftLabel("nvFuser: " + snapshots.label(i) + ", " + CANONICAL);
        compareConfig.setRightLabel("Studio: " + studioLabel + ", " + CANONICAL);
        text.setInput(new DiffNode(new TextInput("dump", comparison.dumpText()),
                new TextInput("studio", comparison.studioText())));
    }

    /** Compares the shown program again with the fusion last compared, under the view's present settings. */
    private void recompare() {
        if (compared != null) {
            compareWith(compared.fusion(), compared.label(), devices.getSelection(), rank.getSelection(),
                    pairs(options.getText()));
        }
    }

    /** {@code key=value} pairs separated by blanks or commas; a malformed pair is left for the options check. */
    static Map<String, String> pairs(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String p : text.strip().split("[\\s,]+")) {
            if (p.isEmpty()) continue;
            int eq = p.indexOf('=');
            out.put(eq < 0 ? p : p.substring(0, eq), eq < 0 ? "" : p.substring(eq + 1));
        }
        return out;
    }

    /** The generation chosen in the view ("nvFuser:"). */
    public NvFuserGeneration generation() {
        return NvFuserGeneration.ofLabel(generation.getText()).orElse(NvFuserGeneration.newest());
    }

    public void setGeneration(NvFuserGeneration g) {
        generation.setText(g.label());
    }

    // ---- for tests ----

    public DumpSnapshots snapshots() { return snapshots; }

    public DumpSnapshots.Comparison comparison() { return comparison; }

    public void select(int program) {
        int at = shown.indexOf(program);
        if (at >= 0) {
            list.select(at);
            showSelected();
        }
    }

    public void setFilter(String f) { filter.setText(f); }

    @SuppressWarnings("unchecked")
    public List<PassRow> treeRows() {
        return tree.getInput() == null ? List.of() : PassRow.flatten((List<PassRow>) tree.getInput());
    }

    public String messageText() { return message.getText(); }

    @Override
    public void setFocus() { list.setFocus(); }

    @Override
    public void dispose() {
        if (compareConfig != null) compareConfig.dispose();
        super.dispose();
    }
}
