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
 * backend ({@code sim}), the machine it predicts for: a built-in hardware profile or a profile file.
 */
public final class ExecutionTab extends SettingsTab {
    /** The backends offered, in order; {@code sim} predicts the run instead of running it. */
    public static final List<String> BACKENDS = List.of("auto", "cpu", LaunchSettings.SIM, "cuda",
            LaunchSettings.CUDA_SHARING_GPUS);
    private Combo backend;
    private Combo profile;
    private Button profileFile;
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
        backend.addModifyListener(e -> enableProfile());
        // a prediction validates only when asked: the box follows the backend chosen (the user may still tick it)
        backend.addListener(SWT.Selection, e -> validate.setSelection(
                RunCommandLine.validatesByDefault(backend.getText())));
        devices = spinner(parent, "Devices:", 1, FusionBindings.MAX_DEVICES);
        streams = spinner(parent, "Streams:", 1, 1024);
        iterations = spinner(parent, "Iterations:", 1, 100_000);
        warmup = spinner(parent, "Warm-ups:", 0, 100_000);
        validate = check(parent, "Validate against the unsharded reference (sampled where the outputs are large)");
        validate.setToolTipText("With sim, validating computes every rank's data on the CPU as well: off by default");
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
    }

    @Override
    protected void show(LaunchSettings s) {
        select(backend, s.backend());
        profile.setText(s.profile());
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
                s.options(), profile.getText().strip());
    }

    @Override
    protected String problem() {
        if (backend == null) return null;
        if (debug) {
            var refused = apply(LaunchSettings.DEFAULTS).debugRefusal();
            if (refused.isPresent()) return "Backend " + backend.getText() + ": " + refused.get();
        }
        if (profile == null || !LaunchSettings.SIM.equals(backend.getText())) return null;
        return profile.getText().isBlank() ? "Choose the simulated machine's profile (Execution tab)" : null;
    }
}
