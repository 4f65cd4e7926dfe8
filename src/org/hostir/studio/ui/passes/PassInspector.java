package org.hostir.studio.ui.passes;

import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import org.eclipse.compare.CompareConfiguration;
import org.eclipse.compare.INavigatable;
import org.eclipse.compare.structuremergeviewer.DiffNode;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Text;
import org.hostir.studio.diff.DiffKind;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.lower.Snapshot;
import org.hostir.studio.ui.FindBar;
import org.hostir.studio.ui.FusionElement;
import org.hostir.studio.ui.ViewIds;
import org.hostir.studio.ui.passes.model.PassEntry;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.passes.model.Provenance;

/**
 * The Lowering view's lists: the passes of one rank, and for the selected pass the Host IR before and after as a
 * tree diff and a side-by-side text diff. It shows a {@link PassTrace.RankTrace} and redoes nothing when asked to
 * show what it shows already; lowering, following editors and provenance are the view's.
 */
public final class PassInspector {
    /**
     * What the compare viewer and the sash take from the diff besides two equal panes, in pixels. The viewer halves
     * its width less the ruler between the panes (46 px) and then takes the overview ruler (19 px) from the right
     * half only: for the AFTER pane to keep a third, the overview counts twice, with the sash 3 + 46 + 38 = 87
     * (measured at 1280 x 800: a diff 780 px wide gave panes of 367 and 348 px); 3 px of margin. So a pass list
     * wider than a third of the view less this cuts the AFTER pane below a third: at 1280 x 800 one 264 px wide (a
     * cold start's six-digit times) left it 344 px of 1039 (drive 17), hence the fixed width of the time column.
     */
    private static final int DIFF_MIDDLE = 90;
    /** The narrowest the tree goes beside the diff. */
    private static final int MIN_TREE_WIDTH = 240;
    /** Rows the tree shows at least when it sits above the diff, where the view's height allows. */
    private static final int TREE_ROWS = 6;
    private static final int SHORT_TREE_ROWS = 4;

    private final PassTable passes;
    private final TreeViewer tree;
    private final ProgramMergeViewer text;
    /** What a person types in the find bar: a node's text, as the tree shows it. */
    static final String FIND_HINT = "node text (Enter: next)";
    private final FindBar<PassRow> find;
    private final PaneFind paneFind;
    private final CompareConfiguration compareConfig = new CompareConfiguration();
    private PassTrace.RankTrace rank;
    /** Another rank whose program the diffs compare with this rank's, or null (before and after the pass). */
    private PassTrace.RankTrace against;
    private List<PassEntry> entries = List.of();
    /** What the tree and text diff show now (rank trace and pass), so that re-showing it costs nothing. */
    private PassTrace.RankTrace shownRank;
    private int shownIndex = -1;
    private Runnable onPassShown = () -> {};
    /** Where the shown rank's nodes came from in the fusion file, or null. */
    private Provenance provenance;
    /** Set while revealing an incoming selection, so that the tree does not publish it back. */
    private boolean revealing;
    /** Fits the list's and the diff's widths again (the list's columns follow what it lists). */
    private final Runnable refit;
    /** The lists side by side: the pass list, and the tree over (or beside) the text diff. */
    private final SashForm main;

