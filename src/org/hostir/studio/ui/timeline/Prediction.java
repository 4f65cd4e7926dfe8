package org.hostir.studio.ui.timeline;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.swt.widgets.Display;
import org.hostir.studio.engine.BackendPlan;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.engine.PredictedTrace;
import org.hostir.studio.engine.RunRequest;
import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.trace.TraceRun;
import org.hostir.studio.trace.analysis.TraceComparison;

/**
 * "Show Prediction Above": the shown run's program (its file and {@link RunSettings}) simulated through the engine
 * on a hardware profile ({@code run --backend sim}), shown above the run in the Timeline ({@link
 * TimelineView#showStacked}), or compared with it in the Compare tab ({@link #compare}). Failures end as the diagnostic lines, never as a stack trace.
 */
public final class Prediction {
    public static final Object JOB_FAMILY = Prediction.class;

    private Prediction() {}

    /** The prediction of {@code source} with {@code settings} on {@code profile} (the Job's body; tests call it). */
    public static CpuRun.Outcome run(String source, String file, RunSettings settings, String profile,
                                     Consumer<String> progress) {
        try {
            LoadedFusion loaded = Engine.load(new FusionSource.Text(source, file), settings.devices(),
                    settings.symbols());
            RunRequest request = new RunRequest(RunRequest.BackendChoice.SIM, settings.devices(),
                    settings.loweringOptions(), 1, 0, ValidationMode.OFF, RunRequest.DEFAULT_SEED,
                    RunRequest.DEFAULT_TIMEOUT_MILLIS, false, Optional.empty(), false, profile);
            return new CpuRun.Outcome.Ran(Engine.run(loaded, BackendPlan.choose(request, file), progress));
        } catch (EngineFailure e) {
            return new CpuRun.Outcome.Failed(e.lines());
        } catch (IllegalArgumentException e) { // a bad option value in the settings
            return new CpuRun.Outcome.Failed(List.of(file + ": " + e.getMessage()));
        }
    }

    /** Predicts the run {@code view} shows on {@code profile} and stacks it above the run. */
    public static Job schedule(TimelineView view, String profile) {
        RunSettings settings = view.runSettings();
        Display display = view.getSite().getShell().getDisplay();
        String file = view.source().getFullPath().toString();
        return start(view.source(), "Predict " + view.source().getName() + " on " + profile, display,
                (source, monitor) -> {
                    switch (Prediction.run(source, file, settings, profile, monitor::subTask)) {
                        case CpuRun.Outcome.Ran(var r) -> display.asyncExec(() -> {
                            if (!view.getSite().getShell().isDisposed()) {
                                view.showStacked(r.timeline(), settings.devices() + " x " + profile);
                            }
                        });
                        case CpuRun.Outcome.Failed(List<String> lines) -> report(display, lines);
                    }
                });
    }

    /**
     * "Compare With Prediction...": the shown run (A) compared with the prediction (B) of its program on
     * {@code profile}, node by node, by the engine ({@link PredictedTrace#compare}, what {@code hirstudio trace diff
     * A --predict PROFILE --fusion F} prints); shown in the Compare tab and as difference tracks.
     */
    public static Job compare(TimelineView view, String profile) {
        RunSettings settings = view.runSettings();
        TraceRun measured = view.shownRun();
        Display display = view.getSite().getShell().getDisplay();
        String name = view.source().getFullPath().toString();
        return start(view.source(), "Compare " + view.source().getName() + " with its prediction on " + profile,
                display, (source, monitor) -> {
                    try {
                        LoadedFusion loaded = Engine.load(new FusionSource.Text(source, name), settings.devices(),
                                settings.symbols());
                        TraceComparison c = PredictedTrace.compare(measured, loaded, settings.loweringOptions(),
                                profile, name, monitor::subTask);
                        display.asyncExec(() -> view.showComparison(measured, c));
                    } catch (EngineFailure e) {
                        report(display, e.lines());
                    } catch (IllegalArgumentException e) { // a bad option value in the settings
                        report(display, List.of(name + ": " + e.getMessage()));
                    }
                });
    }

    /** A user job of this family that reads {@code file} and hands its text to {@code body}; a read failure is said. */
    private static Job start(IFile file, String name, Display display, BiConsumer<String, IProgressMonitor> body) {
        Job job = new Job(name) {
            @Override
            protected IStatus run(IProgressMonitor monitor) {
                try (var in = file.getContents(true)) {
                    body.accept(new String(in.readAllBytes(), StandardCharsets.UTF_8), monitor);
                } catch (CoreException | IOException e) {
                    report(display, List.of(file.getFullPath() + ": cannot read the file: " + e.getMessage()));
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

    private static void report(Display display, List<String> lines) {
        display.asyncExec(() -> MessageDialog.openError(display.getActiveShell(), "Prediction",
                "The prediction failed:\n\n" + String.join("\n", lines)));
    }
}
