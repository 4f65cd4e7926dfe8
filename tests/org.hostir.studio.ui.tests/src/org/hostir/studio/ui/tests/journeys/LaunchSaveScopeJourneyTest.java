package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, found driving the Studio by hand: with two fusions of one project open and one of them edited, running
 * the other asked "Save 'drive16b.fusion'?" about the edited one. The run reads the launched file on disk, so only
 * that file's editor is offered for saving (Run/Debug > Launching: "Save required dirty editors before launching",
 * Prompt by default); the other stays as it was, unsaved.
 */
public class LaunchSaveScopeJourneyTest extends JourneyTest {
    /** The debug UI's key for that preference. */
    private static final String SAVE_BEFORE_LAUNCH = "org.eclipse.debug.ui.save_dirty_editors_before_launch";

    private Runnable watch;

    @AfterEach
    public void stopWatching() {
        if (watch != null) Display.getCurrent().timerExec(-1, watch);
        DebugUITools.getPreferenceStore().setToDefault(SAVE_BEFORE_LAUNCH);
    }

    @Test
    public void runningOneFusionDoesNotAskToSaveAnother() throws Exception {
        DebugUITools.getPreferenceStore().setValue(SAVE_BEFORE_LAUNCH, "prompt");
        FusionEditor a = journey.openSeed("launch-save", "ag_matmul_p2p", "launched.fusion");
        FusionEditor b = journey.openSeed("launch-save", "ag_matmul_p2p", "edited.fusion");
        String typed = typeOverInSource(b);
        assertTrue(b.isDirty(), "edited.fusion is dirty after typing in its Source page");

        String[] asked = new String[1];
        watchForSaveQuestion(asked);
        RunKeys keys = new RunKeys(journey);
        List<ILaunch> ours = keys.press(a);
        assertNull(asked[0], "running launched.fusion asked to save edited.fusion");
        assertEquals(1, ours.size(), "Alt+Shift+X H launched launched.fusion");
        try {
            keys.runToTheEnd(ours.get(0), "launch-save-scope-failure.png");
            assertEquals(0, ours.get(0).getProcesses()[0].getExitValue(), "the run succeeds");
            person.settle(300);
            ViewTestSupport.screenshot(journey.shell(), "launch-save-scope-ran.png");
            assertTrue(b.isDirty(), "edited.fusion is still unsaved");
            assertEquals(typed, sourceText(b), "edited.fusion still shows the typing");
            assertFalse(onDisk(b).contains("\"tv1\", \"dtype\": \"double\""), "the typing was not saved");
        } finally {
            keys.tidy(ours.get(0));
        }
    }

    /** Double-clicks tv1's dtype on the Source page and types over it, as a person edits; the text after. */
    private String typeOverInSource(FusionEditor e) {
        page.activate(e);
        StyledText text = ShownGraph.typeOverInSource(e, person, "tv1", "float", "double");
        assertTrue(text.getText().contains("\"tv1\", \"dtype\": \"double\""), "the word typed over");
        return text.getText();
    }

    private static StyledText sourceWidget(FusionEditor e) {
        return ViewTestSupport.descendants(ShownGraph.page(e).getParent(), StyledText.class).stream()
                .filter(t -> t.getText().contains("\"tv1\"")).findFirst().orElseThrow();
    }

    private static String sourceText(FusionEditor e) { return sourceWidget(e).getText(); }

    private static String onDisk(FusionEditor e) throws Exception {
        IFile f = e.getEditorInput().getAdapter(IFile.class);
        return Files.readString(Path.of(f.getLocation().toOSString()));
    }

    /**
     * Notes the first save question ("Save Resource", or the debug UI's "Save and Launch") that opens, with a
     * screenshot, and closes it (Cancel) so that nothing waits on it; polled from the event loop, as the question
     * runs its own.
     */
    private void watchForSaveQuestion(String[] asked) {
        Shell main = journey.shell();
        watch = () -> {
            for (Shell s : Display.getCurrent().getShells()) {
                if (s != main && s.isVisible() && s.getText().startsWith("Save")) {
                    asked[0] = s.getText() + ": " + String.join(" ", ViewTestSupport.descendants(s, Label.class)
                            .stream().map(Label::getText).toList());
                    Display.getCurrent().timerExec(500, () -> {   // once it is painted
                        ViewTestSupport.screenshot(main, "launch-save-scope-question.png");
                        if (!s.isDisposed()) s.close();
                    });
                    return;
                }
            }
            Display.getCurrent().timerExec(100, watch);
        };
        Display.getCurrent().timerExec(100, watch);
    }
}
