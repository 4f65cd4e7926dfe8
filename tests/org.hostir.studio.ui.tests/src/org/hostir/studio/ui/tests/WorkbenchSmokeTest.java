package org.hostir.studio.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;

import org.eclipse.core.runtime.Platform;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbench;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.views.IViewDescriptor;
import org.hostir.studio.ui.WelcomeView;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Bundle;

/**
 * Smoke test of the plugin in a real IDE workbench: the bundle resolves, the "Host IR" view contributed by
 * plugin.xml opens and shows its content, and a PNG of the window is saved (to {@code -Dhirstudio.screenshots},
 * i.e. {@code tests/org.hostir.studio.ui.tests/target/screenshots/workbench-smoke.png}).
 */
public class WorkbenchSmokeTest {
    private static final String BUNDLE = "org.hostir.studio";

    @Test
    public void workbenchShowsHostIrView() throws Exception {
        assertTrue(PlatformUI.isWorkbenchRunning(), "workbench running");

        Bundle bundle = Platform.getBundle(BUNDLE);
        assertNotNull(bundle, "bundle " + BUNDLE + " installed");
        int state = bundle.getState();
        assertTrue(state == Bundle.ACTIVE || state == Bundle.RESOLVED || state == Bundle.STARTING,
                "bundle " + BUNDLE + " resolved, state " + state);

        IWorkbench workbench = PlatformUI.getWorkbench();
        IViewDescriptor descriptor = workbench.getViewRegistry().find(WelcomeView.ID);
        assertNotNull(descriptor, "view " + WelcomeView.ID + " contributed by plugin.xml");
        assertEquals("Host IR", descriptor.getLabel());

        IWorkbenchWindow window = workbench.getActiveWorkbenchWindow();
        if (window == null && workbench.getWorkbenchWindowCount() > 0) {
            window = workbench.getWorkbenchWindows()[0];
        }
        assertNotNull(window, "a workbench window");
        IWorkbenchPage page = window.getActivePage();
        assertNotNull(page, "an active page");
        IViewPart part = page.showView(WelcomeView.ID);
        WelcomeView view = assertInstanceOf(WelcomeView.class, part, "the Host IR view");
        assertEquals(WelcomeView.TITLE, view.titleText());
        assertEquals("version " + bundle.getVersion(), view.versionText());
        assertEquals(Bundle.ACTIVE, bundle.getState(), "bundle active once its view class is loaded");

        Shell shell = window.getShell();
        shell.setSize(1000, 700);
        spin(Display.getCurrent(), 1500);
        File png = screenshot(shell, "workbench-smoke.png");
        if (png != null) {
            assertTrue(png.length() > 0, "screenshot written: " + png);
        }
    }

    /** Runs the event loop for a while so that the window is laid out and painted. */
    public static void spin(Display display, long millis) throws InterruptedException {
        long end = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < end) {
            while (display.readAndDispatch()) {
                // drain
            }
            Thread.sleep(20);
        }
    }

    /**
     * Saves a PNG of the window (menu bar included) under -Dhirstudio.screenshots; null when that is not set.
     * Without a window manager the shell's bounds reach below what is painted, so the picture stops at the
     * bottom of the client area.
     */
    public static File screenshot(Shell shell, String name) {
        String dir = System.getProperty("hirstudio.screenshots");
        if (dir == null || dir.isBlank()) {
            return null;
        }
        File out = new File(dir, name);
        save(shell, out);
        GuidePictures.atGuideSizes(shell, new File(dir), name, WorkbenchSmokeTest::save);
        return out;
    }

    /** A PNG of {@code shell} as the screen shows it (what is over it included), its title bar to its last row. */
    private static void save(Shell shell, File out) {
        out.getParentFile().mkdirs();
        Display display = shell.getDisplay();
        Rectangle bounds = shell.getBounds();
        Rectangle client = display.map(shell, null, shell.getClientArea());
        Rectangle b = new Rectangle(bounds.x, bounds.y, bounds.width, client.y + client.height - bounds.y)
                .intersection(display.getBounds());
        Image image = new Image(display, b.width, b.height);
        GC gc = new GC(display);
        try {
            gc.copyArea(image, b.x, b.y);
        } finally {
            gc.dispose();
        }
        try {
            ImageLoader loader = new ImageLoader();
            loader.data = new ImageData[] { image.getImageData() };
            loader.save(out.getPath(), SWT.IMAGE_PNG);
        } finally {
            image.dispose();
        }
        System.out.println("screenshot: " + out);
    }
}
