package org.hostir.studio.ui.tests.editor;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IMarker;
import org.eclipse.core.resources.IProject;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.ide.IDE;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ShownGraph;

/** Workspace files, editors, event-loop spinning and screenshots for the editor tests. */
final class EditorFixture {
    private EditorFixture() {}

    static Path repo() {
        String r = System.getProperty("hirstudio.repo");
        return r != null ? Path.of(r).toAbsolutePath().normalize() : Path.of("").toAbsolutePath();
    }

    static List<Path> examples() throws IOException {
        try (Stream<Path> s = Files.walk(repo().resolve("examples"))) {
            return s.filter(p -> p.toString().endsWith(".fusion")).sorted().toList();
        }
    }

    static IProject project() throws CoreException {
        IProject p = ResourcesPlugin.getWorkspace().getRoot().getProject("editor-tests");
        if (!p.exists()) p.create(null);
        if (!p.isOpen()) p.open(null);
        return p;
    }

    static IFile file(String name, String text) throws CoreException {
        IFile f = project().getFile(name);
        var in = new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
        if (f.exists()) f.setContents(in, true, false, null);
        else f.create(in, true, null);
        return f;
    }

    static String read(IFile f) throws IOException {
        return Files.readString(f.getLocation().toFile().toPath(), StandardCharsets.UTF_8);
    }

    static IWorkbenchPage page() {
        var w = PlatformUI.getWorkbench().getActiveWorkbenchWindow();
        if (w == null) w = PlatformUI.getWorkbench().getWorkbenchWindows()[0];
        return w.getActivePage();
    }

    static FusionEditor open(IFile f) throws Exception {
        page().getWorkbenchWindow().getShell().setSize(1280, 960);
        FusionEditor e = (FusionEditor) IDE.openEditor(page(), f, FusionEditor.ID);
        spin(100);
        ShownGraph.of(e);   // drawn, and the opening's lowering back (its refusals marked)
        return e;
    }

    static void closeAll() {
        page().closeAllEditors(false);
        spin(50);
    }

    static IMarker[] markers(IFile f) throws CoreException {
        return f.findMarkers(FusionEditor.MARKER, true, IResource.DEPTH_ZERO);
    }

    static void spin(long millis) {
        Display display = Display.getCurrent();
        long end = System.currentTimeMillis() + millis;
        do {
            while (display.readAndDispatch()) {
                // drain
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        } while (System.currentTimeMillis() < end);
    }

    /** A PNG of the workbench window under -Dhirstudio.screenshots (null when unset). */
    static File screenshot(String name) {
        // the pointer away from the graph, or a node's tooltip would cover part of the picture
        Display.getCurrent().setCursorLocation(0, 0);
        var shell = page().getWorkbenchWindow().getShell();
        shell.redraw(0, 0, shell.getSize().x, shell.getSize().y, true);
        shell.update();
        spin(300);
        return org.hostir.studio.ui.tests.WorkbenchSmokeTest.screenshot(page().getWorkbenchWindow().getShell(), name);
    }
}
