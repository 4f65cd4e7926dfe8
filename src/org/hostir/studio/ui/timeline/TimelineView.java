package org.hostir.studio.ui.timeline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.jface.util.IPropertyChangeListener;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.custom.SashForm;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.FileDialog;
import org.eclipse.core.runtime.Adapters;
import org.eclipse.jface.action.GroupMarker;
import org.eclipse.jface.action.MenuManager;
import org.eclipse.ui.IWorkbenchActionConstants;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.part.IShowInSource;
import org.eclipse.ui.part.IShowInTarget;
import org.eclipse.ui.part.ShowInContext;
import org.eclipse.ui.part.ViewPart;
import org.hostir.studio.trace.TimelineSvg;
import org.hostir.studio.trace.TraceRun;
import org.hostir.studio.trace.Counter;
import org.hostir.studio.trace.CounterTracks;
import org.hostir.studio.trace.analysis.CriticalPath;
import org.hostir.studio.trace.analysis.KernelTable;
import org.hostir.studio.trace.analysis.TraceComparison;
import org.hostir.studio.trace.analysis.TraceAnalysis;
import org.hostir.studio.trace.analysis.TraceReport;
import org.hostir.studio.trace.imported.TraceFiles;
import org.hostir.studio.trace.ChromeTraceWriter;
import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.Timeline;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.HostIrNodeElement;
import org.hostir.studio.ui.LoweringShown;
import org.hostir.studio.ui.SelectionRelay;
import org.hostir.studio.ui.ToolTipKeys;
import org.hostir.studio.ui.ViewIds;
import org.hostir.studio.ui.timeline.model.BreakdownTable;
import org.hostir.studio.ui.timeline.model.DifferenceTrack;
import org.hostir.studio.ui.timeline.model.EventDetails;
import org.hostir.studio.ui.timeline.model.RangeFigures;
import org.hostir.studio.ui.timeline.model.StackedRuns;
import org.hostir.studio.ui.timeline.model.TimelineRows;
import org.hostir.studio.ui.timeline.model.TimelineSummary;

/**
 * The timeline view: a run's timeline or a Chrome trace, one row per rank and stream, bars coloured by kind from
 * the theme, send-to-receive arrows, and the overlap summary (HTA's figures) in a tab beside them. Other code shows a timeline
 * with {@link #show(Timeline, String)}. Selecting a bar publishes its Host IR node as a {@link HostIrNodeElement}
 * through the workbench selection service (the lowering view follows it and reveals the node).
 */
public class TimelineView extends ViewPart implements IShowInSource {
    public static final String ID = ViewIds.TIMELINE;
    /** The key bindings' context (zoom, fit, export), active while the view is. */
    public static final String CONTEXT_ID = "org.hostir.studio.ui.timeline.context";
    /** Family of the jobs that compute the summary below the bars, so that tests and callers can join them. */
    public static final Object SUMMARY_FAMILY = new Object();

    private TimelineCanvas canvas;
    private TimelineCanvas.Palette palette;
    private StyledText summary;
    private DetailsPanel details;
    /** Summary, Details, Kernels, Critical path and Compare. */
    private AnalysisTabs tabs;
    /** Set while a table's row selects a bar: the table's tab stays in front (a click on a bar shows Details). */
    private boolean keepTab;
    private EventSearch search;
    /** Counts the summaries asked for, so that a late one does not overwrite a newer timeline's. */
    private int summaries;
    private Timeline timeline;
    private IFile source;
    /** How the shown run was made (a run from the Studio), so that its prediction can be shown above it; or null. */
    private RunSettings settings;
    /** The lowering of the launched run shown (devices and options, a prediction's too), for Show In; or null. */
    private LoweringShown loweringShown;
    /** The run a prediction is stacked above: the last one shown on its own. */
    private Timeline measured;
    private String measuredTitle;
    private final SelectionRelay relay = new SelectionRelay();
    private ToolTipKeys toolTipKeys;
    /** The shown run's analyses as text, once computed (the summary shows them after the overlap figures). */
    private String analysisText;
    /** The run last shown through {@link #show}, with its launches and counters; its timeline may be replaced. */
    private TraceRun shownRun;
    /** The comparison the Compare tab shows, or null. */
    private TraceComparison comparison;
    private final IPropertyChangeListener themeListener = e -> {
        if (palette instanceof ThemePalette p) p.themeChanged();
        if (canvas != null && !canvas.control().isDisposed()) canvas.control().redraw();
    };

