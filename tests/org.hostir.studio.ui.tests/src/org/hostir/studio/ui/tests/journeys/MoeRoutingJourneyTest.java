package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.debug.core.model.IProcess;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.console.IConsole;
import org.eclipse.ui.console.TextConsole;
import org.hostir.studio.engine.ScheduleSweep;
import org.hostir.studio.ui.launch.ExecutionTab;
import org.hostir.studio.ui.launch.LaunchAttributes;
import org.hostir.studio.ui.launch.LaunchSettings;
import org.hostir.studio.ui.tests.ShownExecutionTab;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.timeline.ScheduleSweepDialog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The simulator's MoE routing options ({@code --routing uniform|zipf:S|histogram:FILE}, {@code --capacity-factor
 * F|none}) chosen with keys and clicks: on the Execution tab where the backend is sim (saved in the configuration,
 * passed to the launched run, whose console reports the routing it used) and in the Schedule Sweep dialog (every
 * point simulated with them). Neither offered them: a sim launch always routed uniformly without drops.
 */
public class MoeRoutingJourneyTest {
    private static final String MOE = "examples/moe/moe_topk_grouped_experts.fusion";
    private IWorkbenchPage page;
    private Person person;

    @BeforeEach
    public void look() {
        page = ViewTestSupport.page();
        person = Person.onCurrentDisplay();
    }

    @AfterEach
    public void restore() {
        page.closeAllEditors(false);
        person.settle(100);
    }

    /** Clears a field a person clicked into (at its left, away from a combo's button) and types {@code text}. */
    @Test
    public void theExecutionTabRoutesASimulatedRunAndTheRunUsesIt() throws Exception {
        IFile file = ViewTestSupport.copyToWorkspace("moe-routing", MOE, "moe_topk_grouped_experts.fusion");
        ILaunchConfigurationWorkingCopy copy = ShownExecutionTab.configuration(file, 4, 4, Map.of(), null);
        try (ShownExecutionTab shown = ShownExecutionTab.open(person, copy, false, 640, 420)) {
            Shell shell = shown.shell();
            ExecutionTab tab = shown.tab();
            List<Combo> combos = ViewTestSupport.descendants(shell, Combo.class);
            Combo backend = combos.get(0), routing = combos.get(2), capacity = combos.get(3);
            assertEquals("uniform", routing.getText());
            assertEquals("none", capacity.getText());
            assertFalse(routing.isEnabled() || capacity.isEnabled(), "a real run routes by its data");
            person.clickCenter(backend);
            person.press(SWT.ESC);
            person.press(SWT.ARROW_DOWN).press(SWT.ARROW_DOWN);
            assertEquals(LaunchSettings.SIM, backend.getText());
            assertTrue(routing.isEnabled() && capacity.isEnabled(), "the simulation offers its routing");
            // a spelling the simulator does not read is the dialog's one-line error, not a failed launch
            person.retype(routing, "zipf:x");
            person.press(SWT.TAB);
            assertFalse(tab.isValid(copy));
            assertTrue(tab.getErrorMessage().startsWith("Routing: 'zipf:x'") && !tab.getErrorMessage().contains("\n"),
                    tab.getErrorMessage());
            person.retype(routing, "zipf:1.5");
            person.retype(capacity, "1.25");
            person.press(SWT.TAB);
            assertTrue(tab.isValid(copy), tab.getErrorMessage());
            assertEquals("zipf:1.5", routing.getText());
            assertEquals("1.25", capacity.getText());
            ViewTestSupport.screenshot(shell, "execution-tab-moe-routing.png");
            tab.performApply(copy);
        }
        LaunchSettings chosen = LaunchAttributes.read(copy.doSave().getWorkingCopy());
        assertEquals("zipf:1.5", chosen.routing());
        assertEquals("1.25", chosen.capacityFactor());
        String args = String.join(" ", chosen.runArguments(Path.of("f.fusion"), Path.of("t.json")));
        assertTrue(args.contains("--backend sim --devices 4") && args.contains("--routing zipf:1.5")
                && args.contains("--capacity-factor 1.25"), args);
        IProcess process = launch(copy);
        assertTrue(process.getAttribute(IProcess.ATTR_CMDLINE).contains("--routing zipf:1.5 --capacity-factor 1.25"),
                process.getAttribute(IProcess.ATTR_CMDLINE));
        String out = console(process);
        assertTrue(out.contains("routing zipf:1.5, capacity factor 1.25"), out);
    }

