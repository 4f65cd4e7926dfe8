package org.hostir.studio.ui.editor;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.eclipse.core.runtime.ILog;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.swt.widgets.Display;
import org.hostir.studio.ui.WarmUpJob;

/**
 * The graph's layout, off the UI thread: the latest request is laid out by ELK in this job and its answer handed
 * to the UI thread; requests that arrive while one runs are coalesced (only the newest is laid out next).
 */
public final class LayoutJob extends Job {
    /** The family of every graph layout job, for {@code IJobManager.join}. */
    static final Object FAMILY = LayoutJob.class;

    /** What to lay out (boxes, arrows, compound nodes by key) and what to do with the result on the UI thread. */
    record Request(List<ElkLayout.Box> boxes, List<ElkLayout.Arrow> arrows, Map<String, ElkLayout.Box> groups,
            Consumer<ElkLayout.Result> done) {}

    private final Display display;
    private final AtomicReference<Request> next = new AtomicReference<>();

    LayoutJob(Display display) {
        super("Graph layout");
        this.display = display;
        setSystem(true);
    }

    /** How long the last layout took in this job (nanoseconds), for the benchmark's figures. */
    volatile long lastNanos;
    /** The CPU time of the job's thread in the last layout (nanoseconds): what the machine's load affects less. */
    volatile long lastCpuNanos;

    void submit(Request request) {
        next.set(request);
        schedule();
    }

    @Override
    protected IStatus run(IProgressMonitor monitor) {
        Request r = next.getAndSet(null);
        if (r == null) return Status.OK_STATUS;
        ElkLayout.Result result;
        long t0 = System.nanoTime();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        try {
            result = ElkLayout.layout(r.boxes(), r.arrows(), r.groups());
        } catch (RuntimeException | LinkageError e) {
            // a graph the layout engine cannot take (or an engine that cannot be loaded) still gets a readable
            // placement, and the log says why
            result = ElkLayout.grid(r.boxes());
            ILog.of(LayoutJob.class).warn("graph layout failed: " + e, e);
        }
        lastNanos = System.nanoTime() - t0;
        lastCpuNanos = threads.getCurrentThreadCpuTime() - cpu0;
        ElkLayout.Result laid = result;
        if (!display.isDisposed()) display.asyncExec(() -> r.done().accept(laid));
        return Status.OK_STATUS;
    }

    @Override
    public boolean belongsTo(Object family) { return family == FAMILY; }

    /**
     * Warms the layout engine up in the background ({@link ElkLayout#warmUp}), {@code delayMillis} from now, at the
     * lowest priority, so that the first fusion opened does not pay for loading and compiling ELK.
     */
    public static void warmUpLater(long delayMillis) {
        // a broken engine is reported by the first real layout (which falls back to a grid), not here
        WarmUpJob.later("Graph layout warm-up", LayoutJob.class, monitor -> ElkLayout.warmUp(), delayMillis);
    }
}
