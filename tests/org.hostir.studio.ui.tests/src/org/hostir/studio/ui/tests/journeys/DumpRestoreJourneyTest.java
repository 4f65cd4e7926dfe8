package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Label;
import org.hostir.studio.ui.HostIrPreferences;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, minor: the nvFuser Dump view forgot its dump across a restart. A person opens a dump file with
 * Open Dump... (typing its path into the file dialog), closes the view and opens it again, as a restart recreates
 * it: the view reads the same file again and shows its programs. A file deleted since is a one-line message.
 */
public class DumpRestoreJourneyTest extends JourneyTest {
    private static final String DUMP = "examples/dumps/nvfuser-2026-04/test_stream_matmul.log";

    @Test
    public void theDumpViewShowsItsDumpAgainWhenItComesBack() throws Exception {
        Path folder = Files.createTempDirectory("hir-dump-");
        Path dump = folder.resolve("restored_dump.log");
        Files.copy(ViewTestSupport.repoFile(DUMP), dump);
        try {
            DumpView view = journey.show(DumpView.ID);
            person.settle(300);
            openByTyping(view, dump);
            assertNotNull(view.snapshots(), "Open Dump... read " + dump + ": " + view.messageText());
            int programs = view.snapshots().size();
            assertTrue(programs > 0, view.messageText());
            assertEquals(dump.toString(), view.snapshots().file());

            journey.hide(DumpView.ID);   // the view is disposed, as at a restart
            DumpView again = journey.show(DumpView.ID);
            person.settle(500);
            assertNotNull(again.snapshots(), "the view came back empty: " + again.messageText());
            assertEquals(dump.toString(), again.snapshots().file());
            assertEquals(programs, again.snapshots().size());
            assertTrue(sourceLine(again, dump).startsWith(dump + ": " + programs + " program"), sourceLine(again, dump));
            assertEquals(programs, listItems(again, dump), "the list shows every program again");
            ViewTestSupport.screenshot(journey.shell(), "dump-view-restored.png");

            Files.delete(dump);   // gone before the next start: said in one line, then forgotten
            journey.hide(DumpView.ID);
            DumpView gone = journey.show(DumpView.ID);
            person.settle(300);
            assertEquals(dump + ": the dump shown last time is no longer there", gone.messageText());
            assertEquals(null, HostIrPreferences.dumpFile());
        } finally {
            journey.hide(DumpView.ID);
            Files.deleteIfExists(dump);
            Files.deleteIfExists(folder);
        }
    }

    /** Clicks Open Dump... and, while the file dialog runs the event loop, types the path and Enter from a thread. */
    private void openByTyping(DumpView view, Path dump) {
        Thread typist = new Thread(() -> {
            try {
                Thread.sleep(2000);
                // Ctrl+L: GTK's file chooser opens its location field first (a "/" typed into the list opens it
                // too, and swallowed the next key)
                xdotool("key", "ctrl+l");
                Thread.sleep(1000);
                xdotool("type", "--delay", "40", dump.toString());
                Thread.sleep(1500);
                xdotool("key", "Return");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "typist");
        typist.setDaemon(true);
        typist.start();
        Button open = ViewTestSupport.descendants(journey.shell(), Button.class).stream()
                .filter(b -> b.isVisible() && "Open Dump...".equals(b.getText())).findFirst().orElseThrow();
        person.clickCenter(open);
        person.settle(500);
        person.lookAt(journey.shell());
    }

    /** The line above the view's controls that names the dump shown (the view's first label). */
    private static Label sourceLabel(DumpView view, Path dump) {
        return ViewTestSupport.descendants(view.getSite().getShell(), Label.class).stream()
                .filter(l -> l.isVisible() && l.getText().startsWith(dump + ": ") && l.getText().contains(" program"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line names " + dump));
    }

    private static String sourceLine(DumpView view, Path dump) { return sourceLabel(view, dump).getText(); }

    /** The items of the view's list of programs (beside its tree, under the line naming the dump). */
    private static int listItems(DumpView view, Path dump) {
        return ViewTestSupport.descendants(sourceLabel(view, dump).getParent(), org.eclipse.swt.widgets.List.class)
                .getFirst().getItemCount();
    }

    private static void xdotool(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("xdotool"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new IllegalStateException("xdotool " + String.join(" ", args) + ": " + out);
    }
}