    private IProcess launch(ILaunchConfigurationWorkingCopy copy) throws Exception {
        ILaunch launch = copy.doSave().launch(ILaunchManager.RUN_MODE, null);
        long deadline = System.currentTimeMillis() + 180_000;
        while (!launch.isTerminated() && System.currentTimeMillis() < deadline) person.settle(50);
        assertTrue(launch.isTerminated(), "the prediction ends");
        IProcess process = launch.getProcesses()[0];
        assertEquals(0, process.getExitValue(), () -> console(process));
        long shown = System.currentTimeMillis() + 20_000;
        while (!console(process).contains("routing ") && System.currentTimeMillis() < shown) person.settle(100);
        return process;
    }

    private static String console(IProcess process) {
        IConsole console = DebugUITools.getConsole(process);
        return console instanceof TextConsole text ? text.getDocument().get() : "";
    }

    @Test
    public void theScheduleSweepSimulatesEveryPointWithTheRoutingChosen() throws Exception {
        ScheduleSweepDialog sweep = Journey.openSweep(page, person, "moe-routing", MOE, "moe_topk_grouped_experts.fusion");
        Shell dialog = sweep.getShell();
        try {
            assertEquals("uniform", sweep.routingField().getText());
            assertEquals("none", sweep.capacityField().getText());
            person.retype(sweep.devicesField(), "2,4");
            person.retype(sweep.varyField(), "numberOfStreams=1,2");
            // a routing the simulator cannot read is refused before the first point, in one row naming it: the field
            // reaches the simulation
            person.retype(sweep.routingField(), "zipf:x");
            person.clickCenter(SimulationJourneyTest.button(dialog, "Run Sweep"));
            ViewTestSupport.join(ScheduleSweepDialog.JOB_FAMILY);
            person.settle(500);
            List<ScheduleSweep.Point> refused = sweep.points();
            assertEquals(1, refused.size(), sweep.statusText());
            assertTrue(refused.getFirst().figures().isEmpty()
                    && String.join(" ", refused.getFirst().failure()).contains("'zipf:x'"), refused::toString);
            assertTrue(sweep.table().getItem(0).getText(4).contains("zipf:x"), sweep.table().getItem(0).getText(4));
            // named by its flag, as the CLI's sweep names it, not as the lowering option it is not
            String shown = sweep.table().getItem(0).getText(4);
            assertTrue(shown.contains("--routing") && !shown.contains("--option"), shown);
            assertTrue(String.join(" ", refused.getFirst().failure()).contains("--routing"), refused::toString);
            person.retype(sweep.routingField(), "zipf:1.5");
            person.retype(sweep.capacityField(), "1.25");
            person.clickCenter(SimulationJourneyTest.button(dialog, "Run Sweep"));
            ViewTestSupport.join(ScheduleSweepDialog.JOB_FAMILY);
            person.settle(500);
            List<ScheduleSweep.Point> points = sweep.points();
            assertEquals(4, points.size(), sweep.statusText());
            assertTrue(points.stream().allMatch(p -> p.figures().isPresent()), points::toString);
            assertEquals(4, sweep.table().getItemCount());
            assertTrue(sweep.statusText().startsWith("4 points simulated"), sweep.statusText());
            ViewTestSupport.screenshot(dialog, "sweep-moe-routing.png");
        } finally {
            dialog.close(); // a dialog left open would cover the next test's window
        }
    }
}
