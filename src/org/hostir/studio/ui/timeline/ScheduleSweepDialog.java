package org.hostir.studio.ui.timeline;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jface.dialogs.Dialog;
import org.eclipse.jface.dialogs.IDialogConstants;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableColumn;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.Text;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.engine.ScheduleSweep;
import org.hostir.studio.ui.timeline.model.SweepForm;

/**
 * "Schedule Sweep...": a fusion simulated through the engine ({@link Engine#sweep}) for chosen device counts and
 * lowering options on a hardware profile, shown as a table (predicted span, mean overlap, largest exposed
 * communication per point) and a plot of the spans. It does not block the workbench; the sweep runs in a Job and
 * its points appear as they come.
 */
public final class ScheduleSweepDialog extends Dialog {
    public static final String TITLE = "Schedule Sweep";
    public static final Object JOB_FAMILY = ScheduleSweepDialog.class;
    static final int RUN_ID = IDialogConstants.CLIENT_ID + 1;
    private static ScheduleSweepDialog lastOpened;
    private final IFile file;
    private final List<ScheduleSweep.Point> points = new ArrayList<>();
    private Combo profile;
    private Text devices;
    private Text vary;
    private Text symbols;
    private Combo routing;
    private Combo capacity;
    private Label status;
    private Table table;
    private SweepPlot plot;

    private ScheduleSweepDialog(Shell parent, IFile file) {
        super(parent);
        this.file = file;
        setBlockOnOpen(false);
        setShellStyle(getShellStyle() | SWT.RESIZE | SWT.MODELESS);
    }

    /** Opens the dialog on {@code file} (does not wait for it to close). */
    public static ScheduleSweepDialog open(Shell parent, IFile file) {
        lastOpened = new ScheduleSweepDialog(parent, file);
        lastOpened.open();
        return lastOpened;
    }

    /** The dialog opened last (tests find what a person opened through the menu). */
    public static ScheduleSweepDialog lastOpened() { return lastOpened; }

    @Override
    protected void configureShell(Shell shell) {
        super.configureShell(shell);
        shell.setText(TITLE + ": " + file.getName());
    }

