package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

import org.eclipse.swt.dnd.Clipboard;
import org.eclipse.swt.dnd.TextTransfer;
import org.eclipse.swt.dnd.Transfer;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.ShardByStream;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Dump view with a dump printed by today's nvFuser (issue 33, item 5): the program quoted in
 * tests/python/multidevice/test_overlap.py (81c4b22fd) is copied to the clipboard and pasted with the Paste button;
 * the view reads it as one program, structured (its ShardByStreams in the tree), and sets its "nvFuser:" choice to
 * the generation the reader detected, 2026-04; "Compare with Studio lowering..." then picks the matching fusion by
 * typing its name. The verdict names the generation and, when the programs differ, the differences; where the
 * Studio's lowering refuses the fusion (main's lowering does not take a Stream-parallel input, [stream.input]),
 * the view says so in one line instead.
 */
public class NewestDumpJourneyTest {
    private Journey journey;
    private IWorkbenchPage page;
    private Person person;
    private DumpView view;

    @BeforeEach
    public void open() throws Exception {
        journey = Journey.start();
        page = journey.page();
        person = journey.person();
        view = journey.show(DumpView.ID);
        ViewTestSupport.copyToWorkspace("newestdumpjourney",
                "tests/org.hostir.studio.ui.tests/fusions/row_parallel_linear_forward.fusion",
                "newestdumpjourneyrowlinear.fusion");
        person.settle(200);
    }

    @AfterEach
    public void close() {
        journey.hide(DumpView.ID);
    }

    @Test
    public void pasteANewestDialectDumpAndCompareItWithTheStudiosLowering() throws Exception {
        String dump = Files.readString(
                ViewTestSupport.repoFile("examples/dumps/nvfuser-2026-04/row_parallel_linear_forward.log"));
        Clipboard clipboard = new Clipboard(page.getWorkbenchWindow().getShell().getDisplay());
        clipboard.setContents(new Object[] {dump}, new Transfer[] {TextTransfer.getInstance()});
        clipboard.dispose();

        person.clickCenter(button("Paste"));
        assertEquals(1, view.snapshots().size(), view.messageText());
        assertTrue(view.snapshots().programs().get(0).readable(), view.messageText());
        assertEquals(List.of(), view.snapshots().programs().get(0).dump().opaqueNodes(), "read as nodes, not text");
        assertEquals(NvFuserGeneration.V2026_04, view.generation(), "the detected generation is chosen");
        Combo generation = ViewTestSupport.descendants(root(), Combo.class).stream().filter(Control::isVisible)
                .filter(c -> c.getParent() == button("Paste").getParent()).findFirst().orElseThrow();
        assertEquals("2026-04", generation.getText());
        assertTrue(view.treeRows().stream().anyMatch(r -> r.node() instanceof ShardByStream), "structured tree");

        compareWithTyping("newestdumpjourneyrowlinear");
        String verdict = view.messageText();
        if (view.comparison() != null) {
            assertTrue(verdict.startsWith("structurally") && verdict.contains("nvFuser 2026-04"), verdict);
            assertTrue(view.comparison().equal() || verdict.contains("only in") || verdict.contains("differs:"),
                    "a difference is named: " + verdict);
        } else {
            assertTrue(verdict.startsWith("error: ") && verdict.contains("[stream.input]"), verdict);
        }
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "newest-dump-journey.png");
    }

    /** Clicks "Compare with Studio lowering..." and types the file's name into its dialog from another thread. */
    private void compareWithTyping(String name) {
        Thread typist = new Thread(() -> {
            try {
                Thread.sleep(1500);
                xdotool("type", "--delay", "30", name);
                Thread.sleep(1500);
                xdotool("key", "Return");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "typist");
        typist.setDaemon(true);
        typist.start();
        person.clickCenter(button("Compare with Studio lowering..."));
        person.settle(300);
        person.lookAt(page.getWorkbenchWindow().getShell());
    }

    private static void xdotool(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("xdotool"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new IllegalStateException("xdotool " + String.join(" ", args) + ": " + out);
    }

    private Control root() { return page.getWorkbenchWindow().getShell(); }

    private Button button(String label) {
        return ViewTestSupport.descendants(root(), Button.class).stream().filter(b -> label.equals(b.getText()))
                .filter(Control::isVisible).findFirst().orElseThrow(() -> new AssertionError("no button " + label));
    }
}
