package org.hostir.studio.ui.studio;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.ILog;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IViewReference;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.exec.cuda.CudaBackend;

/**
 * The product smoke test's eyes: a few seconds after start it saves a PNG of the window and a text report (the
 * perspective, the open views and editors, how each shown part reads: {@link SmokeContrast}); then it runs the
 * example ({@link SmokeRun}), adds what the run showed to the report with a second PNG ({@code NAME-run.png}), and
 * closes the workbench so the script that started it can check. With {@code hirstudio.smoke.run=false} it closes
 * after the first picture (the Dark start's check, which needs no run).
 */
final class SmokeReport {
    private static final int SETTLE_MILLIS = 4000;
    static final String RUN = "hirstudio.smoke.run";

    private SmokeReport() {}

    static void later(Path png, IFile example) {
        Display display = PlatformUI.getWorkbench().getDisplay();
        display.timerExec(SETTLE_MILLIS, () -> {
            List<String> lines = new ArrayList<>();
            try {
                IWorkbenchPage page = PlatformUI.getWorkbench().getActiveWorkbenchWindow().getActivePage();
                lines.addAll(describe(page));
                save(display, png);
                lines.addAll(SmokeContrast.of(PlatformUI.getWorkbench().getActiveWorkbenchWindow().getShell(), png));
                write(png, lines);
                if (!Boolean.parseBoolean(System.getProperty(RUN, "true"))) {
                    PlatformUI.getWorkbench().close();
                    return;
                }
                SmokeRun.start(page, example, run -> {
                    lines.addAll(run);
                    finish(display, png, lines);
                });
            } catch (IOException | RuntimeException e) {
                ILog.of(SmokeReport.class).error("smoke report failed", e);
                PlatformUI.getWorkbench().close();
            }
        });
    }

    private static void finish(Display display, Path png, List<String> lines) {
        try {
            String name = png.getFileName().toString().replaceFirst("\\.png$", "");
            save(display, png.resolveSibling(name + "-run.png"));
            write(png, lines);
        } catch (IOException | RuntimeException e) {
            ILog.of(SmokeReport.class).error("smoke report failed", e);
        } finally {
            PlatformUI.getWorkbench().close();
        }
    }

    private static List<String> describe(IWorkbenchPage page) {
        List<String> lines = new ArrayList<>();
        lines.add("perspective=" + (page.getPerspective() == null ? "" : page.getPerspective().getId()));
        for (IViewReference v : page.getViewReferences()) lines.add("view=" + v.getId());
        for (var e : page.getEditorReferences()) lines.add("editor=" + e.getName());
        // the CUDA backend's JCuda with its linux-x86_64 natives fragment, as the product installs them
        lines.add("cuda-binding=" + (CudaBackend.driverBindingPackaged() ? "packaged"
                : "missing"));
        return lines;
    }

    private static void write(Path png, List<String> lines) throws IOException {
        Files.write(Path.of(png + ".txt"), lines);
    }

    private static void save(Display display, Path png) throws IOException {
        Shell shell = PlatformUI.getWorkbench().getActiveWorkbenchWindow().getShell();
        // without a window manager the shell's bounds reach below what is painted: stop at the client area
        Rectangle bounds = shell.getBounds();
        Rectangle client = display.map(shell, null, shell.getClientArea());
        Rectangle b = new Rectangle(bounds.x, bounds.y, bounds.width, client.y + client.height - bounds.y)
                .intersection(display.getBounds());
        Image image = new Image(display, b.width, b.height);
        GC gc = new GC(display);
        gc.copyArea(image, b.x, b.y);
        gc.dispose();
        ImageLoader loader = new ImageLoader();
        loader.data = new ImageData[] {image.getImageData()};
        Files.createDirectories(png.toAbsolutePath().getParent());
        loader.save(png.toString(), SWT.IMAGE_PNG);
        image.dispose();
    }
}
