package org.hostir.studio.ui.tests.input;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CTabItem;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Scrollable;
import org.eclipse.swt.widgets.Shell;

/**
 * Real input for the UI tests, as a person gives it, so that it goes through the window system, focus, key
 * bindings and the widgets' own listeners: keys, the pointer and its buttons go through the X server's XTest
 * extension (the {@code xdotool} command). SWT 3.135's {@code Display.post} on GTK was tried first: it makes a
 * button event for the window under the pointer but with coordinates from the top-level window, so a click on a
 * canvas landed hundreds of pixels off (it worked only on buttons, which ignore where they are pressed), it
 * cannot post wheel notches, and its keys went astray after a drag and drop. The test runs on the UI thread, so every
 * step spins the event loop until the events are handled. Coordinates are a control's own (0,0 is its top left).
 */
public final class Person {
    /**
     * How long a posted key or click may take to reach the widgets. Each step waits for its own events to arrive
     * (a KeyUp, a MouseUp) rather than for a fixed time: under load a key took longer than the 120 ms the steps
     * once allowed, and a test asserted before it arrived (EditorJourneyTest, LoopStepsJourneyTest flaked so).
     */
    static final long ARRIVAL_MS = 5000;
    /** A search field's key: its wait ends this long after the text changed (DumpJourneyTest: 87 s to 30 s). */
    static final long SEARCH_FIELD_MS = 250;
    private final Display display;

    public Person(Display display) { this.display = display; }

    public static Person onCurrentDisplay() { return new Person(Display.getCurrent()); }

    /** Brings the shell to the front and puts the pointer over it (X gives keys to the window under it). */
    public Person lookAt(Shell shell) {
        shell.forceActive();
        Point p = shell.toDisplay(shell.getClientArea().width / 2, shell.getClientArea().height / 2);
        move(p.x, p.y);
        settle(100);
        return this;
    }

    // ---- mouse ----

    public Person moveTo(Control c, int x, int y) {
        Point p = c.toDisplay(x, y);
        move(p.x, p.y);
        settle(30);
        Point now = display.getCursorLocation();
        if (Math.abs(now.x - p.x) > 1 || Math.abs(now.y - p.y) > 1) {
            throw new IllegalStateException("the pointer went to " + now + ", not " + p + " (" + x + "," + y + " of " + c
                    + " at " + c.toDisplay(0, 0) + ", shell at " + c.getShell().getBounds() + ")");
        }
        return this;
    }

    public Person click(Control c, int x, int y) { return click(c, x, y, 1, 0); }

    /**
     * A click with {@code button} (1 left, 3 right) while holding {@code modifiers} (SWT.CTRL, SWT.SHIFT), at a point
     * of {@code c}'s client area: one elsewhere is refused before the pointer moves ({@link #requireInClientArea}).
     */
    public Person click(Control c, int x, int y, int button, int modifiers) {
        requireInClientArea(c, x, y);
        return clickAt(c, x, y, button, modifiers);
    }

    /**
     * Refuses a point outside {@code c}'s client area (a scrollable's, less its scroll bars; a tree's and a table's
     * include the header row; another control's is its size). The pointer goes there all the same and the press lands
     * on whatever lies there: CI hung once on a Ctrl+click meant for a tensor below the canvas, which pressed on a
     * view's tab row and started a drag tracker that waited for a release the test never posted.
     */
    private static void requireInClientArea(Control c, int x, int y) {
        Rectangle area = c instanceof Scrollable s ? s.getClientArea() : new Rectangle(0, 0, c.getSize().x, c.getSize().y);
        if (!area.contains(x, y)) {
            throw new IllegalArgumentException("a click at " + x + "," + y + " lies outside " + c + " (size "
                    + c.getSize().x + " x " + c.getSize().y + ", client area " + area + ")");
        }
    }

    /**
     * A click with {@code button} on a folder's tab: the tab row is the folder's own but lies outside its client area
     * (where the pages go), so the point is checked against the tab's bounds instead.
     */
    public Person clickTab(CTabItem tab, int button) {
        Rectangle b = tab.getBounds();
        if (!tab.isShowing() || b.isEmpty()) {
            throw new IllegalArgumentException("the tab " + tab.getText() + " of " + tab.getParent() + " is not shown ("
                    + b + ")");
        }
        return clickAt(tab.getParent(), b.x + b.width / 2, b.y + b.height / 2, button, 0);
    }