    /** {@code publish} gets the fusion element a selected node came from (null: none) whenever a person selects one. */
    PassInspector(Composite parent, Consumer<FusionElement> publish) {
        main = new SashForm(parent, SWT.HORIZONTAL);
        main.setLayoutData(new org.eclipse.swt.layout.GridData(SWT.FILL, SWT.FILL, true, true));
        passes = new PassTable(main, this::showSelectedPass);
        SashForm right = new SashForm(main, SWT.VERTICAL);
        Composite treeBox = new Composite(right, SWT.NONE);
        GridLayout box = new GridLayout(1, false);
        box.marginWidth = box.marginHeight = box.verticalSpacing = 0;
        treeBox.setLayout(box);
        find = new FindBar<>(treeBox, FIND_HINT, this::rowsMatching, this::selectRow, this::closeFind);
        tree = PassTree.create(treeBox);
        tree.getControl().setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        tree.addSelectionChangedListener(e -> { if (!revealing) publish.accept(selectedElement()); });
        // the text diff under its own find bar (Ctrl+F while one of its panes has the keyboard)
        Composite textBox = new Composite(right, SWT.NONE);
        textBox.setLayout(box);
        paneFind = new PaneFind(textBox);
        // the tree's rows take the new theme's diff colours with the panes
        text = ProgramMergeViewer.withBreakpoints(textBox, compareConfig, tree::refresh);
        text.getControl().setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        text.noBandWhenEmpty();   // no pass shown yet: no current line's band (drive 17, finding 12)
        // F1 goes to the nearest control with a help listener: the compare viewer's own caught it in the panes, and
        // the Help view said only "Click on any workbench part" (issue 35, driven by hand)
        for (StyledText pane : text.panes()) ViewIds.help(pane, ViewIds.HELP_LOWERING);
        right.setWeights(45, 55);
        main.setWeights(22, 78);
        main.addListener(SWT.Resize, e -> fit(main, right));
        refit = () -> fit(main, right);
    }


    /**
     * Shows or hides the lists: with nothing to lower they were an empty list and two empty panes with a current
     * line's band, saying nothing of what to do (issue 35); the view's message says it instead.
     */
    void setShown(boolean shown) {
        if (main.getVisible() == shown) return;
        ((GridData) main.getLayoutData()).exclude = !shown;
        main.setVisible(shown);
        main.getParent().layout(true, true);
    }

    /** Whether the lists show (something is lowered or being lowered). */
    public boolean isShown() { return main.getVisible(); }

    /**
     * Ctrl+F, Edit > Find/Replace: opens the find bar over the text pane that has the keyboard, else over the program
     * tree, its text selected.
     */
    void showFind() {
        var focus = tree.getControl().getDisplay().getFocusControl();
        if (focus instanceof StyledText pane && text.panes().contains(pane)) {
            paneFind.open(pane);
        } else {
            find.open();
        }
    }

    private void closeFind() {
        find.setShown(false);
        tree.getControl().setFocus();
    }

    /** The rows of the shown tree whose text contains {@code text} (case aside), in tree order; none for blank text. */
    private List<PassRow> rowsMatching(String text) {
        String q = text.strip().toLowerCase(Locale.ROOT);
        return q.isEmpty() ? List.of()
                : treeRows().stream().filter(r -> r.text().toLowerCase(Locale.ROOT).contains(q)).toList();
    }

    /** Selects a row as a click does (its fusion element is published) and scrolls it into view. */
    private void selectRow(PassRow row) { tree.setSelection(new StructuredSelection(row), true); }

    /** The find bar's field while the bar shows, else null. */
    public Text findField() { return find.control.isVisible() ? find.text : null; }

    /** What the find bar says of its matches ("2 of 5", "not found"). */
    public String findCount() { return find.count.getText(); }

    /** The text panes' find bar's field while it shows, else null. */
    public Text paneFindField() { return paneFind.field(); }

    /** What the text panes' find bar says of its matches. */
    public String paneFindCount() { return paneFind.count(); }

    /** The BEFORE (left) and AFTER (right) panes' texts. */
    public List<StyledText> panes() { return text.panes(); }

    /** Runs after each change of the pass shown (the view's description follows it). */
    void onPassShown(Runnable r) { onPassShown = r; }

