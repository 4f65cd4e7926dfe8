package org.hostir.studio.ui.tests.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.eclipse.core.resources.IFile;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.timeline.CpuRun;
import org.hostir.studio.ui.timeline.RunSettings;
import org.hostir.studio.ui.timeline.TimelineCommands;
import org.junit.jupiter.api.Test;

/** "Run on CPU" runs with the lowering view's settings for the file it shows, or with settings typed as a line. */
public class RunSettingsTest {

    @Test
    public void aLineOfWordsGivesDevicesOptionsAndSymbols() {
        RunSettings s = RunSettings.parse("devices=4 numberOfStreams=2, allgather=broadcast  N=64");
        assertEquals(4, s.devices());
        assertEquals(Map.of("numberOfStreams", "2", "allgather", "broadcast"), s.options());
        assertEquals(Map.of("N", 64L), s.symbols());
        assertEquals(2, s.loweringOptions().numberOfStreams());
        assertEquals(s, RunSettings.parse(s.format()), "format() reads back: " + s.format());
        assertEquals(RunSettings.DEFAULTS, RunSettings.parse(""));
    }

    @Test
    public void aBadWordIsAOneLineMessage() {
        for (String bad : new String[] { "devices=0", "devices=two", "numberOfStreams=0", "allgather=smoke", "N",
                "=3", "1x=2", "N=" }) {
            try {
                RunSettings.parse(bad);
                fail("'" + bad + "' is accepted");
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage() != null && !e.getMessage().isBlank() && !e.getMessage().contains("\n"),
                        bad + ": " + e.getMessage());
            }
        }
        String source = "{}";
        var outcome = CpuRun.run(source, "bad.fusion", new RunSettings(2, Map.of("numberOfStreams", "0"), Map.of()),
                s -> { });
        var failed = assertInstanceOf(CpuRun.Outcome.Failed.class, outcome);
        assertTrue(failed.diagnostics().get(0).startsWith("bad.fusion: "), failed.toString());
    }

    @Test
    public void theRunUsesTheLoweringViewsOptionsForItsFile() throws Exception {
        IWorkbenchPage page = ViewTestSupport.page();
        IFile file = ViewTestSupport.copyToWorkspace("runsettings", "examples/seeds/ag_matmul_p2p.fusion",
                "ag_matmul_p2p.fusion");
        IFile other = ViewTestSupport.copyToWorkspace("runsettings", "examples/seeds/ag_matmul_p2p.fusion",
                "other.fusion");
        LoweringView lowering = (LoweringView) page.showView(LoweringView.ID);
        lowering.setFile(file);
        ViewTestSupport.join(LoweringView.JOB_FAMILY);
        try {
            ShownLowering.setSpinner(lowering, "Streams", 1);
            ViewTestSupport.join(LoweringView.JOB_FAMILY);
            RunSettings settings = TimelineCommands.settingsFor(file);
            assertEquals(lowering.devices(), settings.devices());
            assertEquals("1", settings.options().get("numberOfStreams"));
            assertSame(RunSettings.DEFAULTS, TimelineCommands.settingsFor(other), "another file runs as it is");

            String source = Files.readString(ViewTestSupport.repoFile("examples/seeds/ag_matmul_p2p.fusion"));
            Set<Integer> one = streams(CpuRun.run(source, "ag_matmul_p2p.fusion", settings, s -> { }));
            assertEquals(1, one.size(), "numberOfStreams=1: every stream op on one stream: " + one);
            assertTrue(streams(CpuRun.run(source, "ag_matmul_p2p.fusion", RunSettings.DEFAULTS, s -> { }))
                    .size() >= 2, "the defaults use more streams");
        } finally {
            ShownLowering.setSpinner(lowering, "Streams", org.hostir.studio.lower.LoweringOptions.DEFAULTS.numberOfStreams());
            ViewTestSupport.join(LoweringView.JOB_FAMILY);
        }
    }

    private static Set<Integer> streams(CpuRun.Outcome outcome) {
        var ran = assertInstanceOf(CpuRun.Outcome.Ran.class, outcome, outcome.toString());
        return ran.result().timeline().events().stream().map(TimelineEvent::stream)
                .filter(s -> s != TimelineEvent.HOST_STREAM).collect(Collectors.toSet());
    }
}