    /** Moves to the point, presses and releases {@code button} and waits until the click has arrived there. */
    private Person clickAt(Control c, int x, int y, int button, int modifiers) {
        moveTo(c, x, y);
        Point meant = c.toDisplay(x, y); // now: a click on a dialog's OK disposes the button
        apartFromTheLastClick(meant);
        pointerModifiers(modifiers, true);
        try (Presses presses = new Presses()) {
            mouse(SWT.MouseDown, button);
            mouse(SWT.MouseUp, button);
            pointerModifiers(modifiers, false);
            // the press and a left button's release handled (the right one's opens a menu, which takes its release)
            until(ARRIVAL_MS, () -> presses.down != null && (presses.ups > 0 || button != 1));
            settle(80);
            presses.assertPressedAt(meant, "a click at " + x + "," + y + " of " + c);
        }
        return this;
    }

    /** The mouse and focus events of the last gesture, as "type@widget:x,y" (what a failing test can quote). */
    private String lastGesture = "";

    /** What the display saw during the last click or drag: its mouse, crossing and focus events in order. */
    public String lastGesture() { return lastGesture; }

    /** The event types a gesture's trace keeps. */
    private static final int[] TRACED = {SWT.MouseDown, SWT.MouseUp, SWT.MouseMove, SWT.MouseEnter, SWT.MouseExit,
            SWT.FocusIn, SWT.FocusOut};

    /** The presses and releases the display sees while a gesture is posted (display filters, removed on close). */
    private final class Presses implements AutoCloseable {
        Event down;
        Point pressed;
        int ups;
        private final StringBuilder trace = new StringBuilder();
        private final org.eclipse.swt.widgets.Listener onDown = this::down;
        private final org.eclipse.swt.widgets.Listener onUp = e -> ups++;
        private final org.eclipse.swt.widgets.Listener onAny = e -> trace.append(trace.isEmpty() ? "" : ", ")
                .append(e.type).append('@').append(e.widget.getClass().getSimpleName()).append(':').append(e.x)
                .append(',').append(e.y).append("/0x").append(Integer.toHexString(e.stateMask));

        Presses() {
            display.addFilter(SWT.MouseDown, onDown);
            display.addFilter(SWT.MouseUp, onUp);
            for (int type : TRACED) display.addFilter(type, onAny);
        }

        private void down(Event e) {
            if (down != null) return;
            down = e;
            pressed = ((Control) e.widget).toDisplay(e.x, e.y);
        }

        /** A gesture that lands elsewhere makes a test fail far from its cause: say where it went. */
        void assertPressedAt(Point meant, String what) {
            if (down == null) throw new IllegalStateException("no MouseDown arrived for " + what);
            // where the press was, on the screen: a native entry reports its presses on its parent, so compare places
            if (Math.abs(pressed.x - meant.x) > 2 || Math.abs(pressed.y - meant.y) > 2) {
                throw new IllegalStateException(what + " landed on " + down.widget + " at " + down.x + "," + down.y);
            }
        }

        @Override
        public void close() {
            display.removeFilter(SWT.MouseDown, onDown);
            display.removeFilter(SWT.MouseUp, onUp);
            for (int type : TRACED) display.removeFilter(type, onAny);
            lastGesture = "SWT event types " + trace;
        }
    }

    /**
     * A left click posted as one gesture (press and release in one xdotool call, as a hand clicks), not waiting for
     * SWT's report of it: for what GTK draws outside SWT's event windows (a table's column header, for which SWT
     * reports no MouseDown; the caller asserts on what the click did), and for native widgets that act on the press
     * and need the release at once: a GTK combo opens its list on the press and, when the release comes late (a
     * busy machine, {@link #click} posting the two apart), takes the release as a choice and closes the list again
     * (CI: "the click opened the list of Backend"); a palette button begins a drag.
     */
    public Person clickUnreported(Control c, int x, int y) {
        moveTo(c, x, y);
        apartFromTheLastClick(c.toDisplay(x, y));
        xdotool("click", "1");
        settle(150);
        return this;
    }

