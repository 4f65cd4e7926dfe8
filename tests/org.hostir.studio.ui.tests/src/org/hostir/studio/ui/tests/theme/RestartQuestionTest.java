package org.hostir.studio.ui.tests.theme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.eclipse.e4.ui.css.swt.theme.IThemeEngine;
import org.eclipse.jface.preference.PreferenceDialog;
import org.eclipse.swt.graphics.Point;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Tree;
import org.hostir.studio.ui.ThemeColors;
import org.hostir.studio.ui.studio.Legibility;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.journeys.JourneyTest;
import org.hostir.studio.ui.tests.journeys.Screens;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, defect 1, found driving the product: Preferences > Appearance, Light -> Dark and then Dark -> Light,
 * Apply and Close; the question the page asks ("Restart to fully apply theme changes") was once seen with its message
 * dark on dark after Dark -> Light. Each question is saved as {@code restart-question-[row-]N-THEME.png} while it
 * shows (a first picture a moment after it opens, printed only, and one once it has settled, measured), its message
 * measured on the picture ({@link Legibility}) and in the widget's colours, and answered "Don't restart". As driven
 * by hand: several switches in a row, by Apply and Close and by Apply, then the Preferences dialog opened again and
 * read. Neither has failed so far (this round: 11.6 to 1 after Dark -> Light, 7.85 to 1 after Light -> Dark): it
 * stays as the measurement of what was seen once. After Dark -> Light the Preferences dialog behind the question
 * (open at the switch) must follow Light too: from a Dark start it stayed dark (issue 35, driven by hand, round 15).
 * <p>
 * Both executions (Light start, Dark start) ran both tests: minutes of CI. CI runs a sample, each switch direction
 * and path still covered: the two switches in the workbench started in Light, the four in a row (Apply and Close,
 * then Apply, and Preferences again) in the one started in Dark, where the dialog stayed dark;
 * {@code -Dhirstudio.tests.restartQuestion=true} runs both tests in both.
 */
public class RestartQuestionTest extends JourneyTest {
    /** The share of the message's ink cells that may not read (anti-aliased edges of glyphs on a cell's border). */
    private static final double MOST_UNREADABLE = 0.2;
    /** The share for the whole Preferences dialog (icons, greyed text and the tree's expanders count as ink). */
    private static final double MOST_UNREADABLE_DIALOG = 0.3;
    /** A line of message text is a few dozen cells of ink; none, or a few, is text lost in its background. */
    private static final int LEAST_INK = 10;

    private final List<String> failures = new ArrayList<>();
    private int asked;
    /** The pictures' prefix: each test's own (both number their questions from 1). */
    private String prefix = "restart-question-";
    /** Every test in both executions (else CI's sample, see the class comment). */
    private static final boolean FULL = Boolean.getBoolean("hirstudio.tests.restartQuestion");

    @Test
    public void theRestartQuestionReadsBothWays() throws Exception {
        IThemeEngine engine = ThemeFrame.engine();
        String start = engine.getActiveTheme().getId();
        boolean darkStart = start.contains("dark");
        assumeTrue(FULL || !darkStart, "CI's sample: the two switches run in the workbench started in Light (the four"
                + " in a row in this one); -Dhirstudio.tests.restartQuestion=true runs both");
        try {
            switchAndRead(darkStart ? "Light" : "Dark", !darkStart, false);
            switchAndRead(darkStart ? "Dark" : "Light", darkStart, false);
        } finally {
            ThemeFrame.restore(engine, start);
            person.settle(300);
        }
        ThemeFrame.assertNone(failures, "restart questions do not read");
    }

    /**
     * As the person drove it: Light, Dark, Light, Dark... in a row without a restart, "Don't restart" each time, by
     * Apply and Close and then by Apply (the question over the open Preferences dialog); then Preferences opened again.
     */
    @Test
    public void severalSwitchesInARowEachQuestionAndThePreferencesRead() throws Exception {
        IThemeEngine engine = ThemeFrame.engine();
        String start = engine.getActiveTheme().getId();
        boolean darkStart = start.contains("dark");
        assumeTrue(FULL || darkStart, "CI's sample: the four switches in a row run in the workbench started in Dark"
                + " (the two in this one); -Dhirstudio.tests.restartQuestion=true runs both");
        prefix = "restart-question-row-";
        try {
            for (int i = 0; i < 4; i++) {
                boolean dark = (i % 2 == 0) != darkStart;
                switchAndRead(dark ? "Dark" : "Light", dark, i >= 2);
            }
            // the last switch went back to the start's theme
            preferencesAgain(darkStart);
        } finally {
            ThemeFrame.restore(engine, start);
            person.settle(300);
        }
        ThemeFrame.assertNone(failures, "restart questions or Preferences pages do not read");
    }

    /** Chooses {@code theme} on the Appearance page; the question it asks is measured, then answered. */
    private void switchAndRead(String theme, boolean dark, boolean applyFirst) {
        String state = (++asked) + "-" + theme.toLowerCase(Locale.ROOT) + (applyFirst ? "-apply" : "");
        List<String> seen = new ArrayList<>();
        AppearancePage.chooseTheme(person, journey.shell(), theme, applyFirst,
                question -> seen.add(measure(question, state, dark)));
        assertEquals(1, seen.size(), "the Appearance page asked once to restart after the switch to " + theme);
        assertTrue(journey.shell().isVisible() && !journey.shell().isDisposed(), "Don't restart kept the workbench");
        assertEquals(dark, ThemeFrame.engine().getActiveTheme().getId().contains("dark"),
                "the theme is " + theme + " without a restart: " + ThemeFrame.engine().getActiveTheme().getId());
        System.out.println("restart question " + state + ": " + seen.get(0));
    }

