package org.hostir.studio.ui.tests.input;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.swt.graphics.Rectangle;

/**
 * The windows the X server shows above the workbench, as a person sees them: a GTK tooltip and a combo's open list
 * are windows of their own that SWT does not list, so they are read from the server ({@code xwininfo}, {@code xprop},
 * Debian's x11-utils) with their kind (the window type GTK gives them: TOOLTIP, COMBO, DND, ...) and place on screen.
 */
public final class ShownPopups {
    private ShownPopups() {}

    /** A mapped window: its kind (the end of _NET_WM_WINDOW_TYPE, as TOOLTIP) and its bounds on the screen. */
    public record Popup(String kind, Rectangle bounds) {
        public boolean covers(Popup other) { return bounds.intersects(other.bounds); }
    }

    private static final Pattern CHILD = Pattern.compile("^\\s+(0x[0-9a-f]+) ", Pattern.MULTILINE);
    private static final Pattern TYPE = Pattern.compile("_NET_WM_WINDOW_TYPE_(\\w+)");

    /** The windows of {@code kind} that are on screen now. */
    public static List<Popup> shown(String kind) {
        return shown().stream().filter(p -> p.kind().equals(kind)).toList();
    }

    /** Every top-level window on screen now with a window type. */
    public static List<Popup> shown() {
        List<Popup> out = new ArrayList<>();
        Matcher m = CHILD.matcher(run("xwininfo", "-root", "-children"));
        while (m.find()) {
            String id = m.group(1);
            String info = run("xwininfo", "-id", id);
            if (!info.contains("IsViewable")) continue;
            Matcher t = TYPE.matcher(run("xprop", "-id", id, "_NET_WM_WINDOW_TYPE"));
            if (!t.find()) continue;
            out.add(new Popup(t.group(1), new Rectangle(field(info, "Absolute upper-left X"),
                    field(info, "Absolute upper-left Y"), field(info, "Width"), field(info, "Height"))));
        }
        return out;
    }

    private static int field(String info, String name) {
        Matcher m = Pattern.compile(Pattern.quote(name) + ":\\s+(-?\\d+)").matcher(info);
        if (!m.find()) throw new IllegalStateException("xwininfo gave no " + name + ":\n" + info);
        return Integer.parseInt(m.group(1));
    }

    private static String run(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("the popup checks need " + cmd[0] + " (Debian's x11-utils package)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
