package org.hostir.studio.ui.tests.journeys;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Keys typed at the X server from another thread, for a native modal dialog (GTK's file chooser, a resource
 * dialog): its {@code open()} runs the event loop and returns only when it closes, so the keys are queued before the
 * click that opens it, each after a pause that leaves the dialog time to come up, as a person at the keyboard.
 */
final class Typist {
    private record Step(long pauseMs, List<String> xdotool) {}

    private final List<Step> steps = new ArrayList<>();
    private long pause;

    private Typist() {}

    /** A typist who first waits {@code ms}. */
    static Typist after(long ms) { return new Typist().then(ms); }

    /** Waits {@code ms} before the next step. */
    Typist then(long ms) {
        pause += ms;
        return this;
    }

    /** Types {@code text} at {@code msPerKey}. */
    Typist type(String text, int msPerKey) { return step("type", "--delay", Integer.toString(msPerKey), text); }

    /** Presses keys, in xdotool's spelling ("Return", "ctrl+l"). */
    Typist keys(String keys) { return step("key", keys); }

    private Typist step(String... args) {
        steps.add(new Step(pause, List.of(args)));
        pause = 0;
        return this;
    }

    /** Starts typing; the caller then clicks what opens the dialog. */
    void start() {
        Thread typist = new Thread(() -> {
            try {
                for (Step s : steps) {
                    Thread.sleep(s.pauseMs());
                    xdotool(s.xdotool());
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "typist");
        typist.setDaemon(true);
        typist.start();
    }

    private static void xdotool(List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("xdotool"));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new IllegalStateException("xdotool " + String.join(" ", args) + ": " + out);
    }
}