    /** Where and when the last single click was (one pointer, whichever Person posted it). */
    private static Point lastClick;
    private static long lastClickAt;

    /**
     * Two single clicks at one point are two clicks, not a double-click: a second one within the display's
     * double-click time waits it out, as a person's separate clicks are (two clicks on a table's header 180 ms
     * apart sorted it once: GTK took them for a double-click).
     */
    private void apartFromTheLastClick(Point at) {
        long since = System.currentTimeMillis() - lastClickAt;
        int doubleClick = display.getDoubleClickTime();
        if (at.equals(lastClick) && since <= doubleClick) settle(doubleClick - since + 50);
        lastClick = at;
        lastClickAt = System.currentTimeMillis();
    }

    /** Two clicks of the left button in quick succession at one point (what opens a problem, an item). */
    public Person doubleClick(Control c, int x, int y) {
        moveTo(c, x, y);
        int[] ups = new int[1];
        org.eclipse.swt.widgets.Listener up = e -> ups[0]++;
        display.addFilter(SWT.MouseUp, up);
        try {
            xdotool("click", "--repeat", "2", "--delay", "60", "1");
            until(ARRIVAL_MS, () -> ups[0] >= 2);
        } finally {
            display.removeFilter(SWT.MouseUp, up);
        }
        settle(300);
        return this;
    }

    /**
     * Moves the pointer where nothing of {@code shell} shows a tooltip (past the window where the screen has room,
     * else onto the right end of its menu bar) and waits until no GTK tooltip is over the window; whether none is.
     * A picture taken after this shows the window, not the help of whatever control the pointer last rested on.
     */
    public boolean restAway(Shell shell) {
        var screen = display.getBounds();
        var window = shell.getBounds();
        Point corner = new Point(screen.x + screen.width - 2, screen.y + screen.height - 2);
        Point p = window.contains(corner) ? shell.toDisplay(shell.getClientArea().width - 8, -8) : corner;
        move(p.x, p.y);
        settle(50);
        return until(3000, () -> ShownPopups.shown("TOOLTIP").stream().noneMatch(t -> t.bounds().intersects(window)));
    }

    /** Moves the pointer to {@code at} on the screen (back where a step found it). */
    public Person moveToScreen(Point at) {
        move(at.x, at.y);
        settle(30);
        return this;
    }

    public Person clickCenter(Control c) {
        return click(c, c.getSize().x / 2, c.getSize().y / 2);
    }

    /** Presses at one point, moves in steps, releases at another (a drag). */
    public Person drag(Control c, int x1, int y1, int x2, int y2) { return drag(c, x1, y1, x2, y2, 0); }

    /** A drag with {@code modifiers} (SWT.SHIFT, SWT.CTRL) held. */
    public Person drag(Control c, int x1, int y1, int x2, int y2, int modifiers) {
        return dragThrough(c, modifiers, new int[] {x1, y1}, new int[] {x2, y2});
    }

    /**
     * Presses at the first point, moves in steps through the others in turn (each reached in 8 steps, which may lie
     * outside {@code c}), releases at the last.
     */
    public Person dragThrough(Control c, int modifiers, int[]... points) {
        return dragThrough(c, modifiers, () -> {}, points);
    }

    /** As {@link #dragThrough(Control, int, int[]...)}, running {@code whilePressed} once the press is in. */
    public Person dragThrough(Control c, int modifiers, Runnable whilePressed, int[]... points) {
        int x1 = points[0][0], y1 = points[0][1];
        moveTo(c, x1, y1);
        Point meant = c.toDisplay(x1, y1);
        pointerModifiers(modifiers, true);
        try (Presses presses = new Presses()) {
            mouse(SWT.MouseDown, 1);
            // the press handled before the pointer moves on, and the release before the caller looks
            until(ARRIVAL_MS, () -> presses.down != null);
            settle(30);
            presses.assertPressedAt(meant, "a drag from " + x1 + "," + y1 + " of " + c);
            whilePressed.run();
            for (int k = 1; k < points.length; k++) {
                int[] from = points[k - 1], to = points[k];
                for (int i = 1; i <= 8; i++) {
                    moveTo(c, from[0] + (to[0] - from[0]) * i / 8, from[1] + (to[1] - from[1]) * i / 8);
                }
            }
            mouse(SWT.MouseUp, 1);
            pointerModifiers(modifiers, false);
            int[] last = points[points.length - 1];
            if (!until(ARRIVAL_MS, () -> presses.ups > 0)) {
                throw new IllegalStateException("no MouseUp arrived for a drag to " + last[0] + "," + last[1] + " of " + c);
            }
        }
        settle(80);
        return this;
    }