    /** The question's message on its picture and in its widget; what does not read goes to {@link #failures}. */
    private String measure(Shell question, String state, boolean dark) {
        Label message = ViewTestSupport.descendants(question, Label.class).stream()
                .filter(l -> l.isVisible() && !l.getText().isBlank())
                .max(Comparator.comparingInt(l -> l.getText().length())).orElse(null);
        if (message == null) {
            failures.add(state + ": the restart question has no message label");
            return "no message";
        }
        // a moment after it opened (the by-hand picture may have been taken mid-paint): printed, not judged
        person.settle(150);
        File early = ViewTestSupport.screenshot(question, prefix + state + "-early.png");
        if (early != null) {
            System.out.println("restart question " + state + " at 150 ms: " + onPicture(early, question, message));
        }
        // as a person reads it: once it has been shown a moment (the switch's styling has settled)
        person.settle(1000);
        File shot = ViewTestSupport.screenshot(question, prefix + state + ".png");
        double widget = ThemeColors.contrast(message.getForeground().getRGB(), message.getBackground().getRGB());
        String what = "\"" + message.getText() + "\": widget " + message.getForeground().getRGB() + " on "
                + message.getBackground().getRGB() + " (contrast " + String.format("%.2f", widget) + ")";
        if (widget < Legibility.READABLE) failures.add(state + ": the message's colours do not read: " + what);
        if (shot == null) return what + ", no screenshot (hirstudio.screenshots unset)";
        Legibility l = onPicture(shot, question, message);
        what += ", picture " + l;
        if (l.inkCells() < LEAST_INK || l.unreadable() > MOST_UNREADABLE) {
            failures.add(state + ": the message does not read on " + shot.getName() + ": " + what);
        }
        // after a switch to Light the question follows Light (a dark dialog there is the old theme's, left behind)
        if (!dark && l.dark()) failures.add(state + ": the question's background is not the theme's: " + what);
        return what + preferencesBehind(question, state, dark);
    }

    /**
     * The Preferences dialog the question stands over, as shown: after Dark -> Light it follows Light (from a Dark
     * start it kept Dark's background, issue 35). Its prevailing colour on a picture of it (the question covers a
     * fifth of it).
     */
    private String preferencesBehind(Shell question, String state, boolean dark) {
        Shell prefs = java.util.Arrays.stream(question.getDisplay().getShells())
                .filter(s -> s != question && s != journey.shell() && s.isVisible() && !ViewTestSupport.descendants(s,
                        org.eclipse.swt.widgets.Combo.class).stream()
                        .filter(c -> List.of(c.getItems()).contains("Dark")).toList().isEmpty())
                .findFirst().orElse(null);
        if (prefs == null) {
            failures.add(state + ": no Preferences dialog behind the restart question");
            return "";
        }
        File shot = ViewTestSupport.screenshot(prefs, prefix + state + "-preferences.png");
        if (shot == null) return "";
        Legibility l = Legibility.of(shot, new Rectangle(0, 0, prefs.getSize().x, prefs.getSize().y));
        if (!dark && l.dark()) {
            failures.add(state + ": the Preferences dialog behind the question keeps the old theme's background ("
                    + shot.getName() + "): " + l);
        }
        return ", Preferences behind it " + l;
    }

    private static Legibility onPicture(File shot, Shell shell, Control c) {
        Point at = Screens.inShot(shell, c);
        return Legibility.of(shot, new Rectangle(at.x, at.y, c.getSize().x, c.getSize().y));
    }

    /** Preferences opened again after the switches (the whole tree, at Appearance): its tree and its page read. */
    private void preferencesAgain(boolean dark) {
        PreferenceDialog dialog = AppearancePage.open(person, journey.shell());
        Shell prefs = dialog.getShell();
        try {
            person.settle(800);
            String name = prefix + "preferences-again-" + (dark ? "dark" : "light") + ".png";
            File shot = ViewTestSupport.screenshot(prefs, name);
            if (shot == null) {
                failures.add("preferences again: no screenshot (hirstudio.screenshots unset): nothing measured");
                return;
            }
            Tree tree = ViewTestSupport.descendants(prefs, Tree.class).stream().filter(Control::isVisible)
                    .findFirst().orElseThrow(() -> new AssertionError("the Preferences dialog shows no page tree"));
            judgeDialog("tree", shot, onPicture(shot, prefs, tree), dark);
            Control pageArea = dialog.getSelectedPage() instanceof org.eclipse.jface.dialogs.IDialogPage p
                    ? p.getControl() : null;
            if (pageArea != null) judgeDialog("Appearance page", shot, onPicture(shot, prefs, pageArea), dark);
        } finally {
            if (!prefs.isDisposed()) person.clickCenter(AppearancePage.button(prefs, "Cancel"));
            person.until(5_000, prefs::isDisposed);
            if (!prefs.isDisposed()) dialog.close();
            person.settle(300);
        }
    }

    private void judgeDialog(String what, File shot, Legibility l, boolean dark) {
        System.out.println("preferences again, " + what + ": " + l);
        String where = "preferences again, " + what + " (" + shot.getName() + "): " + l;
        if (l.inkCells() < LEAST_INK || l.unreadable() > MOST_UNREADABLE_DIALOG) {
            failures.add(where + ": does not read");
        }
        if (!dark && l.dark()) failures.add(where + ": the background is the old theme's");
    }
}
