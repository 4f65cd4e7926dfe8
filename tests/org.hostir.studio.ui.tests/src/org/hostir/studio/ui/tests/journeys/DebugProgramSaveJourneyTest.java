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
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.jface.text.ITextOperationTarget;
import org.eclipse.jface.text.ITextViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.ui.ide.IDE;
import org.eclipse.ui.texteditor.ITextEditor;
import org.hostir.studio.ui.debug.HostIrDumpEditor;
import org.hostir.studio.ui.debug.RunTarget;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.launch.HostIrLaunchShortcut;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.launch.LaunchedFileSave;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, found driving the Studio: a Debug configuration whose Program (Main tab) is a Host IR dump open and edited
 * in the Host IR Dump Editor. Debug As asked nothing about the dump and the debugger ran the dump as last saved: the
 * launch offered the fusion's editor only. Now the files the launch reads are offered, by one rule for Run and Debug
 * ({@link LaunchedFileSave#filesRead}): Debug offers the dump, and Yes saves it before the ranks run it; Run, which
 * has no Program, leaves the dirty dump alone.
 */
public class DebugProgramSaveJourneyTest extends DebugSaveJourneyTest {
    private static final String EDITED = "zero_init=true";

    @Test
    public void debugOffersTheDirtyProgramDumpAndRunsItSaved() throws Exception {
        Debugging.neverSwitchPerspective();
        Scene s = scene("debug-program-save");
        question = new SaveQuestion(journey, "prompt").watch("debug-program-save-question.png",
                q -> person.press(SWT.CR));
        RunKeys keys = new RunKeys(journey);
        List<ILaunch> ours = keys.pressDebug(s.fusion);
        assertEquals(1, ours.size(), "Alt+Shift+D H launched the configuration");
        ILaunch launch = ours.get(0);
        try {
            keys.expect(() -> launch.getDebugTarget() != null, 60_000, launch, "the debug session starts",
                    "debug-program-save-failure.png");
            String asked = question.asked();
            assertTrue(asked != null && asked.contains("sends_first.txt") && !asked.contains(".fusion"),
                    "Debug asks to save the Program dump it runs, and only that: " + asked);
            assertFalse(s.dump.isDirty(), "Yes (Return) saved the dump");
            assertTrue(onDisk(s.dumpFile).contains(EDITED), "the edit is on disk before the ranks run the dump");
            RunTarget run = (RunTarget) launch.getDebugTarget();
            // the dump as saved still sends before it receives: the ranks stop at the deadlock
            assertTrue(Debugging.await(person, 60_000, () -> run.lastStop() != null && run.lastStop().stuck()),
                    run.getName());
            person.settle(300);
            ViewTestSupport.screenshot(journey.shell(), "debug-program-save-ran.png");
            assertTrue(textOf(s.dump).contains(EDITED), "the editor shows the edit");
        } finally {
            keys.tidy(launch);
        }
    }

    @Test
    public void runLeavesTheDirtyProgramDumpAlone() throws Exception {
        Scene s = scene("run-program-save");
        question = new SaveQuestion(journey, "prompt").watch("run-program-save-question.png", SaveQuestion::cancel);
        RunKeys keys = new RunKeys(journey);
        List<ILaunch> ours = keys.press(s.fusion);
        assertEquals(1, ours.size(), "Alt+Shift+X H launched the configuration");
        try {
            keys.runToTheEnd(ours.get(0), "run-program-save-failure.png");
            assertNull(question.asked(), "a run, which reads no Program, asked to save the dump");
            assertTrue(s.dump.isDirty(), "the dump is still unsaved");
            assertFalse(onDisk(s.dumpFile).contains(EDITED), "the dump's edit was not saved");
        } finally {
            keys.tidy(ours.get(0));
        }
    }

    private record Scene(FusionEditor fusion, ITextEditor dump, IFile dumpFile) {}

    /**
     * send_recv_swapped's fusion open, its configuration's Program set to a copy of its sends-first dump (as the Main
     * tab saves it), the dump open in the Host IR Dump Editor with its allocation's zero_init typed over.
     */
    private Scene scene(String project) throws Exception {
        IFile fusion = ViewTestSupport.copyToWorkspace(project, "examples/communication/send_recv_swapped.fusion",
                "send_recv_swapped.fusion");
        IFile dumpFile = ViewTestSupport.copyToWorkspace(project, "examples/debug/send_recv_swapped_sends_first.txt",
                "sends_first.txt");
        ILaunchConfigurationWorkingCopy config = HostIrLaunchShortcut.configurationFor(fusion).getWorkingCopy();
        config.setAttribute(LaunchAttributes.PROGRAM, dumpFile.getFullPath().toString());
        config.doSave();
        FusionEditor editor = journey.open(fusion);
        ITextEditor dump = (ITextEditor) IDE.openEditor(page, dumpFile, HostIrDumpEditor.ID);
        person.settle(500);
        StyledText text = widget(dump);
        ShownGraph.typeOverWord(text, person, text.getText().indexOf("zero_init=false") + "zero_init=".length(),
                "false", "true");
        assertTrue(dump.isDirty(), "the dump is dirty after the typing");
        assertTrue(textOf(dump).contains(EDITED), "the typing shows: " + textOf(dump));
        return new Scene(editor, dump, dumpFile);
    }

    private static StyledText widget(ITextEditor editor) {
        return ((ITextViewer) editor.getAdapter(ITextOperationTarget.class)).getTextWidget();
    }

    private static String textOf(ITextEditor editor) { return widget(editor).getText(); }

    private static String onDisk(IFile f) throws Exception {
        return Files.readString(Path.of(f.getLocation().toOSString()));
    }
}