    /**
     * Shows a timeline in the view, opening it if needed; call on the UI thread (the launch and the CPU run do).
     * Returns the view, or null when no workbench page is open.
     */
    public static TimelineView show(Timeline timeline, String title) { return show(timeline, title, null); }

    /** As {@link #show(Timeline, String)}, naming the fusion file the run came from (for node reveals). */
    public static TimelineView show(Timeline timeline, String title, IFile source) {
        return show(timeline, title, source, null);
    }

    /** As above, with the settings the run was made with ({@link #predictAbove} runs its prediction with them). */
    public static TimelineView show(Timeline timeline, String title, IFile source, RunSettings settings) {
        var window = PlatformUI.getWorkbench().getActiveWorkbenchWindow();
        if (window == null && PlatformUI.getWorkbench().getWorkbenchWindowCount() > 0) {
            window = PlatformUI.getWorkbench().getWorkbenchWindows()[0];
        }
        IWorkbenchPage page = window == null ? null : window.getActivePage();
        if (page == null) return null;
        try {
            TimelineView view = (TimelineView) page.showView(ID);
            view.setTimeline(timeline, title, source);
            view.settings = settings;
            return view;
        } catch (PartInitException e) {
            return null;
        }
    }

    @Override
    public void createPartControl(Composite parent) {
        ViewIds.help(parent, ViewIds.HELP_TIMELINE);
        Composite root = new Composite(parent, SWT.NONE);
        GridLayout layout = new GridLayout(1, false);
        layout.marginWidth = layout.marginHeight = 0;
        layout.verticalSpacing = 0;
        root.setLayout(layout);
        Composite searchRow = new Composite(root, SWT.NONE);
        searchRow.setLayout(new org.eclipse.swt.layout.FillLayout());
        searchRow.setLayoutData(new GridData(SWT.FILL, SWT.TOP, true, false));
        SashForm sash = new SashForm(root, SWT.VERTICAL);
        sash.setLayoutData(new GridData(SWT.FILL, SWT.FILL, true, true));
        ThemePalette theme = new ThemePalette();
        palette = theme;
        canvas = new TimelineCanvas(sash, palette);
        theme.paintsOn(canvas.control());
        search = new EventSearch(searchRow, canvas, () -> timeline);
        canvas.onSelection(this::barSelected);
        canvas.onRange(r -> {
            if (r != null && timeline != null) {
                details.showText(RangeFigures.of(timeline, r[0], r[1], canvas.rows().startNs()));
                tabs.showDetails();
            } else {
                details.show(canvas.selected(), canvas.rows() == null ? 0 : canvas.rows().startNs());
            }
        });
        // the summary a tab beside the details (issue 35, round 18: below the details it was 44 px high at 1280 x 800)
        tabs = new AnalysisTabs(sash, this::makeSummary,
                f -> (details = new DetailsPanel(f, this::revealNode, () -> timeline)).control(),
                this::kernelSelected, this::stepSelected, this::comparedSelected);
        sash.setWeights(72, 28);
        sash.addListener(SWT.Resize, e -> fit(sash));
        PlatformUI.getWorkbench().getThemeManager().addPropertyChangeListener(themeListener);
        getSite().getService(org.eclipse.ui.contexts.IContextService.class).activateContext(CONTEXT_ID);
        toolTipKeys = ToolTipKeys.install(this);
        getSite().setSelectionProvider(relay);
        // the canvas's context menu: Show in Lowering and what plugin.xml contributes (popup:<this view's id>)
        MenuManager menu = new MenuManager();
        menu.add(new GroupMarker(IWorkbenchActionConstants.MB_ADDITIONS));
        canvas.control().setMenu(menu.createContextMenu(canvas.control()));
        getSite().registerContextMenu(menu, relay);
    }

