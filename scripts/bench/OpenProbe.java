package org.hostir.studio.ui.editor;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.swt.layout.FillLayout;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.ui.editor.model.FusionCheck;

/**
 * The editor benchmark of scripts/editor-open-bench.sh (not a test; compiled by the script into the editor's package
 * on a plain classpath): opens {@code EditorBenchmarkTest.generated(OPS)} in a {@link GraphViewer} in a shell, in the
 * order {@code FusionEditor.createPages} follows in this tree, and prints per open the wall time to the first picture (every
 * node laid out and painted) and to the check's end, and the CPU time of the UI thread and of the job threads (the
 * layout) up to that picture. What it leaves out of the editor's opening: the workbench's part (the Source page's
 * text editor, markers, Outline, Properties), which EditorBenchmarkTest measures inside the workbench.
 */
public final class OpenProbe {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    public static void main(String[] args) {
        int ops = Integer.parseInt(args[0]), opens = Integer.parseInt(args[1]);
        String side = args[2];
        // "warm": the layout engine warmed up first, as the Studio does at start (LayoutJob.warmUpLater)
        if (args.length > 3 && args[3].equals("warm")) ElkLayout.warmUp();
        Display display = new Display();
        String text = FusionWriter.write(GeneratedFusion.of(ops));
        for (int r = 0; r < opens; r++) {
            Shell shell = new Shell(display);
            shell.setLayout(new FillLayout());
            shell.setBounds(0, 0, 1600, 1000);
            shell.open();
            while (display.readAndDispatch()) {
                // settled before the clock starts
            }
            long ui0 = THREADS.getCurrentThreadCpuTime(), jobs0 = jobsCpu(), t0 = System.nanoTime();
            GraphViewer v = new GraphViewer(shell, f -> {});
            shell.layout(true);
            boolean[] checked = {false};
            open(display, v, text, checked);
            while (v.layoutPending()) {
                if (!display.readAndDispatch()) display.sleep();
            }
            v.getControl().redraw();
            display.update();
            long t1 = System.nanoTime(), ui = THREADS.getCurrentThreadCpuTime() - ui0, jobs = jobsCpu() - jobs0;
            while (!checked[0]) {
                if (!display.readAndDispatch()) display.sleep();
            }
            long t2 = System.nanoTime();
            System.out.printf("OPEN side=%s open=%d first_picture_ms=%d checked_ms=%d ui_cpu_ms=%d jobs_cpu_ms=%d routed=%d%n",
                    side, r, ms(t1 - t0), ms(t2 - t0), ms(ui), ms(jobs), v.routedEdges());
            shell.dispose();
        }
        display.dispose();
    }

    /** This tree's order: the loaded fusion shown and laid out, every rank lowered after the picture, in a job. */
    private static void open(Display display, GraphViewer v, String text, boolean[] checked) {
        FusionCheck.Loaded loaded = FusionCheck.load(text, "/bench/generated.fusion", null);
        FusionCheck.Result first = loaded.result();
        v.setContents(first.document(), first.problems(), first.shardings());
        v.whenLaidOut(() -> display.asyncExec(() -> {
            Job job = Job.create("check", monitor -> {
                FusionCheck.Result r = loaded.lower();
                display.asyncExec(() -> {
                    v.setContents(r.document(), r.problems(), r.shardings());
                    checked[0] = true;
                });
                return Status.OK_STATUS;
            });
            job.setSystem(true);
            job.schedule();
        }));
    }

    /** The CPU time of Eclipse's job threads (the layout job; the opening's lowering runs after the picture). */
    private static long jobsCpu() {
        long sum = 0;
        for (var info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("Worker-")) {
                sum += Math.max(0, THREADS.getThreadCpuTime(info.getThreadId()));
            }
        }
        return sum;
    }

    private static long ms(long nanos) { return nanos / 1_000_000; }
}
