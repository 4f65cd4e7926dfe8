package org.hostir.studio.ui.timeline;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.custom.CTabItem;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.hostir.studio.trace.TimeText;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.analysis.CriticalPath;
import org.hostir.studio.trace.analysis.KernelTable;
import org.hostir.studio.trace.analysis.TraceComparison;
import org.hostir.studio.ui.timeline.RowTable.Column;

/**
 * The tabs beside the rows, as Perfetto's and Nsight Systems' bottom panels: the run's Summary (overlap figures and
 * analyses), the selected bar's Details, the Kernels table (device ops by name: count, total, mean, spread across
 * ranks), the Critical path's segments with their shares, and the Compare table of two runs. Each table sorts by a click on a header; selecting a row hands
 * it to the view, which highlights or selects its bars.
 */
final class AnalysisTabs {
    /** A segment of the path with its place on it, its start from the path's start and its share. */
    record Step(int index, CriticalPath.Segment segment, long fromPathStartNs, double share) {
    }

    private final CTabFolder folder;
    private final CTabItem summary;
    private final CTabItem details;
    private final CTabItem kernelsTab;
    private final CTabItem pathTab;
    private final CTabItem compareTab;
    private final Label kernelsTitle;
    private final Label pathTitle;
    private final Label compareTitle;
    private final RowTable<KernelTable.Row> kernels;
    private final RowTable<Step> path;
    private final RowTable<TraceComparison.Row> compare;
    /** The unit of each table's times: one per table, from its largest time, so that columns compare. */
    private TimeText kernelUnit = TimeText.NS, pathUnit = TimeText.NS, compareUnit = TimeText.NS;

    AnalysisTabs(Composite parent, Function<Composite, Control> summaryPane, Function<Composite, Control> detailsPane,
                 Consumer<KernelTable.Row> kernel, Consumer<Step> segment, Consumer<TraceComparison.Row> compared) {
        folder = new CTabFolder(parent, SWT.BORDER | SWT.BOTTOM);
        summary = new CTabItem(folder, SWT.NONE);
        summary.setText("Summary");
        summary.setControl(summaryPane.apply(folder));
        details = new CTabItem(folder, SWT.NONE);
        details.setText("Details");
        details.setControl(detailsPane.apply(folder));
        Composite k = pane(), p = pane(), c = pane();
        kernelsTitle = title(k);
        kernels = table(k, kernelColumns(), Comparator.comparing(KernelTable.Row::name), kernel);
        pathTitle = title(p);
        path = table(p, pathColumns(), Comparator.comparingInt(Step::index), segment);
        compareTitle = title(c);
        compare = table(c, compareColumns(), Comparator.comparing(TraceComparison.Row::key), compared);
        kernelsTab = item("Kernels", k);
        pathTab = item("Critical path", p);
        compareTab = item("Compare", c);
        folder.setSelection(summary);
        showKernels(null);
        showPath(null);
        showComparison(null);
    }

    Control control() { return folder; }

    CTabFolder folder() { return folder; }

    /** Brings the Summary tab to the front (a new run). */
    void showSummary() { folder.setSelection(summary); }

    /** Brings the Details tab to the front (a click on a bar, a range). */
    void showDetails() { folder.setSelection(details); }

    /** The kernel table of the shown run; null: none (not analysed yet, or too large a run). */
    void showKernels(KernelTable table) {
        List<KernelTable.Row> rows = table == null ? List.of() : table.rows();
        kernelUnit = TimeText.of(rows.stream().mapToLong(KernelTable.Row::totalNs).max().orElse(0));
        kernelsTitle.setText(table == null ? "No kernel table: open or run a trace (the table follows its analyses)."
                : rows.size() + " device ops by name; click a header to sort, a row to highlight its bars.");
        kernels.setRows(rows);
        kernelsTitle.getParent().layout(true);
    }

    /** The critical path's segments that take time, in path order; null: none. */
    void showPath(CriticalPath p) {
        List<CriticalPath.Segment> timed = p == null ? List.of()
                : p.segments().stream().filter(s -> s.durationNs() > 0).toList();
        long start = timed.isEmpty() ? 0 : p.segments().getFirst().startNs();
        pathUnit = TimeText.of(p == null ? 0 : p.lengthNs());
        pathTitle.setText(p == null ? "No critical path: open or run a trace (the path follows its analyses)."
                : "Critical path of " + pathUnit.format(p.lengthNs()) + ", " + timed.size()
                        + " segments; select one to show its bar.");
        path.setRows(IntStream.range(0, timed.size()).mapToObj(i -> new Step(i + 1, timed.get(i),
                timed.get(i).startNs() - start, p.share(timed.get(i)))).toList());
        pathTitle.getParent().layout(true);
    }

    /** Two runs' aligned ops; null: no comparison. Brings the tab to the front when there is one. */
    void showComparison(TraceComparison c) {
        List<TraceComparison.Row> rows = c == null ? List.of() : c.rows();
        compareUnit = TimeText.of(rows.stream().mapToLong(r -> Math.max(r.totalA(), r.totalB())).max().orElse(0));
        compareTitle.setText(c == null ? "Compare With... (view menu, toolbar) compares the shown run (A) with"
                + " another trace (B)." : comparisonTitle(c));
        compare.setRows(rows);
        compareTitle.getParent().layout(true);
        if (c != null) folder.setSelection(compareTab);
    }