    /**
     * The summary's pane, wrapped: the figures' lines are longer than the pane at 1280 and 1600 px, and GTK's overlay
     * scrollbars do not show that there is more to the right (issue 35). A StyledText, which wraps at its own width:
     * GTK's wrapped Text keeps the widest width it was ever given (the pane is the view's whole width for a moment
     * while the view is maximized) and wrapped there, hundreds of pixels past the pane's right edge. Its scrollbar
     * one a person sees: GTK's overlay bar shows only while the pointer moves over the text, and the summary (30
     * lines and more) is read by scrolling.
     */
    private Control makeSummary(Composite parent) {
        summary = new StyledText(parent, SWT.MULTI | SWT.READ_ONLY | SWT.V_SCROLL | SWT.WRAP);
        summary.setMargins(3, 2, 3, 2);
        summary.setScrollbarsMode(SWT.NONE);
        summary.setFont(JFaceResources.getTextFont());
        summary.setText("Run a .fusion file (context menu: Run on CPU and show timeline) or open a Chrome trace.");
        return summary;
    }

    /**
     * Shows {@code t}; {@code title} goes to the view's description. The bars are painted first; the summary's
     * overlap figures (a pass over every event) follow from a background job ({@link #SUMMARY_FAMILY}).
     */
    public void setTimeline(Timeline t, String title, IFile from) {
        show(TraceRun.of(title == null ? "" : title, t), title, from);
    }

    /**
     * Shows a run of any origin (an imported profile states which call launched which kernel); the summary adds
     * its analyses ({@link TraceAnalysis}: critical path, idle per stream, top device ops, counters) and the
     * canvas outlines the critical path once they are computed.
     */
    public void show(TraceRun run, String title, IFile from) {
        Timeline t = run.timeline();
        shownRun = run;
        measured = t;
        measuredTitle = title;
        settings = null;
        loweringShown = null;
        search.clear();
        display(t, title, from, () -> TimelineSummary.of(t));
        analyse(run);
    }

    /** Bars up to which the view analyses a run by itself (the graph holds two points and a few edges per bar). */
    static final int ANALYSED_BARS = 200_000;

    /**
     * The run's analyses, after the overlap figures and by another job of the summary's family: the report is
     * appended to the summary and the critical path outlined, if the run is still the one shown.
     */
    private void analyse(TraceRun run) {
        Timeline t = run.timeline();
        var display = summary.getDisplay();
        Job job = new Job("Timeline analyses") {
            @Override
            protected IStatus run(IProgressMonitor monitor) {
                String text;
                TraceAnalysis analysis = null;
                List<Counter> counters;
                if (t.events().size() > ANALYSED_BARS) {
                    text = "(critical path and tables not computed for " + t.events().size() + " bars: hirstudio"
                            + " trace FILE computes them)";
                    counters = new ArrayList<>(CounterTracks.of(t));
                    counters.addAll(run.counters());
                } else {
                    analysis = TraceAnalysis.of(run);
                    text = TraceReport.format(analysis, 10);
                    counters = analysis.counters();
                }
                TraceAnalysis done = analysis;
                display.asyncExec(() -> {
                    if (summary.isDisposed() || timeline != t) return;
                    CriticalPath path = done == null ? null : done.criticalPath().orElse(null);
                    canvas.setCriticalPath(path == null ? List.of() : path.bars());
                    // each rank's counters together, as Perfetto puts a process's counters under it
                    canvas.setCounters(counters.stream().sorted(Comparator.comparingInt(Counter::rank)).toList());
                    tabs.showKernels(done == null ? null : done.kernels());
                    tabs.showPath(path);
                    analysisText = text;
                    if (!summary.getText().startsWith("Computing")) summary.setText(summary.getText() + "\n\n" + text);
                });
                return Status.OK_STATUS;
            }

            @Override
            public boolean belongsTo(Object family) { return family == SUMMARY_FAMILY; }
        };
        job.setSystem(true);
        job.schedule();
    }

    /**
     * Shows a prediction of the shown run's program above it (each rank's predicted rows over its measured ones,
     * labelled {@code predicted} and {@code measured}: {@link StackedRuns}); the run itself stays the one a later
     * prediction is stacked above.
     */
    public void showStacked(Timeline predicted, String machine) {
        if (measured == null) return;
        Timeline run = measured;
        // each run's figures on their own: one rank's predicted and measured streams are not one GPU's
        display(StackedRuns.of(predicted, run), (measuredTitle == null ? "" : measuredTitle + " \u2014 ")
                + "predicted for " + machine + " (above) and measured (below)", source,
                () -> "PREDICTED for " + machine + "\n" + TimelineSummary.of(predicted) + "\n\nMEASURED\n"
                        + TimelineSummary.of(run));
    }

