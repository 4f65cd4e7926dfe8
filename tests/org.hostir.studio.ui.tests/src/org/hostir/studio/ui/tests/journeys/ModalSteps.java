package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.hostir.studio.ui.tests.input.Person;

/**
 * What a person does in a modal dialog. The dialog's {@code open()} runs its own event loop and returns only when it
 * closes, so the steps are queued before the key or click that opens it and run from inside that loop once a shell
 * of the title shows; a failure closes the dialog (nobody would be left to answer it) and is thrown by
 * {@link #check}.
 */
final class ModalSteps {
    interface Steps {
        void in(Shell dialog) throws Exception;
    }

    private final String title;
    private final long deadline;
    private boolean shown;
    private boolean done;
    private Throwable failure;

    private ModalSteps(String title, int seconds) {
        this.title = title;
        this.deadline = System.currentTimeMillis() + seconds * 1000L;
    }

    /** Runs {@code steps} in the first visible shell titled {@code title} that opens within {@code seconds}. */
    static ModalSteps whenOpen(String title, int seconds, Steps steps) {
        ModalSteps m = new ModalSteps(title, seconds);
        Runnable[] poll = new Runnable[1];
        poll[0] = () -> {
            Shell dialog = m.find();
            if (dialog == null) {
                if (System.currentTimeMillis() < m.deadline) Display.getCurrent().timerExec(200, poll[0]);
                else m.done = true;
                return;
            }
            m.shown = true;
            try {
                steps.in(dialog);
            } catch (Throwable t) {
                m.failure = t;
                if (!dialog.isDisposed()) {
                    org.hostir.studio.ui.tests.WorkbenchSmokeTest.screenshot(dialog, "failed-in-dialog.png");
                }
                if (!dialog.isDisposed()) dialog.close();
            }
            m.done = true;
        };
        Display.getCurrent().timerExec(200, poll[0]);
        return m;
    }

    private Shell find() {
        for (Shell s : Display.getCurrent().getShells()) if (s.isVisible() && title.equals(s.getText())) return s;
        return null;
    }

    /** Waits until the steps have run (or the dialog never came), then fails as they did. */
    void check(Person person) throws Exception {
        Debugging.await(person, Math.max(1, deadline - System.currentTimeMillis()) + 1_000, () -> done);
        assertTrue(shown, "no dialog '" + title + "' opened");
        if (failure instanceof Exception e) throw e;
        if (failure instanceof Error e) throw e;
        assertTrue(done, "the steps in '" + title + "' did not end");
    }
}