    @Override
    protected Control createDialogArea(Composite parent) {
        Composite area = (Composite) super.createDialogArea(parent);
        area.setLayout(new GridLayout(2, false));
        new Label(area, SWT.NONE).setText("Profile:");
        profile = new Combo(area, SWT.DROP_DOWN);
        profile.setItems(Engine.builtInProfiles().toArray(String[]::new));
        profile.setText(RunRequest.DEFAULT_PROFILE);
        profile.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        devices = field(area, "Devices:", "2,8,64", "device counts, comma-separated");
        vary = field(area, "Vary:", "offsetStreamIndexingByRank=false,true",
                "lowering options and the values tried: KEY=V1,V2 KEY2=V1,V2 (every combination)");
        symbols = field(area, "Symbols:", "", "symbol bindings over the file's: M=4096 K=8192");
        routing = choice(area, "MoE routing:", new String[] {"uniform", "zipf:1.2", "histogram:"}, "How the simulation"
                + " routes MoE tokens to experts at every point: uniform, zipf:S or histogram:FILE (vary it with"
                + " routing=zipf:0,zipf:1.5 above)");
        capacity = choice(area, "Capacity factor:", new String[] {"none", "1", "1.25", "2"}, "What an expert takes"
                + " before it drops tokens, a multiple of the mean, or none (vary it with capacity-factor=1,1.25)");
        status = new Label(area, SWT.NONE);
        status.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false, 2, 1));
        table = new Table(area, SWT.BORDER | SWT.FULL_SELECTION);
        table.setHeaderVisible(true);
        table.setLinesVisible(true);
        for (String c : List.of("Devices", "Options", "Predicted span (ms)", "Overlap (mean)", "Exposed comm. (ms)")) {
            TableColumn col = new TableColumn(table, SWT.LEFT);
            col.setText(c);
            col.setWidth(c.equals("Options") ? 360 : 150);
        }
        GridData t = new GridData(SWT.FILL, SWT.FILL, true, true, 2, 1);
        t.heightHint = 200;
        table.setLayoutData(t);
        plot = new SweepPlot(area);
        GridData p = new GridData(SWT.FILL, SWT.FILL, true, true, 2, 1);
        p.heightHint = 300;
        p.widthHint = 960;
        plot.control().setLayoutData(p);
        return area;
    }

    private static Text field(Composite area, String label, String initial, String tip) {
        new Label(area, SWT.NONE).setText(label);
        Text t = new Text(area, SWT.BORDER);
        t.setText(initial);
        t.setToolTipText(tip);
        t.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        return t;
    }

    private static Combo choice(Composite area, String label, String[] items, String tip) {
        new Label(area, SWT.NONE).setText(label);
        Combo c = new Combo(area, SWT.DROP_DOWN);
        c.setItems(items);
        c.setText(items[0]);
        c.setToolTipText(tip);
        c.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        return c;
    }

    @Override
    protected void createButtonsForButtonBar(Composite parent) {
        createButton(parent, RUN_ID, "Run Sweep", true);
        createButton(parent, IDialogConstants.CLOSE_ID, IDialogConstants.CLOSE_LABEL, false);
    }

    @Override
    protected void buttonPressed(int id) {
        if (id == RUN_ID) {
            runSweep();
        } else {
            close();
        }
    }

    private void runSweep() {
        ScheduleSweep sweep;
        try {
            sweep = SweepForm.read(devices.getText(), vary.getText(), symbols.getText(), profile.getText(),
                    routing.getText(), capacity.getText());
        } catch (IllegalArgumentException e) {
            status.setText(e.getMessage());
            return;
        }
        points.clear();
        table.removeAll();
        int total = sweep.devices().size() * sweep.combinations().size();
        plot.reset("predicted span per schedule on " + sweep.profile() + " (the best of each GPU count highlighted)");
        status.setText("simulating " + total + " points...");
        getButton(RUN_ID).setEnabled(false);
        schedule(sweep, total);
    }

    private void schedule(ScheduleSweep sweep, int total) {
        var display = getShell().getDisplay();
        Job job = new Job("Schedule sweep of " + file.getName()) {
            @Override
            protected IStatus run(IProgressMonitor monitor) {
                String source;
                try (var in = file.getContents(true)) {
                    source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                } catch (CoreException | IOException e) {
                    display.asyncExec(() -> finished("cannot read " + file.getFullPath() + ": " + e.getMessage()));
                    return Status.OK_STATUS;
                }
                long t0 = System.nanoTime();
                String path = file.getFullPath().toString();
                Engine.sweep(sweep, new FusionSource.Text(source, path), path,
                        p -> display.asyncExec(() -> shown(p, total)));
                String done = String.format(Locale.ROOT, "%d points simulated in %.1f s on %s", total,
                        (System.nanoTime() - t0) / 1e9, sweep.profile());
                display.asyncExec(() -> finished(done));
                return Status.OK_STATUS;
            }

            @Override
            public boolean belongsTo(Object family) { return family == JOB_FAMILY; }
        };
        job.schedule();
    }

    private void shown(ScheduleSweep.Point p, int total) {
        if (table.isDisposed()) return;
        points.add(p);
        TableItem item = new TableItem(table, SWT.NONE);
        item.setText(new String[] { Integer.toString(p.devices()), p.label(),
                p.figures().map(f -> String.format(Locale.ROOT, "%.3f", f.spanMs())).orElse("failed"),
                p.figures().map(f -> f.overlap().isPresent() ? String.format(Locale.ROOT, "%.0f %%",
                        100 * f.overlap().getAsDouble()) : "no communication").orElse(""),
                p.figures().map(f -> String.format(Locale.ROOT, "%.3f", f.exposedMs()))
                        .orElse(String.join(" ", p.failure())) });
        plot.add(p);
        status.setText("simulated " + points.size() + " of " + total + " points...");
    }

    private void finished(String line) {
        if (status.isDisposed()) return;
        status.setText(line);
        getButton(RUN_ID).setEnabled(true);
    }

    // for tests: what the sweep gave and what is shown

    public List<ScheduleSweep.Point> points() { return List.copyOf(points); }

    public Table table() { return table; }

    /** The plot's bar lengths in pixels as last drawn, in the points' order. */
    public List<Integer> plotBarWidths() { return plot.widths(); }

    /** Where the plot last drew its bars, on {@link #plotCanvas()}: the best of their device count, or the others. */
    public List<org.eclipse.swt.graphics.Rectangle> plotBars(boolean best) {
        return plot.bars().stream().filter(b -> b.best() == best).map(SweepPlot.Bar::area).toList();
    }

    public org.eclipse.swt.widgets.Canvas plotCanvas() { return plot.control(); }

    public Text devicesField() { return devices; }

    public Text varyField() { return vary; }

    public Text symbolsField() { return symbols; }

    public Combo profileField() { return profile; }

    public Combo routingField() { return routing; }

    public Combo capacityField() { return capacity; }

    public String statusText() { return status.getText(); }
}
