package org.hostir.studio.ui.launch;

import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Spinner;

/** Where and how often to run: backend, devices, streams, iterations, warm-ups, validation. */
final class ExecutionTab extends SettingsTab {
    private Combo backend;
    private Spinner devices;
    private Spinner streams;
    private Spinner iterations;
    private Spinner warmup;
    private Button validate;

    @Override
    public String getName() { return "Execution"; }

    @Override
    protected void createFields(Composite parent) {
        backend = combo(parent, "Backend:", "auto", "cpu", "cuda", LaunchSettings.CUDA_SHARING_GPUS);
        devices = spinner(parent, "Devices:", 1, 4096);
        streams = spinner(parent, "Streams:", 1, 1024);
        iterations = spinner(parent, "Iterations:", 1, 100_000);
        warmup = spinner(parent, "Warm-ups:", 0, 100_000);
        validate = check(parent, "Validate against the unsharded reference (sampled where the outputs are large)");
    }

    @Override
    protected void show(LaunchSettings s) {
        select(backend, s.backend());
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
                s.options());
    }
}
