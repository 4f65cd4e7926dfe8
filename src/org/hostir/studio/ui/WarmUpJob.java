package org.hostir.studio.ui;

import java.util.function.Consumer;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.ui.IWorkbench;
import org.eclipse.ui.IWorkbenchListener;
import org.eclipse.ui.PlatformUI;

/**
 * A warm-up at start (the help server, the graph editor's opening path): a system job at the lowest priority, out
 * of the Progress view, cancelled when the workbench closes. A warm-up that fails changes nothing a person sees: the
 * first real use loads what it needs itself, as it always did, so its failure is dropped.
 */
public final class WarmUpJob {
    private WarmUpJob() {}

    /** Schedules {@code warm} {@code delayMillis} from now as a job named {@code name} of {@code family}. */
    public static void later(String name, Object family, Consumer<IProgressMonitor> warm, long delayMillis) {
        Job job = new Job(name) {
            @Override
            protected IStatus run(IProgressMonitor monitor) {
                try {
                    warm.accept(monitor);
                } catch (RuntimeException | LinkageError e) {
                    // see the class comment: the first real use does the work itself
                }
                return Status.OK_STATUS;
            }

            @Override
            public boolean belongsTo(Object f) { return f == family; }
        };
        job.setSystem(true);
        job.setPriority(Job.DECORATE);
        PlatformUI.getWorkbench().addWorkbenchListener(new IWorkbenchListener() {
            @Override
            public boolean preShutdown(IWorkbench workbench, boolean forced) {
                job.cancel();
                return true;
            }

            @Override
            public void postShutdown(IWorkbench workbench) { }
        });
        job.schedule(delayMillis);
    }
}