    /** The lowering the launched run shown ran (Show In lowers it); null leaves Show In to the run's settings. */
    public void setLoweringShown(LoweringShown shown) { loweringShown = shown; }

    /** The settings of the run shown, when it was run from the Studio; else null. */
    public RunSettings runSettings() { return settings; }

    /** The fusion file the shown run came from, or null. */
    public IFile source() { return source; }

    private void display(Timeline t, String title, IFile from, java.util.function.Supplier<String> figures) {
        timeline = t;
        source = from;
        canvas.setRows(new TimelineRows(t));
        fit((SashForm) canvas.control().getParent());
        // the last run's selected bar is not this run's
        getViewSite().getActionBars().getStatusLineManager().setMessage(null);
        relay.setSelection(StructuredSelection.EMPTY);
        details.runLine(title);
        details.show(null, 0);
        tabs.showSummary();   // a new run's figures first; a click on a bar brings its details
        tabs.showKernels(null);
        tabs.showPath(null);
        tabs.showComparison(null);
        comparison = null;
        setContentDescription(title == null ? "" : title);
        analysisText = null;
        summary.setText("Computing the overlap figures of " + t.events().size() + " events...");
        int mine = ++summaries;
        var display = summary.getDisplay();
        Job job = new Job("Timeline summary") {
            @Override
            protected IStatus run(IProgressMonitor monitor) {
                String text = figures.get();
                display.asyncExec(() -> {
                    if (mine == summaries && !summary.isDisposed()) {
                        summary.setText(analysisText == null ? text : text + "\n\n" + analysisText);
                    }
                });
                return Status.OK_STATUS;
            }

            @Override
            public boolean belongsTo(Object family) { return family == SUMMARY_FAMILY; }
        };
        job.setSystem(true);
        job.schedule();
    }

    /**
     * Shows the bar in the status line and publishes its Host IR node (the lowering view, opened if need be without
     * taking the focus, follows the selection); a bar of no node, or none, publishes an empty selection.
     */
    private void barSelected(TimelineEvent e) {
        var status = getViewSite().getActionBars().getStatusLineManager();
        details.show(e, canvas.rows() == null ? 0 : canvas.rows().startNs());
        if (e != null && !keepTab) tabs.showDetails();
        if (e == null || e.nodeId() < 0) {
            relay.setSelection(StructuredSelection.EMPTY);
            if (e == null) {
                status.setMessage(null);
                return;
            }
        }
        status.setMessage(EventDetails.of(e).lines().findFirst().orElse(""));
        if (e.nodeId() < 0) return;
        IWorkbenchPage page = getSite().getPage();
        // the lowering view is made if need be, never brought to the front: it shares the timeline's stack in the
        // Host IR perspective, and a maximized timeline stays in front; it follows the selection where it is
        if (page.findView(ViewIds.LOWERING) == null) {
            try {
                page.showView(ViewIds.LOWERING, null, IWorkbenchPage.VIEW_CREATE);
            } catch (PartInitException ignored) {
                // no lowering view: the status line already shows the bar
            }
        }
        String file = source == null ? null : source.getFullPath().toString();
        relay.setSelection(new StructuredSelection(new HostIrNodeElement(file, e.rank(), e.nodeId())));
    }

    /**
     * Keeps the rows clear of the tabs (the summary, the details, the tables): in a wide, low view they go to the right
     * of the rows, the column's whole height; in a tall one below them, with the rows given the height they need first.
     */
    private void fit(SashForm sash) {
        var size = sash.getSize();
        if (size.x < 50 || size.y < 50) return;
        boolean wide = size.x > 3 * size.y;
        sash.setOrientation(wide ? SWT.HORIZONTAL : SWT.VERTICAL);
        if (wide) {
            sash.setWeights(64, 36);
            return;
        }
        // the tabs high enough for a bar's whole details (issue 35: under 64 ranks' rows it had 4 lines)
        int detailsHeight = ((CTabFolder) tabs.control()).computeTrim(0, 0, 0, 0).height + details.wholeHeight();
        int rows = Math.min(size.y * 85 / 100, Math.max(size.y * 60 / 100, canvas.preferredHeight()));
        // the rows keep 40% of the height whatever the details need
        rows = Math.max(size.y * 40 / 100, Math.min(rows, size.y - detailsHeight - sash.getSashWidth()));
        sash.setWeights(rows, Math.max(1, size.y - rows));
    }

