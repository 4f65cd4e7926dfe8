package org.hostir.studio.ui.timeline;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.SubMonitor;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.swt.widgets.Display;
import org.hostir.studio.engine.BackendPlan;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.lower.LoweringOptions;

/**
 * "Run on CPU and show timeline": lowers and runs a fusion file on the engine's CPU backend (threads as devices)
 * in a Job with the given {@link RunSettings}, then shows the run's timeline. Failures end as the diagnostic
 * lines, never as a stack trace.
 */
public final class CpuRun {
    public static final Object JOB_FAMILY = CpuRun.class;
    public static final int DEFAULT_DEVICES = 2;

    /** What a run gave: its result, or the lines that say why it failed. */
    public sealed interface Outcome {
        record Ran(RunResult result) implements Outcome {}

        record Failed(List<String> diagnostics) implements Outcome {}
    }

    private CpuRun() {}

    /** Runs synchronously (the Job's body; tests call it directly). */
    public static Outcome run(String source, String file, int devices, LoweringOptions options,
                              Consumer<String> progress) {
        return run(source, file, devices, options, Map.of(), progress);
    }

    /** As above with the settings of a "Run on CPU" (a bad option value is a diagnostic too). */
    public static Outcome run(String source, String file, RunSettings settings, Consumer<String> progress) {
        LoweringOptions options;
        try {
            options = settings.loweringOptions();
        } catch (IllegalArgumentException e) {
            return new Outcome.Failed(List.of(file + ": " + e.getMessage()));
        }
        return run(source, file, settings.devices(), options, settings.symbols(), progress);
    }

    private static Outcome run(String source, String file, int devices, LoweringOptions options,
                               Map<String, Long> symbolOverrides, Consumer<String> progress) {
        try {
            LoadedFusion loaded = Engine.load(new FusionSource.Text(source, file), devices, symbolOverrides);
            BackendPlan plan = BackendPlan.choose(RunRequest.cpu(devices, options), file);
            return new Outcome.Ran(Engine.run(loaded, plan, progress));
        } catch (EngineFailure e) {
            return new Outcome.Failed(e.lines());
        } catch (RuntimeException e) {
            // an engine bug: one line for the user, never a stack trace
            return new Outcome.Failed(List.of(file + ": internal error in the run: " + e));
        }
    }

    /** Schedules the run of a workspace file with the default settings (see below). */
    public static Job schedule(IFile file, Display display) { return schedule(file, display, RunSettings.DEFAULTS); }

    /** Schedules the run of a workspace file and shows its timeline (or its diagnostics) when done. */
    public static Job schedule(IFile file, Display display, RunSettings settings) {
        Job job = new Job("Run " + file.getName() + " on CPU") {
            @Override
            protected IStatus run(IProgressMonitor monitor) {
                SubMonitor sub = SubMonitor.convert(monitor, "Running " + file.getName() + " on the CPU backend", 3);
                String source;
                try (var in = file.getContents(true)) {
                    source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                } catch (CoreException | IOException e) {
                    report(display, List.of(file.getFullPath() + ": cannot read the file: " + e.getMessage()));
                    return Status.OK_STATUS;
                }
                sub.worked(1);
                if (sub.isCanceled()) return Status.CANCEL_STATUS;
                Outcome outcome = CpuRun.run(source, file.getFullPath().toString(), settings,
                        line -> sub.subTask(line));
                sub.worked(2);
                // the backend cannot be interrupted mid-run; a cancel drops the result
                if (sub.isCanceled()) return Status.CANCEL_STATUS;
                switch (outcome) {
                    case Outcome.Ran(RunResult r) -> display.asyncExec(() -> TimelineView.show(r.timeline(),
                            title(file.getName(), settings, r), file, settings));
                    case Outcome.Failed(List<String> lines) -> report(display, lines);
                }
                return Status.OK_STATUS;
            }

            @Override
            public boolean belongsTo(Object family) { return family == JOB_FAMILY; }
        };
        job.setUser(true);
        job.schedule();
        return job;
    }

    /**
     * The Timeline's run line: file, devices, the median time and the validation's verdict, then the options, which
     * a launch spells out in full: past the view's width at 1600 px, so they go last (issue 35: the time and the
     * verdict were cut off).
     */
    public static String title(String fileName, RunSettings settings, RunResult r) {
        String options = settings.describeOptions();
        return fileName + ": CPU run, " + settings.describeDevices() + ", "
                + String.format(Locale.ROOT, "%.2f ms", r.medianMillis())
                + r.validation().map(v -> ", " + v.line()).orElse("")
                + (options.isEmpty() ? "" : ", " + options);
    }

    private static void report(Display display, List<String> lines) {
        display.asyncExec(() -> MessageDialog.openError(display.getActiveShell(), "Run on CPU",
                "The run failed:\n\n" + String.join("\n", lines)));
    }
}
