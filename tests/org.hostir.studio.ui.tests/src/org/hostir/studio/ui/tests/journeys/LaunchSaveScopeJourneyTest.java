package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.model.IProcess;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.swt.SWT;
import org.eclipse.ui.console.IConsole;
import org.eclipse.ui.console.TextConsole;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, found driving the Studio by hand: with two fusions of one project open and one of them edited, running
 * the other asked "Save 'drive16b.fusion'?" about the edited one. The run reads the launched file on disk, so only
 * that file's editor is offered for saving (Run/Debug > Launching: "Save required dirty editors before launching",
 * Prompt by default); the other stays as it was, unsaved. The launched file's own edits: saved first with Always or
 * a Yes to the question (the run's symbols show the edit), left unsaved with Never (the run reads the file as last
 * saved).
 */
public class LaunchSaveScopeJourneyTest extends JourneyTest {
    private static final String DOUBLE = "\"tv1\", \"dtype\": \"double\"";
    private static final String N7 = "\"N\": 7";

    private SaveQuestion question;

    @AfterEach
    public void stopWatching() {
        if (question != null) question.stop();
    }

    @Test
    public void runningOneFusionDoesNotAskToSaveAnother() throws Exception {
        FusionEditor a = journey.openSeed("launch-save", "ag_matmul_p2p", "launched.fusion");
        FusionEditor b = journey.openSeed("launch-save", "ag_matmul_p2p", "edited.fusion");
        String typed = DirtyFusion.typeOver(journey, b, "tv1", "float", "double", DOUBLE);
        assertTrue(b.isDirty(), "edited.fusion is dirty after typing in its Source page");

        question = new SaveQuestion(journey, "prompt").watch("launch-save-scope-question.png", SaveQuestion::cancel);
        RunKeys keys = new RunKeys(journey);
        List<ILaunch> ours = keys.press(a);
        assertNull(question.asked(), "running launched.fusion asked to save edited.fusion");
        assertEquals(1, ours.size(), "Alt+Shift+X H launched launched.fusion");
        try {
            keys.runToTheEnd(ours.get(0), "launch-save-scope-failure.png");
            assertEquals(0, ours.get(0).getProcesses()[0].getExitValue(), "the run succeeds");
            person.settle(300);
            ViewTestSupport.screenshot(journey.shell(), "launch-save-scope-ran.png");
            assertTrue(b.isDirty(), "edited.fusion is still unsaved");
            assertEquals(typed, DirtyFusion.sourceText(b), "edited.fusion still shows the typing");
            assertFalse(DirtyFusion.onDisk(b).contains(DOUBLE), "the typing was not saved");
        } finally {
            keys.tidy(ours.get(0));
        }
    }

    /** Always: the launched file's edit is saved without a question, and the run reads it (N = 7). */
    @Test
    public void alwaysSavesTheLaunchedFileAndTheRunSeesTheEdit() throws Exception {
        String out = runEditedLaunchedFile("always", null);
        assertNull(question.asked(), "Always asks nothing");
        assertTrue(out.contains("symbols: {D=2, K=4, M=8, N=7}"), "the run read the edit: " + out);
    }

    /** Never: nothing saved, no question; the run reads the file as last saved (N = 6), the editor keeps the edit. */
    @Test
    public void neverLeavesTheLaunchedFileUnsavedAndTheRunReadsItAsSaved() throws Exception {
        String out = runEditedLaunchedFile("never", null);
        assertNull(question.asked(), "Never asks nothing");
        assertTrue(out.contains("symbols: {D=2, K=4, M=8, N=6}"), "the run read the saved file: " + out);
    }

    /** Prompt: the question names the launched file only; Yes (Return, its default button) saves it first. */
    @Test
    public void promptAsksAboutTheLaunchedFileOnly() throws Exception {
        String out = runEditedLaunchedFile("prompt", s -> person.press(SWT.CR));
        String asked = question.asked();
        assertTrue(asked != null && asked.contains("Save 'asked.fusion'?") && !asked.contains("other.fusion"),
                "the question names the launched file only: " + asked);
        assertTrue(out.contains("symbols: {D=2, K=4, M=8, N=7}"), "the run read the edit saved by Yes: " + out);
    }

    /**
     * Opens two fusions, edits both (N typed over in the launched one), runs the launched one with Alt+Shift+X H
     * under {@code choice}, answering a question by {@code answer} (else Cancel); checks the launched file saved
     * unless Never and the other left unsaved; the run's console.
     */
    private String runEditedLaunchedFile(String choice, java.util.function.Consumer<org.eclipse.swt.widgets.Shell>
            answer) throws Exception {
        String name = choice.equals("prompt") ? "asked" : choice;
        FusionEditor a = journey.openSeed("launch-save-" + choice, "ag_matmul_p2p", name + ".fusion");
        FusionEditor b = journey.openSeed("launch-save-" + choice, "ag_matmul_p2p", "other.fusion");
        DirtyFusion.typeOver(journey, b, "tv1", "float", "double", DOUBLE);
        String typed = DirtyFusion.typeOver(journey, a, "N", "6", "7", N7);
        ShownGraph.showPage(a, FusionEditor.GRAPH_PAGE);   // back to the graph, where the keys are pressed
        person.settle(300);
        question = new SaveQuestion(journey, choice).watch("launch-save-" + choice + "-question.png",
                answer == null ? SaveQuestion::cancel : answer);
        RunKeys keys = new RunKeys(journey);
        List<ILaunch> ours = keys.press(a);
        assertEquals(1, ours.size(), "Alt+Shift+X H launched " + name + ".fusion");
        try {
            keys.runToTheEnd(ours.get(0), "launch-save-" + choice + "-failure.png");
            IProcess process = ours.get(0).getProcesses()[0];
            assertEquals(0, process.getExitValue(), () -> console(process));
            person.until(5_000, () -> console(process).contains("validation:"));
            person.settle(300);
            ViewTestSupport.screenshot(journey.shell(), "launch-save-" + choice + "-ran.png");
            boolean saved = !choice.equals("never");
            assertEquals(!saved, a.isDirty(), name + ".fusion is saved unless Never");
            assertEquals(saved, DirtyFusion.onDisk(a).contains(N7), "the edit is on disk unless Never");
            assertEquals(typed, DirtyFusion.sourceText(a), name + ".fusion still shows the typing");
            assertTrue(b.isDirty(), "other.fusion is still unsaved");
            assertFalse(DirtyFusion.onDisk(b).contains(DOUBLE), "other.fusion's typing was not saved");
            return console(process);
        } finally {
            keys.tidy(ours.get(0));
        }
    }

    private static String console(IProcess process) {
        IConsole console = DebugUITools.getConsole(process);
        return console instanceof TextConsole text ? text.getDocument().get() : "";
    }
}
