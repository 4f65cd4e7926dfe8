package org.hostir.studio.ui.tests.journeys;

import java.util.function.Consumer;

import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.hostir.studio.ui.launch.LaunchedFileSave;
import org.hostir.studio.ui.tests.ViewTestSupport;

/**
 * Notes the first save question ("Save Resource", or the debug UI's "Save and Launch") that opens before a launch,
 * with a screenshot, then answers it; polled from the event loop by a timer, as the question runs its own loop. It
 * sets Run/Debug > Launching's "Save required dirty editors before launching" for its time: stop() puts the default back.
 */
final class SaveQuestion {
    private final Journey journey;
    private Runnable watch;
    private String asked;

    /** {@code policy}: the preference's value, "prompt", "always" or "never". */
    SaveQuestion(Journey journey, String policy) {
        this.journey = journey;
        DebugUITools.getPreferenceStore().setValue(LaunchedFileSave.SAVE_BEFORE_LAUNCH, policy);
    }

    /** Watches; a question seen is answered by {@code answer} (given its shell) once painted, and screenshot. */
    SaveQuestion watch(String screenshot, Consumer<Shell> answer) {
        Shell main = journey.shell();
        watch = () -> {
            for (Shell s : Display.getCurrent().getShells()) {
                if (s != main && s.isVisible() && s.getText().startsWith("Save")) {
                    asked = s.getText() + ": " + String.join(" ", ViewTestSupport.descendants(s, Label.class)
                            .stream().map(Label::getText).toList());
                    Display.getCurrent().timerExec(500, () -> {   // once it is painted
                        ViewTestSupport.screenshot(main, screenshot);
                        if (!s.isDisposed()) answer.accept(s);
                    });
                    return;
                }
            }
            Display.getCurrent().timerExec(100, watch);
        };
        Display.getCurrent().timerExec(100, watch);
        return this;
    }

    /** Closes the question as its window's close button does (Cancel: the launch stops). */
    static void cancel(Shell s) { s.close(); }

    /** The question's title and text, or null when none opened. */
    String asked() { return asked; }

    void stop() {
        if (watch != null) Display.getCurrent().timerExec(-1, watch);
        DebugUITools.getPreferenceStore().setToDefault(LaunchedFileSave.SAVE_BEFORE_LAUNCH);
    }
}