    /**
     * A drag begun as a quick hand begins it: the pointer arrives at the first point and presses in one gesture
     * (one xdotool call, no pause for the move to be taken in first), then moves in steps and releases.
     */
    public Person quickDrag(Control c, int x1, int y1, int x2, int y2) {
        Point a = c.toDisplay(x1, y1);
        xdotool("mousemove", Integer.toString(a.x), Integer.toString(a.y), "mousedown", "1");
        for (int i = 1; i <= 8; i++) moveTo(c, x1 + (x2 - x1) * i / 8, y1 + (y2 - y1) * i / 8);
        mouse(SWT.MouseUp, 1);
        settle(80);
        return this;
    }

    /** Presses on one control, moves in steps onto another, releases there (drag and drop between controls). */
    public Person dragTo(Control from, int x1, int y1, Control to, int x2, int y2) {
        moveTo(from, x1, y1);
        mouse(SWT.MouseDown, 1);
        settle(50);
        Point a = from.toDisplay(x1, y1), b = to.toDisplay(x2, y2);
        for (int i = 1; i <= 12; i++) {
            move(a.x + (b.x - a.x) * i / 12, a.y + (b.y - a.y) * i / 12);
            settle(40);
        }
        settle(150);
        mouse(SWT.MouseUp, 1);
        settle(300);
        return this;
    }

        /** The wheel, {@code notches} up (positive) or down, with {@code modifiers} held. */
    public Person wheel(Control c, int x, int y, int notches, int modifiers) {
        moveTo(c, x, y);
        pointerModifiers(modifiers, true);
        for (int i = 0; i < Math.abs(notches); i++) {
            // X reports wheel notches as clicks of buttons 4 (up) and 5 (down)
            xdotool("click", notches > 0 ? "4" : "5");
        }
        pointerModifiers(modifiers, false);
        settle(80);
        return this;
    }

    /** A click at a point given as {x, y} (what the views answer for a node, a bar, a row). */
    public Person click(Control c, int[] at, int modifiers) { return click(c, at[0], at[1], 1, modifiers); }

    // ---- keys ----

    /**
     * Clears a text field by clicking into it and selecting all, then types {@code text}: clicked at its left, away
     * from a spinner's arrows and a combo's button, which are at its right.
     */
    public Person retype(Control field, String text) {
        click(field, Math.min(12, field.getSize().x / 2), field.getSize().y / 2);
        press(SWT.CTRL, 'a');
        return type(text, 15);
    }

    /** Types {@code text} at {@code msPerKey} milliseconds per key, as a typist does. */
    public Person type(String text, int msPerKey) {
        for (char ch : text.toCharArray()) {
            key(keysym(ch, 0));
            settle(msPerKey);
        }
        return this;
    }

    /**
     * A key ({@code character} such as 'z' or '.', or 0 with {@code keyCode} such as SWT.DEL) with modifiers,
     * pressed at the X server (XTest), so that it goes to the focused window as a typed key does. Display.post's
     * keys went astray once a drag and drop had run in the same workbench.
     */
    public Person press(int modifiers, char character, int keyCode) {
        StringBuilder k = new StringBuilder();
        if ((modifiers & SWT.CTRL) != 0) k.append("ctrl+");
        if ((modifiers & SWT.SHIFT) != 0) k.append("shift+");
        if ((modifiers & SWT.ALT) != 0) k.append("alt+");
        k.append(keysym(character, keyCode));
        key(k.toString());
        settle(120);
        return this;
    }