    /**
     * Fits the lists to the view's shape: the pass list as wide as its names (up to a third, less the compare
     * viewer's middle), and the tree beside the side-by-side text diff only when the view is so wide that each
     * of the diff's panes still gets a third of the view's width (issue 18, Deliver 4); otherwise the tree goes
     * above the diff, which then has the whole width right of the pass list.
     */
    private void fit(SashForm main, SashForm right) {
        var size = main.getSize();
        if (size.x < 50 || size.y < 20) return;
        // a third of the view less the diff's middle, but its whole names and times up to three fifths of the view:
        // in a view 500 px wide (the Help view beside it) the third was 86 px and the \u00b5s column out of sight, and
        // half of it still cut the column (issue 35)
        int preferred = passes.preferredWidth();
        int passWidth = Math.min(Math.max(size.x / 3 - DIFF_MIDDLE, Math.min(preferred, size.x * 3 / 5)),
                Math.max(preferred, size.x / 8));
        // weights in pixels: a whole percent of a 1600 px view is 16 px, and rounded down it cut the time column
        // (issue 35: after Show in Lowering, rank 1's "620" of 6204 us); the sash takes its width of the rest
        main.setWeights(passWidth, Math.max(1, size.x - main.getSashWidth() - passWidth));
        int rest = size.x - passWidth;
        int diff = 2 * size.x / 3 + DIFF_MIDDLE;   // two panes of a third each, and the viewer's middle ruler
        boolean wide = rest - diff >= MIN_TREE_WIDTH && rest > 2 * size.y;
        int orientation = wide ? SWT.HORIZONTAL : SWT.VERTICAL;
        if (right.getOrientation() != orientation) right.setOrientation(orientation);
        if (wide) {
            right.setWeights(rest - diff, diff);
        } else {
            // the tree above the diff: room for TREE_ROWS rows where the diff keeps at least 45% (issue 35: at
            // 1280 x 800 the tree showed 3)
            var t = tree.getTree();
            int wanted = t.getHeaderHeight() + TREE_ROWS * t.getItemHeight() + 8;
            // too short for TREE_ROWS in 55%: four rows, the diff the rest (at 1280 x 800, issue 35)
            if (wanted > size.y * 55 / 100) wanted = t.getHeaderHeight() + SHORT_TREE_ROWS * t.getItemHeight() + 8;
            int treeHeight = Math.min(size.y * 55 / 100, Math.max(size.y * 45 / 100, wanted));
            right.setWeights(treeHeight, Math.max(1, size.y - treeHeight));
        }
    }

    /** Shows {@code entries} of {@code rank} (null: nothing lowered), keeping the selected pass when it is listed. */
    void show(PassTrace.RankTrace rank, List<PassEntry> entries, Provenance provenance) {
        show(rank, entries, provenance, null);
    }

    /**
     * As above; with {@code against} (another rank of the same lowering, or null) the tree and text diff compare the
     * two ranks' programs after the selected pass instead of this rank's before and after it.
     */
    void show(PassTrace.RankTrace rank, List<PassEntry> entries, Provenance provenance, PassTrace.RankTrace against) {
        boolean newComparison = against != this.against;
        this.against = against;
        if (newComparison) shownRank = null;   // the same pass, now compared otherwise
        this.rank = rank;
        this.provenance = provenance;
        this.entries = List.copyOf(entries);
        int before = passes.preferredWidth();
        passes.show(this.entries);   // shows the pass it selects (none: the panes empty)
        if (passes.preferredWidth() != before) refit.run();
    }

    /** The rank shown, or null. */
    public PassTrace.RankTrace rank() { return rank; }

    /** The pass entries the list shows now. */
    public List<PassEntry> visibleEntries() { return entries; }

    private void showSelectedPass() {
        PassEntry e = passes.selected();
        if (rank == null || e == null) {
            shownRank = null;
            tree.setInput(List.of());
            // no stale BEFORE/AFTER headers or "X changed the program" over an empty list
            compareConfig.setLeftLabel("");
            compareConfig.setRightLabel("");
            text.setInput(null);
            text.noBandWhenEmpty();
            onPassShown.run();
            return;
        }
        if (rank == shownRank && e.index() == shownIndex) return;   // the same pass again (a filter key that kept it)
        shownRank = rank;
        shownIndex = e.index();
        if (against != null && showRanks(e)) return;
        Snapshot before = rank.before(e.index());
        Snapshot after = e.step().after();
        tree.setInput(PassRow.of(before, after));
        tree.expandAll();
        String prev = e.index() == 0 ? "input" : rank.steps().get(e.index() - 1).pass();
        compareConfig.setLeftLabel("BEFORE " + e.step().pass() + " (after " + prev + "), rank " + rank.rank());
        compareConfig.setRightLabel("AFTER " + e.step().pass() + ", rank " + rank.rank());
        text.setInput(new DiffNode(new TextInput("before", before.print()), new TextInput("after", after.print())));
        onPassShown.run();
    }

