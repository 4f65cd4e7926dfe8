package org.hostir.studio.ui.tests.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.views.properties.IPropertySource;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.FusionElement;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.junit.jupiter.api.Test;

/**
 * Benchmark, not a timed test: opening and laying out a generated 200-op fusion (targets under 1 s), and
 * re-validating after one edit (under 50 ms). Prints medians; also written to target/editor-benchmark.txt.
 */
public class EditorBenchmarkTest {
    public static FusionDocument generated(int ops) {
        return org.hostir.studio.ui.editor.EditorWarmUp.generated("generated" + ops, ops);
    }

    /**
     * {@code hirstudio.bench.coldAfter=MS}: the 1,000-op benchmark alone, its first open MS after the test starts
     * (the event loop running meanwhile), so that the first open of a fresh workbench JVM is measured as a person's
     * first open a while after the Studio started, with whatever the Studio warmed in the background by then.
     */
    static final String COLD_AFTER = "hirstudio.bench.coldAfter";

    @Test
    void open200OpsAndRevalidate() throws Exception {
        // the cold measurement's first open must be the JVM's first open of the editor
        org.junit.jupiter.api.Assumptions.assumeTrue(Long.getLong(COLD_AFTER) == null, "cold-open benchmark only");
        IFile f = EditorFixture.file("bench200.fusion", FusionWriter.write(generated(200)));
        long[] open = new long[5];
        long[] revalidate = new long[9];
        long[] edit = new long[9];
        for (int r = 0; r < open.length; r++) {
            long t0 = System.nanoTime();
            FusionEditor e = (FusionEditor) org.eclipse.ui.ide.IDE.openEditor(EditorFixture.page(), f, FusionEditor.ID);
            e.getSite().getShell().getDisplay().update();   // painted once
            open[r] = System.nanoTime() - t0;
            assertEquals(402, ShownGraph.of(e).keys().size());
            if (r == open.length - 1) {
                for (int i = 0; i < revalidate.length; i++) {
                    IPropertySource axis = (IPropertySource) e.propertySource(FusionElement.tensor(e.workspacePath(),
                            "tv" + (50 + i))).getPropertyValue("axis.1");
                    long t1 = System.nanoTime();
                    axis.setPropertyValue("parallel", "Stream");
                    edit[i] = System.nanoTime() - t1;
                    revalidate[i] = e.lastCheckNanos();
                }
                e.reparse();
                revalidate[0] = e.lastCheckNanos();
                EditorFixture.screenshot("editor-bench-200.png");
            }
            EditorFixture.closeAll();
        }
        String report = String.format("BENCH editor: open + layout of a 200-op fusion (402 nodes): median %.1f ms %s%n"
                + "BENCH editor: re-validation (engine validation + lowering of rank 0) after one edit: median %.2f ms%n"
                + "BENCH editor: one whole edit (operation, source rewrite, re-validation, markers, redraw): median %.1f ms%n",
                median(open), ms(open), median(revalidate), median(edit));
        System.out.print(report);
        Path out = EditorFixture.repo().resolve("tests/org.hostir.studio.ui.tests/target/editor-benchmark.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
    }

    /**
     * Issue 35: a 1,000-op fusion (2,002 nodes) opened until its layout (ELK, in the background job) is applied and
     * painted, the first picture, the target being under 2 s; then until the opening's lowering of every rank (in
     * the background after that picture) is back. Besides the wall times, which the machine's load dominates, the CPU
     * time of the UI thread (open to first picture) and of the layout's thread. Not a timed assertion: medians
     * printed, a bound only against a hang.
     */
    @Test
    void open1000OpsUntilLaidOut() throws Exception {
        IFile f = EditorFixture.file("bench1000.fusion", FusionWriter.write(generated(1000)));
        int runs = Integer.getInteger("hirstudio.bench.opens", 5);
        long[] open = new long[runs], shown = new long[runs], checked = new long[runs], elk = new long[runs];
        long[] uiCpu = new long[runs], elkCpu = new long[runs];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        waitBeforeColdOpen();
        for (int r = 0; r < runs; r++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            FusionEditor e = (FusionEditor) org.eclipse.ui.ide.IDE.openEditor(EditorFixture.page(), f, FusionEditor.ID);
            open[r] = System.nanoTime() - t0;
            GraphViewer g = e.getAdapter(GraphViewer.class);
            waitWhile(g::layoutPending);
            e.getSite().getShell().getDisplay().update();
            shown[r] = System.nanoTime() - t0;
            uiCpu[r] = threads.getCurrentThreadCpuTime() - c0;
            assertEquals(2002, g.keys().size());
            assertTrue(g.visible("tv500") && g.visible("op:tv1001"), "every node placed and shown");
            waitWhile(e::checkPending);
            checked[r] = System.nanoTime() - t0;
            assertEquals(List.of(), e.problems(), "the generated fusion lowers on every rank");
            elk[r] = (long) (g.lastLayoutMillis() * 1e6);
            elkCpu[r] = (long) (g.lastLayoutCpuMillis() * 1e6);
            if (r == runs - 1) EditorFixture.screenshot("editor-bench-1000.png");
            EditorFixture.closeAll();
        }
        String report = String.format("BENCH editor: a 1,000-op fusion (2,002 nodes): editor open median %.0f ms %s, "
                + "laid out and painted (first picture) median %.0f ms %s, lowering of every rank back median %.0f ms %s; "
                + "ELK in the background median %.0f ms %s; CPU: UI thread open to first picture median %.0f ms %s, "
                + "layout thread median %.0f ms %s%n",
                median(open), ms(open), median(shown), ms(shown), median(checked), ms(checked), median(elk), ms(elk),
                median(uiCpu), ms(uiCpu), median(elkCpu), ms(elkCpu));
        System.out.print(report);
        Path out = EditorFixture.repo().resolve("tests/org.hostir.studio.ui.tests/target/editor-benchmark-1000.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        assertTrue(median(shown) < 20_000, "a 1,000-op fusion opens at all (target 2 s): " + report);
    }

    /** With {@link #COLD_AFTER}: runs the event loop that long, then says which warm-up jobs are still to run. */
    private static void waitBeforeColdOpen() {
        Long after = Long.getLong(COLD_AFTER);
        if (after == null) return;
        System.out.println("BENCH cold: warm-up jobs at the test's start: " + warmUpJobs());
        long end = System.currentTimeMillis() + after;
        waitWhile(() -> System.currentTimeMillis() < end);
        System.out.println("BENCH cold: first open " + after + " ms after the test's start; warm-up jobs not done: "
                + warmUpJobs());
    }

    private static List<String> warmUpJobs() {
        return Arrays.stream(org.eclipse.core.runtime.jobs.Job.getJobManager().find(null))
                .map(org.eclipse.core.runtime.jobs.Job::getName).filter(n -> n.contains("warm-up")).toList();
    }

    /** Runs the event loop while {@code condition} holds (at most 60 s: a bound against a hang, not a timing). */
    static void waitWhile(BooleanSupplier condition) {
        Display display = Display.getCurrent();
        long end = System.currentTimeMillis() + 60_000;
        while (condition.getAsBoolean() && System.currentTimeMillis() < end) {
            if (!display.readAndDispatch()) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    static double median(long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        return s[s.length / 2] / 1e6;
    }

    static String ms(long[] nanos) {
        return Arrays.toString(Arrays.stream(nanos).mapToObj(n -> String.format("%.0f", n / 1e6)).toArray());
    }
}
