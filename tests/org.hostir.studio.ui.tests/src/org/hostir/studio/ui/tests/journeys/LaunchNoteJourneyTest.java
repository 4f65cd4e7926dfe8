package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.model.IProcess;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Spinner;
import org.eclipse.ui.console.IConsole;
import org.eclipse.ui.console.TextConsole;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * A person sets the Lowering view to 4 devices for the fusion in the editor, then runs it with Alt+Shift+X H: the
 * run takes its launch configuration's 2 devices (Window > Preferences > Host IR's default), which is right, but it
 * did so without a word (issue 35, "launches ignore the Lowering view's devices and options without saying so").
 * Now its console says which settings differ from the view's and where they are set.
 */
public class LaunchNoteJourneyTest extends JourneyTest {
    private static final String NOTE = "note: this run lowers with its launch configuration's settings, not the"
            + " Lowering view's: 2 devices (the view: 4); Run > Run Configurations... sets them";

    @Test
    public void aRunSaysItDoesNotTakeTheLoweringViewsDevices() throws Exception {
        FusionEditor e = journey.openSeed("launch-note", "ag_matmul_p2p", "launch-note.fusion");
        LoweringView view = journey.show(LoweringView.ID);
        journey.waitForLowering();
        Spinner devices = ShownLowering.spinner(view, "Devices");
        person.click(devices, 10, devices.getSize().y / 2);
        person.press(SWT.CTRL, 'a');
        person.type("4", 30);
        person.press(SWT.TAB);
        journey.waitForLowering();
        assertEquals(4, view.devices(), "the view lowers for 4 devices");

        RunKeys keys = new RunKeys(journey);
        List<ILaunch> ours = keys.press(e);
        assertEquals(1, ours.size(), "Alt+Shift+X H launched the fusion once");
        ILaunch launch = ours.get(0);
        try {
            keys.runToTheEnd(launch, "launch-note-failure.png");
            IProcess process = launch.getProcesses()[0];
            assertEquals(0, process.getExitValue(), () -> console(process));
            person.until(5_000, () -> console(process).contains("note:"));
            String out = console(process);
            assertTrue(out.contains("fusion ag_matmul_p2p: 2 devices"), "the run took 2 devices: " + out);
            List<String> notes = out.lines().filter(l -> l.startsWith("note:")).toList();
            assertEquals(List.of(NOTE), notes, "the console names the one setting that differs: " + out);
        } finally {
            keys.tidy(launch);
        }
    }

    private static String console(IProcess process) {
        IConsole console = DebugUITools.getConsole(process);
        return console instanceof TextConsole text ? text.getDocument().get() : "";
    }
}
