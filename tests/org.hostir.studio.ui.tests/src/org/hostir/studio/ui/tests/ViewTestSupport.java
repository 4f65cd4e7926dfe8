package org.hostir.studio.ui.tests;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IProject;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IWorkbench;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.ui.timeline.TimelineCanvas;

/** What the view tests share: the page, a workspace project with seed files, waiting for jobs, screenshots. */
public final class ViewTestSupport {
    private ViewTestSupport() {}

    public static IWorkbenchWindow window() {
        IWorkbench workbench = PlatformUI.getWorkbench();
        IWorkbenchWindow window = workbench.getActiveWorkbenchWindow();
        return window != null ? window : workbench.getWorkbenchWindows()[0];
    }

    public static IWorkbenchPage page() { return window().getActivePage(); }

    /** The repository's file {@code relative} (the build passes -Dhirstudio.repo). */
    public static Path repoFile(String relative) {
        return Path.of(System.getProperty("hirstudio.repo", "."), relative);
    }

    /** Copies a repository file into project {@code project} (created if needed) and returns it. */
    public static IFile copyToWorkspace(String project, String repoRelative, String name) throws Exception {
        return workspaceFile(project, name, Files.readString(repoFile(repoRelative)));
    }

    public static IFile workspaceFile(String project, String name, String content) throws Exception {
        IProject p = ResourcesPlugin.getWorkspace().getRoot().getProject(project);
        if (!p.exists()) p.create(null);
        if (!p.isOpen()) p.open(null);
        IFile f = p.getFile(name);
        var in = new ByteArrayInputStream(content.getBytes(StandardCharsets.UTF_8));
        if (f.exists()) f.setContents(in, true, false, null); else f.create(in, true, null);
        return f;
    }

    /** Waits for the jobs of a family, then runs the event loop so their asyncExecs land. */
    public static void join(Object family) throws Exception {
        Display display = Display.getCurrent();
        long end = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < end && Job.getJobManager().find(family).length > 0) {
            spin(display, 50);
        }
        spin(display, 300);
    }

    /** Runs the event loop for a while so that the window is laid out and painted. */
    public static void spin(Display display, long millis) throws InterruptedException {
        long end = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < end) {
            while (display.readAndDispatch()) {
                // drain
            }
            Thread.sleep(10);
        }
    }

    /** The id of the command that {@code keys} (e.g. "M1+.") runs in the active contexts now, or null. */
    public static String boundCommand(String keys) throws org.eclipse.jface.bindings.keys.ParseException {
        var bindings = PlatformUI.getWorkbench().getService(org.eclipse.ui.keys.IBindingService.class);
        var binding = bindings.getPerfectMatch(org.eclipse.jface.bindings.keys.KeySequence.getInstance(keys));
        return binding == null || binding.getParameterizedCommand() == null ? null
                : binding.getParameterizedCommand().getId();
    }

    /** Every control of type {@code type} under {@code root} (root included), depth first. */
    public static <T extends Control> List<T> descendants(Control root, Class<T> type) {
        List<T> out = new ArrayList<>();
        if (type.isInstance(root)) out.add(type.cast(root));
        if (root instanceof Composite c) {
            for (Control child : c.getChildren()) out.addAll(descendants(child, type));
        }
        return out;
    }

    /** Saves a PNG of the window under -Dhirstudio.screenshots (the smoke test's way); null when unset. */
    public static File screenshot(Shell shell, String name) {
        return WorkbenchSmokeTest.screenshot(shell, name);
    }

    /** What the timeline canvas paints now, read back as pixels (for assertions on what a person sees). */
    public static ImageData painted(TimelineCanvas canvas) {
        Canvas c = canvas.control();
        Rectangle area = c.getClientArea();
        Image image = new Image(c.getDisplay(), area.width, area.height);
        GC gc = new GC(image);
        try {
            canvas.paint(gc, area);
        } finally {
            gc.dispose();
        }
        ImageData data = image.getImageData();
        image.dispose();
        return data;
    }
}
