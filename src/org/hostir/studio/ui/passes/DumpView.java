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
        root.setLayout(new GridLayout(1, false));
        controls(root);
        message = new Text(root, SWT.MULTI | SWT.READ_ONLY | SWT.WRAP | SWT.V_SCROLL);
        message.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        message.addListener(SWT.Modify, e -> fitMessage());
        root.addListener(SWT.Resize, e -> fitMessage());
        SashForm main = new SashForm(root, SWT.HORIZONTAL);
        main.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        list = new org.eclipse.swt.widgets.List(main, SWT.BORDER | SWT.SINGLE | SWT.V_SCROLL);
        list.addListener(SWT.Selection, e -> showSelected());
        SashForm right = new SashForm(main, SWT.VERTICAL);
        tree = PassTree.create(right);
        compareConfig = new CompareConfiguration();
        // made as the Lowering view's diff is (read-only, refreshed at once, the theme's colours), less breakpoints
        text = ProgramMergeViewer.plain(right, compareConfig);
        right.setWeights(45, 55);
        main.setWeights(22, 78);
        reopen();
    }

    /**
     * The message line as high as its text wraps to at the view's width, at most {@value #MESSAGE_LINES} lines, the
     * rest by scrolling: a comparison's verdict names up to six differences, and at 1280 x 800 the line kept the
     * height of a stale wrap, taking the program list's, the tree's and the panes' rows, or showing one line of the
     * verdict (issue 35, driven by hand).
     */
    private void fitMessage() {
        if (message.isDisposed()) return;
        Composite root = message.getParent();
        int width = root.getClientArea().width - 2 * ((GridLayout) root.getLayout()).marginWidth;
        int wanted = message.computeSize(width > 0 ? width : SWT.DEFAULT, SWT.DEFAULT).y;
        int most = message.getLineHeight() * MESSAGE_LINES + message.computeTrim(0, 0, 0, 0).height;
        GridData data = (GridData) message.getLayoutData();
        int hint = message.getText().isEmpty() ? SWT.DEFAULT : Math.min(wanted, most);
        if (data.heightHint == hint) return;
        data.heightHint = hint;
        root.layout(true);
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
        // the file (or the hint) on a line of its own and the controls in rows that wrap: in one row of fifteen
        // columns the label got no width at all and, at 1280 x 800, the nvFuser choice and "Compare with Studio
        // lowering..." lay past the view's right edge (issue 35, driven by hand)
        source = new Label(root, SWT.WRAP);
        source.setText("Open an NVFUSER_DUMP=host_ir dump or log (Open Dump...), or paste one (Paste)");
        source.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        Composite row = new Composite(root, SWT.NONE);
        RowLayout rows = new RowLayout(SWT.HORIZONTAL);
        rows.wrap = true;
        rows.center = true;
        rows.marginLeft = rows.marginRight = rows.marginTop = rows.marginBottom = 0;
        row.setLayout(rows);
        row.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        button(row, "Open Dump...", this::openInteractively);
        button(row, "Paste", this::paste);
        new Label(row, SWT.NONE).setText("Filter:");
        filter = new Text(row, SWT.BORDER | SWT.SEARCH);
        filter.setLayoutData(new RowData(100, SWT.DEFAULT));
        filter.addListener(SWT.Modify, e -> showList());
        new Label(row, SWT.NONE).setText("Devices:");
        devices = new Spinner(row, SWT.BORDER);
        devices.setValues(2, 1, FusionBindings.MAX_DEVICES, 0, 1, 2);
        new Label(row, SWT.NONE).setText("Rank:");
        rank = new Spinner(row, SWT.BORDER);
        rank.setValues(0, 0, 4095, 0, 1, 1);
        new Label(row, SWT.NONE).setText("Options:");
        options = new Text(row, SWT.BORDER);
        options.setMessage("key=value ...");
        options.setLayoutData(new RowData(140, SWT.DEFAULT));
        new Label(row, SWT.NONE).setText("nvFuser:");
        generation = new Combo(row, SWT.READ_ONLY);
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
        source.getParent().layout(true, true);
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