    /** A kernel table's row: outlines the kernel's bars and reveals the first (the rows stay as they are). */
    private void kernelSelected(KernelTable.Row row) {
        highlight(KernelTable.barsOf(timeline, row), row.name());
    }

    /** A compared op: outlines its bars in the shown run (A), if it has any, and reveals the first. */
    private void comparedSelected(TraceComparison.Row row) {
        highlight(comparison.barsOfA(row.key()), row.key());
    }

    private void highlight(List<TimelineEvent> bars, String what) {
        canvas.setHighlighted(bars);
        if (!bars.isEmpty()) canvas.reveal(bars.getFirst());
        getViewSite().getActionBars().getStatusLineManager().setMessage(bars.isEmpty() ? what
                + ": no bar in the shown run" : bars.size() + " bar" + (bars.size() == 1 ? "" : "s") + " of " + what);
    }

    /** A segment of the critical path: selects its bar (the details follow) and reveals it; the tab stays. */
    private void stepSelected(AnalysisTabs.Step step) {
        keepTab = true;
        try {
            canvas.select(step.segment().event());
            canvas.reveal(step.segment().event());
        } finally {
            keepTab = false;
        }
    }

    /** The details panel's link: as Show in Lowering, for the bar the panel shows. */
    private void revealNode(TimelineEvent e) { showInLowering(e); }

    /**
     * Show in Lowering (its command, key, the canvas's context menu): the Lowering view is brought to the front and
     * shows the selected bar's Host IR node in its rank's final program, lowered with this run's devices and options
     * when the Studio ran it (Eclipse's Show In, {@link IShowInTarget}); a bar of no node says so in the status line.
     */
    public void showInLowering() { showInLowering(canvas.selected()); }

    private void showInLowering(TimelineEvent e) {
        ShowInContext context = showInContext(e);
        if (context == null) {
            getViewSite().getActionBars().getStatusLineManager().setMessage(e == null ? "Select a bar first"
                    : "This bar was issued by no Host IR node");
            return;
        }
        try {
            IShowInTarget target = Adapters.adapt(getSite().getPage().showView(ViewIds.LOWERING), IShowInTarget.class);
            if (target != null) target.show(context);
        } catch (PartInitException ignored) {
            // no Lowering view can be made: nothing to show the node in
        }
    }

    /** What Show In shows of the selected bar: its Host IR node, and the run's lowering settings as the input. */
    @Override
    public ShowInContext getShowInContext() { return showInContext(canvas.selected()); }

    private ShowInContext showInContext(TimelineEvent e) {
        if (e == null || e.nodeId() < 0) return null;
        String file = source == null ? null : source.getFullPath().toString();
        Object run = loweringShown != null && loweringShown.file().equals(file) ? loweringShown
                : file == null || settings == null ? null : new LoweringShown(file, settings.devices(), settings.options());
        return new ShowInContext(run, new StructuredSelection(new HostIrNodeElement(file, e.rank(), e.nodeId())));
    }

    /** The event search box (a person clicks it and types). */
    public org.eclipse.swt.widgets.Text searchField() { return search.field(); }

    /** What the search found ("2 of 4", "no event matches"). */
    public String searchCount() { return search.countText(); }

    /** The details panel's text (the selected bar's, or a hint). */
    public String detailsText() { return details.text(); }

    /** The details panel's table under a bar with a breakdown (an MoE exchange's bytes, a grouped_mm's experts). */
    public org.eclipse.swt.widgets.Table detailsTable() { return details.table(); }

    /** What that table shows, or null when the selected bar has no breakdown. */
    public BreakdownTable detailsBreakdown() { return details.breakdown(); }

