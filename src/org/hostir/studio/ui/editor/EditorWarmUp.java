package org.hostir.studio.ui.editor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.draw2d.SWTGraphics;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.layout.FillLayout;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IWorkbench;
import org.eclipse.ui.IWorkbenchListener;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.ui.WarmUpJob;
import org.hostir.studio.file.AxisSpec;
import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ui.editor.model.FusionCheck;

/**
 * The graph editor's opening path run once in the background after the Studio starts, so that the first fusion
 * opened does not pay for loading and compiling it (issue 35: a fresh workbench's first 1,000-op open took 3.8 s
 * against 1.0 s for the next). A fusion generated in memory (nothing in the workspace) is parsed, loaded and
 * lowered as an opening does, then drawn by a {@link GraphViewer} on a shell that is never opened: its figures
 * made, laid out by ELK in the viewer's own layout job, and painted into an image. Skipped when a fusion editor is
 * already open (that opening warmed the path), stopped when the workbench closes.
 */
public final class EditorWarmUp {
    /** The family of the warm-up job, for callers (and tests) that wait for it. */
    public static final Object FAMILY = new Object();
    /** The generated fusion's ops: enough for the figures' and the layout's code to be compiled, little UI time. */
    static final int OPS = 200;
    /**
     * The editor's parts that the unshown viewer does not reach, loaded and linked (verified) here, not initialised:
     * the multi-page editor with its text page (Eclipse's text editor below it), the palette, the commands, the
     * Properties and the Outline.
     */
    static final List<Class<?>> PARTS = List.of(FusionEditor.class, SourcePage.class, GraphPage.class,
            GraphPalette.class, GraphCommands.class, FusionCommands.class, FusionProperties.class,
            FusionOutlinePage.class, IdleThumbnail.class);
    /** The longest wait for the layout of the unshown graph. */
    private static final long LAYOUT_WAIT_MILLIS = 30_000;

    /** What a warm-up did, for tests: skipped, the fusion's nodes drawn, laid out, painted, every rank lowered. */
    public record Warmed(boolean skipped, int linked, int figures, boolean laidOut, boolean painted, boolean lowered) {
        static final Warmed SKIPPED = new Warmed(true, 0, 0, false, false, false);
    }

    private EditorWarmUp() {}

    /** Schedules the warm-up {@code delayMillis} from now, at the lowest priority, out of the Progress view. */
    public static void later(long delayMillis) {
        WarmUpJob.later("Graph editor warm-up", FAMILY, monitor -> warm(monitor), delayMillis);
    }

    /** Runs the opening's path on a job's thread (the UI steps through the display); see the class comment. */
    public static Warmed warm(IProgressMonitor monitor) {
        Display display = PlatformUI.getWorkbench().getDisplay();
        if (monitor.isCanceled() || Boolean.TRUE.equals(onUi(display, EditorWarmUp::fusionEditorOpen))) {
            return Warmed.SKIPPED;
        }
        int linked = link();
        FusionCheck.Loaded loaded = FusionCheck.load(FusionWriter.write(generated("warm_up", OPS)), "warm-up.fusion", null);
        FusionCheck.Result r = loaded.result();
        if (monitor.isCanceled() || !r.parses()) return Warmed.SKIPPED;
        AtomicReference<Shell> shell = new AtomicReference<>();
        AtomicReference<GraphViewer> viewer = new AtomicReference<>();
        Integer figures = onUi(display, () -> {
            if (fusionEditorOpen()) return null;
            shell.set(new Shell(display));   // never opened: nothing is shown, no focus moves
            shell.get().setLayout(new FillLayout());
            shell.get().setSize(1200, 800);
            viewer.set(new GraphViewer(shell.get(), figure -> {}));
            shell.get().layout();
            viewer.get().setContents(r.document(), r.problems(), r.shardings());
            return viewer.get().keys().size();
        });
        try {
            if (figures == null) return Warmed.SKIPPED;
            boolean laidOut = waitForLayout(display, viewer.get(), monitor);
            boolean painted = laidOut && Boolean.TRUE.equals(onUi(display, () -> paint(viewer.get())));
            // the opening's second stage, every rank lowered off the UI thread once the graph is drawn
            boolean lowered = !monitor.isCanceled() && loaded.lowerable() && loaded.lower().problems().isEmpty();
            return new Warmed(false, linked, figures, laidOut, painted, lowered);
        } finally {
            onUi(display, () -> {
                if (shell.get() != null) shell.get().dispose();
                return null;
            });
        }
    }

