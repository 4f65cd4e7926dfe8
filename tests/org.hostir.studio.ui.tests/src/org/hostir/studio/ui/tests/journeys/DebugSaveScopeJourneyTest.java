package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.debug.core.ILaunch;
import org.hostir.studio.ui.debug.RunTarget;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: Debug As > Host IR Program (Alt+Shift+D H) with another fusion's editor dirty asked "Save
 * 'edited.fusion'?" about it, as Run did before round 16: the debugger too reads only the launched file on disk, so
 * it offers only that file's editor for saving (Run/Debug > Launching, Prompt here), through the Run launch's code.
 */
public class DebugSaveScopeJourneyTest extends DebugSaveJourneyTest {
    private static final String DOUBLE = "\"tv1\", \"dtype\": \"double\"";

    @Test
    public void debuggingOneFusionDoesNotAskToSaveAnother() throws Exception {
        Debugging.neverSwitchPerspective();
        FusionEditor a = journey.openSeed("debug-save", "ag_matmul_p2p", "debugged.fusion");
        FusionEditor b = journey.openSeed("debug-save", "ag_matmul_p2p", "edited.fusion");
        String typed = DirtyFusion.typeOver(journey, b, "tv1", "float", "double", DOUBLE);
        assertTrue(b.isDirty(), "edited.fusion is dirty after typing in its Source page");

        question = new SaveQuestion(journey, "prompt").watch("debug-save-scope-question.png", SaveQuestion::cancel);
        RunKeys keys = new RunKeys(journey);
        List<ILaunch> ours = keys.pressDebug(a);
        assertNull(question.asked(), "debugging debugged.fusion asked to save edited.fusion");
        assertEquals(1, ours.size(), "Alt+Shift+D H launched debugged.fusion");
        ILaunch launch = ours.get(0);
        try {
            keys.expect(() -> launch.getDebugTarget() != null || question.asked() != null, 60_000, launch,
                    "the debug session starts", "debug-save-scope-failure.png");
            assertNull(question.asked(), "debugging debugged.fusion asked to save edited.fusion");
            assertEquals("debug", launch.getLaunchMode(), "a debug launch");
            assertTrue(launch.getDebugTarget() instanceof RunTarget, "the Host IR debugger runs the file");
            // no breakpoint: every rank runs to the end
            keys.expect(launch::isTerminated, 60_000, launch, "the debug session ends", "debug-save-scope-failure.png");
            person.settle(300);
            ViewTestSupport.screenshot(journey.shell(), "debug-save-scope-ran.png");
            assertTrue(b.isDirty(), "edited.fusion is still unsaved");
            assertEquals(typed, DirtyFusion.sourceText(b), "edited.fusion still shows the typing");
            assertFalse(DirtyFusion.onDisk(b).contains(DOUBLE), "the typing was not saved");
        } finally {
            keys.tidy(launch);
        }
    }
}