    // ---- commands ----

    public void fit() { canvas.fit(); }

    public void zoom(double factor) {
        Rectangle a = canvas.control().getClientArea();
        canvas.zoom(factor, TimelineCanvas.LABEL_WIDTH + (a.width - TimelineCanvas.LABEL_WIDTH) / 2);
    }

    /**
     * Opens a trace: the Studio's, a PyTorch profiler trace (select every rank's file together) or nvFuser's
     * NVFUSER_TRACE ({@link TraceFiles}).
     */
    public void openTrace() {
        FileDialog d = new FileDialog(getSite().getShell(), SWT.OPEN | SWT.MULTI);
        d.setFilterExtensions(new String[] { "*.json;*.json.gz", "*" });
        if (d.open() == null) return;
        List<Path> files = Arrays.stream(d.getFileNames()).map(n -> Path.of(d.getFilterPath(), n)).toList();
        openTrace(files);
    }

    /** Opens the trace files of one run (what the Open dialog does with the files chosen). */
    public void openTrace(List<Path> files) {
        try {
            TraceFiles.Opened opened = TraceFiles.open(files);
            show(CompareJob.named(opened.run(), files), CompareJob.label(files), null);
        } catch (IOException | RuntimeException e) {
            MessageDialog.openError(getSite().getShell(), "Open trace", "Cannot read " + files + ":\n"
                    + e.getMessage());
        }
    }

    /**
     * Compare With...: the shown run (A) with another run's trace files (B), as {@code hirstudio trace diff A B}:
     * the Compare tab lists the ops aligned by Host IR node or name with either run's count and total.
     */
    public void compareWith() {
        if (shownRun == null) {
            MessageDialog.openInformation(getSite().getShell(), "Compare With", "Open or run a trace first: it is"
                    + " compared with the trace chosen then.");
            return;
        }
        FileDialog d = new FileDialog(getSite().getShell(), SWT.OPEN | SWT.MULTI);
        d.setText("Compare the shown run with (select every rank's file of a PyTorch profile)");
        d.setFilterExtensions(new String[] { "*.json;*.json.gz", "*" });
        if (d.open() == null) return;
        compareWith(Arrays.stream(d.getFileNames()).map(n -> Path.of(d.getFilterPath(), n)).toList());
    }

    /** Compares the shown run with the run in {@code files} in a job; the Compare tab shows the result. */
    public void compareWith(List<Path> files) {
        if (shownRun == null) return;
        TraceRun a = shownRun;
        CompareJob.schedule(a, files, canvas.control().getDisplay(), c -> showComparison(a, c), why -> {
            if (!canvas.control().isDisposed()) MessageDialog.openError(getSite().getShell(), "Compare With", why);
        });
    }

    /**
     * Shows {@code c}, a comparison of {@code a} with another run, in the Compare tab and as difference tracks
     * under the rows; nothing when the view shows another run by now. On the UI thread.
     */
    void showComparison(TraceRun a, TraceComparison c) {
        if (canvas.control().isDisposed() || shownRun != a) return;
        comparison = c;
        tabs.showComparison(c);
        canvas.setDifferences(DifferenceTrack.of(c));
    }

    /** The run last shown on its own (what Compare With... and Compare With Prediction... take as A), or null. */
    TraceRun shownRun() { return shownRun; }

    /** The shown run as a Chrome trace, with its counters (an imported profile's memory samples too). */
    public void exportJson(Path file) throws IOException {
        if (shownRun == null || shownRun.timeline() != timeline) {
            ChromeTraceWriter.write(timeline, Map.of(), file);
            return;
        }
        StringBuilder out = new StringBuilder();
        ChromeTraceWriter.write(shownRun, Map.of(), out);
        Files.writeString(file, out);
    }

    /** Writes what the canvas shows now (its whole client area) as a PNG. */
    public void exportPng(Path file) {
        Rectangle a = canvas.control().getClientArea();
        Image image = new Image(canvas.control().getDisplay(), Math.max(1, a.width), Math.max(1, a.height));
        GC gc = new GC(image);
        try {
            gc.setFont(canvas.control().getFont());
            canvas.paint(gc, new Rectangle(0, 0, a.width, a.height));
        } finally {
            gc.dispose();
        }
        try {
            ImageLoader loader = new ImageLoader();
            loader.data = new ImageData[] { image.getImageData() };
            loader.save(file.toString(), SWT.IMAGE_PNG);
        } finally {
            image.dispose();
        }
    }