    /**
     * Links {@link #PARTS} and the classes their methods name: listing a class's methods makes the JVM link it
     * (verify its code), what the first opening would otherwise do on the UI thread. The count linked.
     */
    static int link() {
        int linked = 0;
        for (Class<?> c : PARTS) {
            try {
                c.getDeclaredMethods();
                linked++;
            } catch (LinkageError e) {
                // the opening reports what it cannot load
            }
        }
        return linked;
    }

    /** Waits (off the UI thread) until the unshown graph's layout is applied; false if it is not in time. */
    private static boolean waitForLayout(Display display, GraphViewer viewer, IProgressMonitor monitor) {
        long end = System.currentTimeMillis() + LAYOUT_WAIT_MILLIS;
        while (System.currentTimeMillis() < end && !monitor.isCanceled()) {
            if (Boolean.FALSE.equals(onUi(display, viewer::layoutPending))) return true;
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /** Validates and paints the graph's figures into an image, as the canvas's first paint would on screen. */
    private static boolean paint(GraphViewer viewer) {
        var root = viewer.rootFigure();
        viewer.canvas().getLightweightSystem().getUpdateManager().performValidation();
        var size = root.getPreferredSize();
        Image image = new Image(viewer.canvas().getDisplay(), Math.max(1, Math.min(size.width, 2000)),
                Math.max(1, Math.min(size.height, 2000)));
        GC gc = new GC(image);
        SWTGraphics graphics = new SWTGraphics(gc);
        try {
            root.paint(graphics);
        } finally {
            graphics.dispose();
            gc.dispose();
            image.dispose();
        }
        return true;
    }

    /** Whether a window shows a fusion editor (open or restored). */
    static boolean fusionEditorOpen() {
        for (IWorkbenchWindow w : PlatformUI.getWorkbench().getWorkbenchWindows()) {
            for (IWorkbenchPage p : w.getPages()) {
                for (var e : p.getEditorReferences()) if (FusionEditor.ID.equals(e.getId())) return true;
            }
        }
        return false;
    }

    /** {@code step}'s answer on the UI thread; null when the display is gone or the workbench is closing. */
    private static <T> T onUi(Display display, Supplier<T> step) {
        AtomicReference<T> answer = new AtomicReference<>();
        if (display.isDisposed()) return null;
        display.syncExec(() -> {
            if (!PlatformUI.getWorkbench().isClosing()) answer.set(step.get());
        });
        return answer.get();
    }

    /**
     * A chain of {@code ops} adds and muls on DIDx-sharded tensors named {@code name}: the warm-up's fusion and the
     * editor benchmarks' (one generator, so that what is warmed is what is measured).
     */
    public static FusionDocument generated(String name, int ops) {
        List<AxisSpec> axes = List.of(AxisSpec.of(ExtentSpec.symbol("D"), ParallelType.DIDX),
                AxisSpec.of(ExtentSpec.symbol("M")), AxisSpec.of(ExtentSpec.symbol("N")));
        List<TensorSpec> tensors = new ArrayList<>();
        List<OpSpec> list = new ArrayList<>();
        for (int i = 0; i < ops + 2; i++) tensors.add(new TensorSpec("tv" + i, DataType.FLOAT, null, axes, MeshSpec.ALL));
        for (int i = 0; i < ops; i++) {
            String out = "tv" + (i + 2), prev = "tv" + (i + 1);
            list.add(i % 2 == 0 ? OpSpec.of(OpKind.ADD, out, prev, "tv0") : OpSpec.of(OpKind.MUL, out, prev, "tv1"));
        }
        return new FusionDocument(name, null, Map.of("M", 8L, "N", 8L), tensors, list, List.of("tv0", "tv1"),
                List.of("tv" + (ops + 1)), null);
    }
}