    /**
     * Presses and releases {@code keys} (xdotool's spelling, "ctrl+z") and waits until a widget got the release of
     * the key (xdotool releases it before its modifiers): what the key does on its press has been done by then. Where
     * a native pop-up holds the keyboard, no widget gets the release, so the key counts as taken when the pop-up
     * shows it did: a menu shows, highlights, chooses or hides (Alt+R, Down, Return, Escape), or a combo's list that
     * was down goes up (Escape, Return). Any other key that no widget sees lets its time pass.
     */
    private void key(String keys) {
        int[] ups = new int[1];
        long[] changed = new long[1];
        boolean[] menu = new boolean[1];
        org.eclipse.swt.widgets.Listener up = e -> ups[0]++;
        // a search field (Text with SWT.SEARCH, a GtkSearchEntry) reports no KeyUp, only its text's Modify
        org.eclipse.swt.widgets.Listener modified = e -> {
            if (e.widget instanceof org.eclipse.swt.widgets.Text t && (t.getStyle() & SWT.SEARCH) != 0) {
                changed[0] = System.currentTimeMillis();
            }
        };
        // only a menu's own events: a control's Show or Selection may come from what an earlier action queued
        org.eclipse.swt.widgets.Listener menus = e -> {
            if (e.widget instanceof org.eclipse.swt.widgets.Menu || e.widget instanceof org.eclipse.swt.widgets.MenuItem) {
                menu[0] = true;
            }
        };
        org.eclipse.swt.widgets.Combo dropped = droppedCombo();
        int[] menuEvents = { SWT.Show, SWT.Hide, SWT.Arm, SWT.Selection };
        display.addFilter(SWT.KeyUp, up);
        display.addFilter(SWT.Modify, modified);
        for (int type : menuEvents) display.addFilter(type, menus);
        try {
            xdotool("key", keys);
            // in the log, so that CI's time spent on keys no widget reported can be found
            if (!until(ARRIVAL_MS, () -> ups[0] > 0 || menu[0]
                    || dropped != null && (dropped.isDisposed() || !dropped.getListVisible())
                    || changed[0] != 0 && System.currentTimeMillis() - changed[0] >= SEARCH_FIELD_MS)) {
                System.out.println("Person: no widget took the key " + keys + " in " + ARRIVAL_MS + " ms");
            }
        } finally {
            display.removeFilter(SWT.KeyUp, up);
            display.removeFilter(SWT.Modify, modified);
            for (int type : menuEvents) display.removeFilter(type, menus);
        }
    }

    /** A combo whose list is down now (GTK's pop-up holds the keyboard then), or null. */
    private org.eclipse.swt.widgets.Combo droppedCombo() {
        Control focus = display.getFocusControl();
        if (focus instanceof org.eclipse.swt.widgets.Combo c && c.getListVisible()) return c;
        // with the list's pop-up active no SWT shell is, and the focus control may read null: look for it then only
        if (focus != null) return null;
        for (Shell shell : display.getShells()) {
            org.eclipse.swt.widgets.Combo c = droppedCombo(shell);
            if (c != null) return c;
        }
        return null;
    }

    private static org.eclipse.swt.widgets.Combo droppedCombo(Control c) {
        if (c.isDisposed() || !c.isVisible()) return null;
        if (c instanceof org.eclipse.swt.widgets.Combo combo) return combo.getListVisible() ? combo : null;
        if (c instanceof org.eclipse.swt.widgets.Composite parent) {
            for (Control child : parent.getChildren()) {
                org.eclipse.swt.widgets.Combo found = droppedCombo(child);
                if (found != null) return found;
            }
        }
        return null;
    }

    /** The X keysym name of a character or an SWT key code. */
    private static String keysym(char ch, int keyCode) {
        if (ch == 0) {
            return switch (keyCode) {
                case SWT.DEL -> "Delete";
                case SWT.INSERT -> "Insert";
                case SWT.ESC -> "Escape";
                case SWT.BS -> "BackSpace";
                case SWT.CR -> "Return";
                case SWT.TAB -> "Tab";
                case SWT.F1 -> "F1";
                case SWT.F2 -> "F2";
                case SWT.F5 -> "F5";
                case SWT.F6 -> "F6";
                case SWT.F8 -> "F8";
                case SWT.ARROW_DOWN -> "Down";
                case SWT.ARROW_UP -> "Up";
                case SWT.ARROW_LEFT -> "Left";
                case SWT.ARROW_RIGHT -> "Right";
                case SWT.HOME -> "Home";
                case SWT.END -> "End";
                case SWT.PAGE_UP -> "Prior";
                case SWT.PAGE_DOWN -> "Next";
                default -> throw new IllegalArgumentException("no keysym for key code " + keyCode);
            };
        }
        return switch (ch) {
            case '.' -> "period";
            case ',' -> "comma";
            case '-' -> "minus";
            case '=' -> "equal";
            case '+' -> "plus";
            case ' ' -> "space";
            case '(' -> "parenleft";
            case ')' -> "parenright";
            case ';' -> "semicolon";
            case ':' -> "colon";
            case '_' -> "underscore";
            case '/' -> "slash";
            case '[' -> "bracketleft";
            case ']' -> "bracketright";
            case '\r', '\n' -> "Return";
            default -> {
                if (!Character.isLetterOrDigit(ch)) throw new IllegalArgumentException("no keysym for '" + ch + "'");
                yield Character.toString(ch);
            }
        };
    }