    /**
     * The time window shown, as SVG ({@link TimelineSvg}): every row, the bars in the theme's colours, the critical
     * path outlined.
     */
    public void exportSvg(Path file) throws IOException {
        Rectangle a = canvas.control().getClientArea();
        int width = Math.max(TimelineCanvas.LABEL_WIDTH + 100, a.width);
        long from = (long) Math.floor(canvas.viewStartNs());
        long to = Math.max(from + 1, (long) Math.ceil(canvas.viewStartNs() + (width - TimelineCanvas.LABEL_WIDTH)
                * canvas.nsPerPixel()));
        Map<EventKind, String> colors = new EnumMap<>(EventKind.class);
        for (EventKind k : EventKind.values()) {
            RGB c = palette.bar(k).getRGB();
            colors.put(k, String.format("#%02x%02x%02x", c.red, c.green, c.blue));
        }
        RGB path = palette.criticalPath().getRGB();
        Files.writeString(file, TimelineSvg.of(timeline, from, to, width, colors, canvas.criticalPath(),
                String.format("#%02x%02x%02x", path.red, path.green, path.blue)));
    }

    public void exportInteractively(boolean png) {
        export(png ? "png" : "json", png ? "timeline.png" : "trace.json", f -> {
            if (png) exportPng(f);
            else exportJson(f);
        });
    }

    public void exportSvgInteractively() {
        export("svg", "timeline.svg", this::exportSvg);
    }

    private interface Export {
        void to(Path file) throws IOException;
    }

    private void export(String extension, String name, Export how) {
        if (timeline == null) return;
        FileDialog d = new FileDialog(getSite().getShell(), SWT.SAVE);
        d.setOverwrite(true);
        d.setFilterExtensions(new String[] { "*." + extension });
        d.setFileName(name);
        String f = d.open();
        if (f == null) return;
        try {
            how.to(Path.of(f));
        } catch (IOException | RuntimeException e) {
            MessageDialog.openError(getSite().getShell(), "Export timeline", "Cannot write " + f + ":\n"
                    + e.getMessage());
        }
    }

    // ---- for tests ----

    public TimelineCanvas canvas() { return canvas; }

    /** The colours the canvas paints with now (the theme's). */
    public TimelineCanvas.Palette palette() { return palette; }

    public Timeline timeline() { return timeline; }

    public String summaryText() { return summary.getText(); }

    /** The analysis tabs' folder (a person clicks its tabs). */
    public org.eclipse.swt.custom.CTabFolder analysisTabs() { return tabs.folder(); }

    /** The Kernels tab's table and its rows in the order shown. */
    public org.eclipse.swt.widgets.Table kernelTable() { return tabs.kernels().control(); }

    public List<KernelTable.Row> kernelRows() { return tabs.kernels().rows(); }

    /** The Critical path tab's table and its segments in the order shown. */
    public org.eclipse.swt.widgets.Table pathTable() { return tabs.path().control(); }

    public List<CriticalPath.Segment> pathRows() {
        return tabs.path().rows().stream().map(AnalysisTabs.Step::segment).toList();
    }

    /** The Compare tab's table, its rows in the order shown, and the comparison (null before one). */
    public org.eclipse.swt.widgets.Table compareTable() { return tabs.compare().control(); }

    public List<TraceComparison.Row> compareRows() { return tabs.compare().rows(); }

    public TraceComparison comparison() { return comparison; }

    @Override
    public void setFocus() {
        // a click into the search box activates the view: it keeps the focus it gave
        for (var f = canvas.control().getDisplay().getFocusControl(); f != null; f = f.getParent()) {
            if (f == search.field().getParent()) return;
        }
        canvas.control().setFocus();
    }

    @Override
    public void dispose() {
        PlatformUI.getWorkbench().getThemeManager().removePropertyChangeListener(themeListener);
        if (toolTipKeys != null) toolTipKeys.uninstall();
        super.dispose();
    }
}
