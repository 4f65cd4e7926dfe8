package org.hostir.studio.ui.tests.theme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Consumer;

import org.eclipse.jface.preference.PreferenceDialog;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.dialogs.PreferencesUtil;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.tests.input.ShownPopups;

/**
 * Preferences > General > Appearance as a person uses it to switch themes without a restart: the Theme combo set
 * with the keys, Apply and Close, and "Don't restart" in the question the page then asks (answered from inside
 * that dialog's own loop). The same path as the product's: the page applies the theme through the workbench's
 * theme engine, and the colour registry changes after it.
 */
final class AppearancePage {
    private AppearancePage() {}

    static void chooseTheme(Person person, Shell workbench, String name) {
        chooseTheme(person, workbench, name, false, question -> {});
    }

    /**
     * As {@link #chooseTheme(Person, Shell, String)}, with {@code question} given the restart question's shell (shown,
     * inside its own loop) before "Don't restart" is clicked; it must not throw (record, assert after). With
     * {@code applyFirst}, Apply is clicked first (the question comes while the Preferences dialog stays open), then
     * Apply and Close.
     */
    static void chooseTheme(Person person, Shell workbench, String name, boolean applyFirst,
            Consumer<Shell> question) {
        Display display = workbench.getDisplay();
        StaleCssElements.drop(display);
        PreferenceDialog dialog = open(person, workbench);
        Shell prefs = dialog.getShell();
        Combo theme = ViewTestSupport.descendants(prefs, Combo.class).stream()
                .filter(c -> List.of(c.getItems()).containsAll(List.of("Dark", "Light"))).findFirst().orElseThrow();
        person.clickCenter(theme);
        // the list opened and closed: the keyboard is on the combo. Only once the list shows: on a busy machine it
        // came late, and the Escape closed the Preferences dialog instead
        if (person.until(5_000, () -> !ShownPopups.shown("COMBO").isEmpty())) person.press(SWT.ESC);
        if (!theme.isFocusControl()) theme.setFocus();
        int wanted = List.of(theme.getItems()).indexOf(name);
        for (int i = 0; i < 5 && theme.getSelectionIndex() != wanted; i++) {
            person.press(theme.getSelectionIndex() < wanted ? SWT.ARROW_DOWN : SWT.ARROW_UP);
        }
        assertEquals(name, theme.getText(), "the Theme combo shows the choice");
        Button apply = button(prefs, applyFirst ? "Apply" : "Apply and Close");
        long deadline = System.currentTimeMillis() + 20_000;
        Runnable[] answer = new Runnable[1];
        // every question answered until the dialog has closed (Apply, then Apply and Close, may ask twice)
        java.util.Set<Shell> answered = new java.util.HashSet<>();
        answer[0] = () -> {
            for (Shell s : display.getShells()) {
                Button no = s.isVisible() && s != prefs && !answered.contains(s) ? find(s, "Don't restart") : null;
                if (no != null) {
                    answered.add(s);
                    question.accept(s);
                    if (!no.isDisposed()) person.clickCenter(no);
                    break;
                }
            }
            boolean more = !prefs.isDisposed() || answered.isEmpty();
            if (more && System.currentTimeMillis() < deadline) display.timerExec(200, answer[0]);
        };
        display.timerExec(300, answer[0]);
        person.clickCenter(apply);
        if (applyFirst) {
            // the question answered inside Apply's click; the dialog stays open until Apply and Close
            person.settle(1200);
            person.clickCenter(button(prefs, "Apply and Close"));
        }
        person.until(20_000, () -> prefs.isDisposed());
        person.settle(1200);
        assertTrue(prefs.isDisposed(), "the Preferences dialog closed");
    }

    /** Preferences at General > Appearance, the whole tree of pages shown (as Window > Preferences opens it). */
    static PreferenceDialog open(Person person, Shell workbench) {
        PreferenceDialog dialog = PreferencesUtil.createPreferenceDialogOn(workbench,
                "org.eclipse.ui.preferencePages.Views", null, null);
        dialog.setBlockOnOpen(false);
        dialog.open();
        person.settle(500);
        return dialog;
    }

    static Button button(Shell s, String text) {
        Button b = find(s, text);
        if (b == null) throw new AssertionError("no button " + text);
        return b;
    }

    private static Button find(Shell s, String text) {
        return ViewTestSupport.descendants(s, Button.class).stream()
                .filter(b -> b.getText().replace("&", "").equals(text)).findFirst().orElse(null);
    }
}