    /**
     * The rank compared with, after the same pass: the shown rank's program on the left, the other's on the right, the
     * tree their structural diff (what the other rank has that this one has not is added). False when the other
     * rank's passes differ (nothing to pair the pass with).
     */
    private boolean showRanks(PassEntry e) {
        if (e.index() >= against.steps().size() || !against.steps().get(e.index()).pass().equals(e.step().pass())) {
            return false;
        }
        Snapshot mine = e.step().after(), theirs = against.steps().get(e.index()).after();
        tree.setInput(PassRow.of(mine, theirs));
        tree.expandAll();
        compareConfig.setLeftLabel("RANK " + rank.rank() + " after " + e.step().pass());
        compareConfig.setRightLabel("RANK " + against.rank() + " after " + e.step().pass());
        String left = mine.print(), right = theirs.print();
        text.setInput(new DiffNode(new TextInput("rank " + rank.rank(), left),
                new TextInput("rank " + against.rank(), right)));
        if (left.equals(right)) clearSelections();
        onPassShown.run();
        return true;
    }

    /**
     * The compare viewer keeps a pane's text selection across inputs: the first change it selected in a pass's AFTER
     * pane stayed selected over two ranks' alike programs, as if they differed there (issue 35, driven by hand).
     */
    private void clearSelections() {
        for (StyledText pane : text.panes()) pane.setSelection(pane.getCaretOffset());
    }

    /** Whether the compared rank's program after pass {@code e} is the shown rank's. */
    private boolean ranksAlike(PassEntry e) {
        return e.index() < against.steps().size()
                && against.steps().get(e.index()).after().print().equals(e.step().after().print());
    }

    /** The rank compared with the shown one, or null. */
    public PassTrace.RankTrace comparedRank() { return against; }

    /** The view's description line: file, rank and pass, or that no pass matches the filter {@code filter}. */
    String description(String fileName, String filter) {
        PassEntry e = passes.selected();
        if (e == null || rank == null) {
            return rank != null && !filter.isEmpty() && entries.isEmpty() ? "No pass matches \u201c" + filter + "\u201d" : "";
        }
        if (fileName == null) return "";
        if (against != null) {
            return fileName + ", " + e.step().pass() + ": rank " + against.rank() + " against rank " + rank.rank()
                    + (ranksAlike(e) ? ", the same program" : "");
        }
        return fileName + ", rank " + rank.rank() + ": " + e.step().pass()
                + (e.step().changed() ? " changed the program" : " changed nothing");
    }

    /** The selected pass, or null. */
    public PassEntry selected() { return passes.selected(); }

    /** The selected pass's name, or null. */
    public String selectedPass() { return passes.selected() == null ? null : passes.selected().step().pass(); }

    /** Selects the listed pass of this name, as a click on its row does. */
    public void selectPass(String name) {
        entries.stream().filter(e -> e.step().pass().equals(name)).findFirst().ifPresent(passes::select);
    }

    void selectLastPass() { passes.selectLast(entries); }

    /** Selects the next (+1) or previous (-1) listed pass, as a debugger steps; stays put at either end. */
    void stepPass(int direction) { passes.step(entries, direction); }

    /** The Host IR program after the selected pass; null while it is still a fusion. */
    HostIrContainer currentProgram() {
        PassEntry e = passes.selected();
        return e != null && e.step().after() instanceof Snapshot.OfHost(HostIrContainer c, _) ? c : null;
    }

