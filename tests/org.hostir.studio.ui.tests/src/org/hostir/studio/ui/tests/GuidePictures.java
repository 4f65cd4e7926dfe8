package org.hostir.studio.ui.tests;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.tests.input.ShownPopups;

/**
 * The user guide's pictures at the two screen sizes it is read at (issue 35, Deliver 8): with
 * {@code -Dhirstudio.guideSizes=true}, every screenshot of the workbench window is also taken with the window at
 * 1600 x 1000 and at 1280 x 800, into the folders {@code 1600x1000/} and {@code 1280x800/} beside it, and the window
 * put back to the size the test gave it (the test goes on as before). A dialog's screenshot is the dialog, the same
 * at any screen size: it goes to both folders as it is. {@code ./hirstudio test} copies the guide's pictures from these folders.
 */
public final class GuidePictures {
    /** The sizes, as the folders are named. */
    public static final List<int[]> SIZES = List.of(new int[] { 1600, 1000 }, new int[] { 1280, 800 });

    private GuidePictures() {}

    public static boolean wanted() { return Boolean.getBoolean("hirstudio.guideSizes"); }

    /** Takes {@code name} at each guide size with {@code save} (the screenshot of a shell into a file). */
    static void atGuideSizes(Shell shell, File dir, String name, BiConsumer<Shell, File> save) {
        if (!wanted()) return;
        if (!isWorkbenchWindow(shell)) {
            for (int[] size : SIZES) save.accept(shell, new File(new File(dir, size[0] + "x" + size[1]), name));
            return;
        }
        Rectangle was = shell.getBounds();
        Point pointer = shell.getDisplay().getCursorLocation();
        // the keyboard where it was: the resizes hid and showed controls, and on GTK the focus of a hidden one goes
        // to none, so that the test's next key (Ctrl+Z after the loop-split picture) reached nothing
        org.eclipse.swt.widgets.Control focus = shell.getDisplay().getFocusControl();
        // a GTK tooltip the test did not ask for: the resized window put a control with help under the pointer (the
        // Allgather option's help covered the Lowering view in studio-1280x800.png, issue 35)
        boolean tipWanted = !nativeTooltips(shell).isEmpty();
        boolean pointerMoved = false;
        try {
            for (int[] size : SIZES) {
                shell.setBounds(0, 0, size[0], size[1]);
                settle(shell.getDisplay(), 700);
                if (!tipWanted && !nativeTooltips(shell).isEmpty()) {
                    pointerMoved = true;
                    if (!Person.onCurrentDisplay().restAway(shell)) {
                        System.out.println("guide picture " + name + " at " + size[0] + "x" + size[1]
                                + ": a tooltip still shows " + nativeTooltips(shell));
                    }
                }
                Map<Shell, Point> moved = keepPopUpsOnScreen(shell, size[0], size[1]);
                settle(shell.getDisplay(), 100);
                save.accept(shell, new File(new File(dir, size[0] + "x" + size[1]), name));
                moved.forEach((popUp, at) -> { if (!popUp.isDisposed()) popUp.setLocation(at); });
            }
        } finally {
            shell.setBounds(was);
            if (pointerMoved) Person.onCurrentDisplay().moveToScreen(pointer);
            settle(shell.getDisplay(), 400);
            if (focus != null && !focus.isDisposed() && focus.isVisible() && shell.getDisplay().getFocusControl() != focus) {
                System.out.println("guide picture " + name + ": the resizes moved the keyboard from " + focus + " to "
                        + shell.getDisplay().getFocusControl() + "; given back");
                focus.setFocus();
                settle(shell.getDisplay(), 100);
            }
        }
    }

    /** GTK's own tooltips on screen (a control's help), not the window's tool shells (Draw2d's graph tooltips). */
    private static List<ShownPopups.Popup> nativeTooltips(Shell shell) {
        List<Rectangle> shells = java.util.Arrays.stream(shell.getShells()).filter(Shell::isVisible)
                .map(Shell::getBounds).toList();
        return ShownPopups.shown("TOOLTIP").stream().filter(p -> !shells.contains(p.bounds())).toList();
    }

    /**
     * The window's pop-ups (a graph tooltip: Draw2d's is a tool shell of the window's) moved onto a screen of the
     * guide's size as Draw2d places one on a screen of that size: past the right edge it moves left by what sticks
     * out, past the bottom above its top (ToolTipHelper.computeWindowLocation keeps a tooltip inside the display's
     * client area; the test's display is larger than the guide's screen). Returns where each moved one was.
     */
    private static Map<Shell, Point> keepPopUpsOnScreen(Shell shell, int width, int height) {
        Map<Shell, Point> moved = new LinkedHashMap<>();
        for (Shell popUp : shell.getShells()) {
            if (!popUp.isVisible() || (popUp.getStyle() & SWT.TOOL) == 0) continue;
            Rectangle b = popUp.getBounds();
            int x = Math.max(0, Math.min(b.x, width - b.width)), y = b.y + b.height > height ? Math.max(0, height - b.height) : b.y;
            if (x == b.x && y == b.y) continue;
            moved.put(popUp, new Point(b.x, b.y));
            popUp.setLocation(x, y);
        }
        return moved;
    }

    private static boolean isWorkbenchWindow(Shell shell) {
        for (var w : PlatformUI.getWorkbench().getWorkbenchWindows()) {
            if (w.getShell() == shell) return true;
        }
        return false;
    }

    /** Lets the window lay itself out and paint at its new size (the tests run on the UI thread). */
    private static void settle(Display display, long millis) {
        try {
            ViewTestSupport.spin(display, millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