    public Person press(int keyCode) { return press(0, (char) 0, keyCode); }

    public Person press(int modifiers, char character) { return press(modifiers, character, 0); }

    // ---- the event loop ----

    /** Runs the event loop until {@code done} or {@code millis} have passed; whether it came. */
    public boolean until(long millis, java.util.function.BooleanSupplier done) {
        long deadline = System.currentTimeMillis() + millis;
        while (!done.getAsBoolean() && System.currentTimeMillis() < deadline) settle(10);
        return done.getAsBoolean();
    }

    /** Runs the event loop for {@code millis} and until no event is waiting. */
    public void settle(long millis) {
        long end = System.currentTimeMillis() + millis;
        do {
            while (display.readAndDispatch()) {
                // handle what the posted events caused
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        } while (System.currentTimeMillis() < end);
        while (display.readAndDispatch()) {
            // and what is left
        }
    }

    private void move(int x, int y) {
        Point now = display.getCursorLocation();
        // xdotool's --sync waits for the pointer to move: to where it already is, it waited for ever (CI hung in
        // ShownGraph's wheel over the palette, which turns the wheel at one spot)
        if (now.x == x && now.y == y) return;
        xdotool("mousemove", "--sync", Integer.toString(x), Integer.toString(y));
    }

    private void mouse(int type, int button) {
        xdotool(type == SWT.MouseDown ? "mousedown" : "mouseup", Integer.toString(button));
    }

    /** Runs xdotool against this display (DISPLAY and XAUTHORITY are inherited), then lets its events in. */
    private void xdotool(String... args) {
        java.util.List<String> cmd = new java.util.ArrayList<>();
        // a posted event that never completes fails the test in one line instead of hanging the run
        cmd.addAll(java.util.List.of("timeout", "30", "xdotool"));
        cmd.addAll(java.util.List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (p.waitFor() != 0) throw new IllegalStateException("xdotool " + String.join(" ", args) + ": " + out);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("the UI input tests need xdotool (Debian's xdotool package)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        while (display.readAndDispatch()) {
            // let each event through before the next
        }
    }

    /** Holds or releases modifier keys at the X server, so that clicks and wheel notches carry them. */
    private void pointerModifiers(int mask, boolean down) {
        String[] names = { "ctrl", "shift", "alt" };
        int[] keys = { SWT.CTRL, SWT.SHIFT, SWT.ALT };
        for (int i = 0; i < keys.length; i++) {
            if ((mask & keys[i]) != 0) xdotool(down ? "keydown" : "keyup", names[i]);
        }
    }

    /**
     * Clicks into a text field to type there. Known gap: under Xvfb a click on an SWT.SEARCH field (a GtkEntry
     * with icons) sometimes reaches its parent rather than the entry, and the focus stays where it was; then
     * the field gets the focus directly, so that the keys typed next are still real, posted keys. Returns whether
     * the click itself gave the focus.
     */
    public boolean focusByClick(org.eclipse.swt.widgets.Text field) {
        moveTo(field, field.getSize().x / 2, field.getSize().y / 3);
        xdotool("click", "1");
        settle(150);
        boolean clicked = display.getFocusControl() == field;
        if (!clicked) field.setFocus();
        settle(50);
        if (display.getFocusControl() != field) throw new IllegalStateException("cannot focus " + field);
        return clicked;
    }

    /** The control that has the keyboard focus now (where typed keys go). */
    public Control focus() { return display.getFocusControl(); }

}