    /** The selected node's id while the rank's final program is shown (what a breakpoint names), else -1. */
    int selectedFinalNode() {
        PassEntry e = passes.selected();
        boolean last = rank != null && e != null && e.step().after() == rank.result();
        return last && tree.getStructuredSelection().getFirstElement() instanceof PassRow row && row.node() != null
                ? row.node().id() : -1;
    }

    private FusionElement selectedElement() {
        return provenance != null && tree.getStructuredSelection().getFirstElement() instanceof PassRow row
                && currentProgram() instanceof HostIrContainer program ? provenance.elementOf(program, row) : null;
    }

    /**
     * Selects the nodes of {@code element} (in the final program when this pass has no Host IR): a tensor's by the
     * rows that name it, an op's by the nodes lowered from it ({@link Provenance#rowsOf}).
     */
    void reveal(FusionElement element) {
        if (provenance == null) return;
        if (currentProgram() == null) selectLastPass();
        HostIrContainer program = currentProgram();
        if (program == null) return;
        List<PassRow> hits = provenance.rowsOf(program, treeRows(), element);
        revealing = true;
        try {
            tree.setSelection(new StructuredSelection(hits), true);
        } finally {
            revealing = false;
        }
    }

    /** Selects node {@code nodeId} of the rank's final program. */
    void revealNode(int nodeId) {
        selectLastPass();
        treeRows().stream().filter(r -> r.node() != null && r.node().id() == nodeId).findFirst()
                .ifPresent(r -> tree.setSelection(new StructuredSelection(r), true));
    }

    /** The tree's rows, depth first. */
    @SuppressWarnings("unchecked")
    public List<PassRow> treeRows() {
        return tree.getInput() == null ? List.of() : PassRow.flatten((List<PassRow>) tree.getInput());
    }

    /** The tree diff's viewer (its selection is the node a person clicked). */
    public TreeViewer tree() { return tree; }

    /** The AFTER pane's breakpoint ruler (a double click toggles the node of the line). */
    BreakpointRuler breakpointRuler() { return text.breakpoints(); }

    /** The 1-based lines of the AFTER pane beside which its ruler draws a node breakpoint. */
    public List<Integer> breakpointLines() { return text.breakpoints().lines(); }

    /** The AFTER pane's ruler, where a double click toggles a breakpoint. */
    public Control breakpointRulerControl() { return text.breakpoints().control(); }

    /** The AFTER pane's text. */
    public StyledText programText() { return text.breakpoints().text(); }

    /** The side-by-side text diff's control (BEFORE on the left, AFTER on the right). */
    public Control diffControl() { return text.getControl(); }

    /** The pass list's control. */
    public Control passList() { return passes.control(); }

    /** Moves the tree selection and the text diff to the next (+1) or previous (-1) change of this pass. */
    void stepChange(int direction) {
        List<PassRow> rows = treeRows();
        // a change inside an added or removed subtree is part of that change: stop at the subtree only
        List<PassRow> stops = rows.stream().filter(r -> r.isChange()
                && (r.parent() == null || r.parent().kind() != r.kind() || r.kind() == DiffKind.CHANGED)).toList();
        int pos = rows.indexOf(tree.getStructuredSelection().getFirstElement());
        PassRow target = null;
        for (PassRow r : stops) {
            int at = rows.indexOf(r);
            if (direction > 0 && at > pos) {
                target = r;
                break;
            }
            if (direction < 0 && (at < pos || pos < 0)) target = r;
        }
        if (target != null) {
            tree.setSelection(new StructuredSelection(target), true);
            DiffScroll.reveal(text.getControl(), target);
        } else if (text.getControl().getData(INavigatable.NAVIGATOR_PROPERTY) instanceof INavigatable nav) {
            nav.selectChange(direction > 0 ? INavigatable.NEXT_CHANGE : INavigatable.PREVIOUS_CHANGE);
        }
    }

    void dispose() {
        compareConfig.dispose();
    }
}
