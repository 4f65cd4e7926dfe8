package org.hostir.studio.ui.launch;

import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.FileDialog;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Spinner;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.RunCommandLine;
import org.hostir.studio.rules.FusionBindings;
import org.hostir.studio.ui.ComboTips;

/**
 * Where and how often to run: backend, devices, streams, iterations, warm-ups, validation; with the simulation
 * backend ({@code sim}), the machine it predicts for (a built-in hardware profile or a profile file) and how it
 * routes MoE tokens to experts ({@code --routing}, {@code --capacity-factor}).
 */
public final class ExecutionTab extends SettingsTab {
    /** The backends offered, in order; {@code sim} predicts the run instead of running it. */
    public static final List<String> BACKENDS = List.of("auto", "cpu", LaunchSettings.SIM, "cuda",
            LaunchSettings.CUDA_SHARING_GPUS);
    private Combo backend;
    private Combo profile;
    private Button profileFile;
    private Combo routing;
    private Combo capacity;
    private Spinner devices;
    private Spinner streams;
    private Spinner iterations;
    private Spinner warmup;
    private Button validate;
    private final boolean debug;

    /** {@code debug}: the tab of a debug configuration, which refuses a backend the debugger does not run on. */
    public ExecutionTab(boolean debug) { this.debug = debug; }

    /** The tab of a run configuration. */
    public ExecutionTab() { this(false); }

    @Override
    public String getName() { return "Execution"; }

    @Override
    protected void createFields(Composite parent) {
        backend = combo(parent, "Backend:", BACKENDS.toArray(String[]::new));
        ComboTips.onLabel(backend, "sim: predict the run on the machine of a hardware profile (no GPU needed)");
        new Label(parent, SWT.NONE).setText("Profile:");
        profile = new Combo(parent, SWT.DROP_DOWN);
        profile.setItems(Engine.builtInProfiles().toArray(String[]::new));
        ComboTips.onLabel(profile, "The simulated machine: a built-in profile, or a profile file (copy one and edit it)");
        profile.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false));
        profile.addModifyListener(e -> changed());
        profileFile = new Button(parent, SWT.PUSH);
        profileFile.setText("File...");
        profileFile.addListener(SWT.Selection, e -> chooseProfileFile());
        routing = editable(parent, "MoE routing:", ROUTINGS, "How the simulation routes MoE tokens to experts:"
                + " uniform, zipf:S (skewed, S the exponent) or histogram:FILE (a run's counts, --write-routing)");
        capacity = editable(parent, "Capacity factor:", CAPACITIES, "What an expert takes before it drops tokens,"
                + " as a multiple of the mean: a number, or none (no drops)");
        backend.addModifyListener(e -> enableProfile());
        // a prediction validates only when asked: the box follows the backend chosen (the user may still tick it)
        backend.addListener(SWT.Selection, e -> validate.setSelection(
                RunCommandLine.validatesByDefault(backend.getText())));
        devices = spinner(parent, "Devices:", 1, FusionBindings.MAX_DEVICES);
        streams = spinner(parent, "Streams:", 1, 1024);
        iterations = spinner(parent, "Iterations:", 1, 100_000);
        warmup = spinner(parent, "Warm-ups:", 0, 100_000);
        sameWidth(devices, streams, iterations, warmup);
        validate = check(parent, "Validate against the unsharded reference (sampled where the outputs are large)");
        validate.setToolTipText("With sim, validating computes every rank's data on the CPU as well: off by default");
    }

    /** The routings and capacity factors offered; any other spelling may be typed. */
    static final String[] ROUTINGS = { LaunchSettings.DEFAULT_ROUTING, "zipf:1.2", "histogram:" };
    static final String[] CAPACITIES = { LaunchSettings.DEFAULT_CAPACITY, "1", "1.25", "2" };

    /** An editable combo on a whole row (its label, then the combo spanning the profile's two columns). */
    private Combo editable(Composite parent, String label, String[] items, String tip) {
        new Label(parent, SWT.NONE).setText(label);
        Combo c = new Combo(parent, SWT.DROP_DOWN);
        c.setItems(items);
        ComboTips.onLabel(c, tip);
        c.setLayoutData(new GridData(SWT.FILL, SWT.CENTER, true, false, 2, 1));
        c.addModifyListener(e -> changed());
        return c;
    }

    private void chooseProfileFile() {
        FileDialog d = new FileDialog(profile.getShell(), SWT.OPEN);
        d.setFilterExtensions(new String[] { "*.json", "*" });
        String f = d.open();
        if (f != null) profile.setText(f);
    }

    private void enableProfile() {
        boolean sim = LaunchSettings.SIM.equals(backend.getText());
        profile.setEnabled(sim);
        profileFile.setEnabled(sim);
        routing.setEnabled(sim);
        capacity.setEnabled(sim);
    }

    @Override
    protected void show(LaunchSettings s) {
        select(backend, s.backend());
        profile.setText(s.profile());
        routing.setText(s.routing());
        capacity.setText(s.capacityFactor());
        enableProfile();
        devices.setSelection(s.devices());
        streams.setSelection(s.streams());
        iterations.setSelection(s.iterations());
        warmup.setSelection(s.warmup());
        validate.setSelection(s.validate());
    }

    @Override
    protected LaunchSettings apply(LaunchSettings s) {
        return new LaunchSettings(s.file(), s.symbols(), backend.getText(), devices.getSelection(),
                streams.getSelection(), iterations.getSelection(), warmup.getSelection(), validate.getSelection(),
                s.options(), profile.getText().strip(), routing.getText(), capacity.getText());
    }

    @Override
    protected String problem() {
        if (backend == null) return null;
        if (debug) {
            var refused = apply(LaunchSettings.DEFAULTS).debugRefusal();
            if (refused.isPresent()) return "Backend " + backend.getText() + ": " + refused.get();
        }
        if (profile == null || !LaunchSettings.SIM.equals(backend.getText())) return null;
        if (profile.getText().isBlank()) return "Choose the simulated machine's profile (Execution tab)";
        return apply(LaunchSettings.DEFAULTS).routingProblem().orElse(null);
    }
}