    private static String comparisonTitle(TraceComparison c) {
        long a = span(c.a().run().timeline().events()), b = span(c.b().run().timeline().events());
        TimeText u = TimeText.of(Math.max(a, b));
        return "A: " + c.a().run().label() + "   B: " + c.b().run().label() + "\nspan A " + u.format(a) + ", B "
                + u.format(b) + (a > 0 ? String.format(Locale.ROOT, " (B %+.1f%%)", 100.0 * (b - a) / a) : "")
                + "; ops aligned by " + c.alignment().words() + "; a row highlights A's bars";
    }

    private static long span(List<TimelineEvent> events) {
        long first = events.stream().mapToLong(TimelineEvent::startNs).min().orElse(0);
        return events.stream().mapToLong(TimelineEvent::endNs).max().orElse(0) - first;
    }

    // ---- for the view's tests ----

    RowTable<KernelTable.Row> kernels() { return kernels; }

    RowTable<Step> path() { return path; }

    RowTable<TraceComparison.Row> compare() { return compare; }

    CTabItem kernelsTab() { return kernelsTab; }

    CTabItem pathTab() { return pathTab; }

    CTabItem compareTab() { return compareTab; }

    // ---- the columns ----

    private List<Column<KernelTable.Row>> kernelColumns() {
        return List.of(
                new Column<>("Name", 260, false, KernelTable.Row::name, KernelTable.Column.NAME.order(), false),
                new Column<>("Kind", 90, false, r -> r.kind().key(), null, false),
                new Column<>("Count", 60, true, r -> String.valueOf(r.count()), KernelTable.Column.COUNT.order(), true),
                new Column<>("Total", 90, true, r -> kernelUnit.format(r.totalNs()), KernelTable.Column.TOTAL.order(),
                        true),
                new Column<>("Mean", 90, true, r -> kernelUnit.format(r.meanNs()), KernelTable.Column.MEAN.order(),
                        true),
                new Column<>("Ranks", 50, true, r -> String.valueOf(r.ranks()), null, false),
                new Column<>("Spread", 170, true, r -> TimeText.percent(r.spread()) + " (" + kernelUnit.format(
                        r.minRankNs()) + " \u2013 " + kernelUnit.format(r.maxRankNs()) + ")",
                        KernelTable.Column.SPREAD.order(), true));
    }

    private List<Column<Step>> pathColumns() {
        return List.of(
                new Column<>("#", 40, true, s -> String.valueOf(s.index()), Comparator.comparingInt(Step::index), false),
                new Column<>("Start", 80, true, s -> pathUnit.format(s.fromPathStartNs()), null, false),
                new Column<>("Duration", 90, true, s -> pathUnit.format(s.segment().durationNs()),
                        Comparator.comparingLong(s -> s.segment().durationNs()), true),
                new Column<>("Share", 60, true, s -> TimeText.percent(s.share()), Comparator.comparingDouble(Step::share),
                        true),
                new Column<>("Kind", 90, false, s -> s.segment().kind().name().toLowerCase(Locale.ROOT), null, false),
                new Column<>("Rank", 45, true, s -> String.valueOf(s.segment().event().rank()), null, false),
                new Column<>("Row", 70, false, s -> row(s.segment().event()), null, false),
                new Column<>("Bar", 320, false, AnalysisTabs::bar, null, false));
    }

    private static String row(TimelineEvent e) {
        return e.stream() < 0 ? "host" : "stream " + e.stream();
    }

    private static String bar(Step s) {
        CriticalPath.Segment g = s.segment();
        TimelineEvent from = g.from();
        return g.event().name() + (from != null && from != g.event() ? " \u2190 " + from.name() + " (rank "
                + from.rank() + ")" : "");
    }

    private List<Column<TraceComparison.Row>> compareColumns() {
        return List.of(
                new Column<>("Op", 280, false, TraceComparison.Row::key, Comparator.comparing(TraceComparison.Row::key),
                        false),
                new Column<>("Count A", 65, true, r -> String.valueOf(r.countA()),
                        Comparator.comparingInt(TraceComparison.Row::countA), true),
                new Column<>("Total A", 90, true, r -> compareUnit.format(r.totalA()),
                        Comparator.comparingLong(TraceComparison.Row::totalA), true),
                new Column<>("Count B", 65, true, r -> String.valueOf(r.countB()),
                        Comparator.comparingInt(TraceComparison.Row::countB), true),
                new Column<>("Total B", 90, true, r -> compareUnit.format(r.totalB()),
                        Comparator.comparingLong(TraceComparison.Row::totalB), true),
                new Column<>("B \u2212 A", 90, true, r -> compareUnit.format(r.deltaNs()),
                        Comparator.comparingLong(TraceComparison.Row::deltaNs), true));
    }

    // ---- widgets ----

    private Composite pane() {
        Composite c = new Composite(folder, SWT.NONE);
        GridLayout layout = new GridLayout(1, false);
        layout.marginWidth = layout.marginHeight = 2;
        c.setLayout(layout);
        return c;
    }

    private static Label title(Composite pane) {
        Label l = new Label(pane, SWT.WRAP);
        l.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        return l;
    }

    private static <R> RowTable<R> table(Composite pane, List<Column<R>> columns, Comparator<R> ties,
                                         Consumer<R> selected) {
        RowTable<R> t = new RowTable<>(pane, columns, ties, selected);
        t.control().setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        return t;
    }

    private CTabItem item(String text, Control content) {
        CTabItem item = new CTabItem(folder, SWT.NONE);
        item.setText(text);
        item.setControl(content);
        return item;
    }
}
