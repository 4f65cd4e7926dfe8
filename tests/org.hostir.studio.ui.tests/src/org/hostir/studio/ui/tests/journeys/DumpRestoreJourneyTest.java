package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.custom.CTabItem;
import org.eclipse.swt.dnd.Clipboard;
import org.eclipse.swt.dnd.TextTransfer;
import org.eclipse.swt.dnd.Transfer;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Text;
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
        // a prefix no other folder of the temporary directory shares: with a second "hir-dump-..." there (a killed
        // run's), GTK's location field completed the typed path as it was typed ("hir-dump-r-dump-3543...") and the
        // dialog stayed open on "No such file or directory" (round 16, twice)
        Path folder = Files.createTempDirectory("hirdumprestore");
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

    /**
     * Issue 35, minor: the view kept its file but not a pasted dump nor the program selected. A person copies a log
     * of three programs, clicks Paste, clicks the second program in the list, closes the view (a middle click on
     * its tab) and opens it again by Window > Show View (Alt+Shift+Q Q, the view typed into the dialog's filter):
     * the same pasted programs, the second selected, the same tree.
     */
    @Test
    public void thePastedDumpAndItsSelectedProgramComeBack() throws Exception {
        StringBuilder log = new StringBuilder();
        for (String f : THREE) log.append(Files.readString(ViewTestSupport.repoFile(f), StandardCharsets.UTF_8));
        DumpView view = journey.show(DumpView.ID);
        try {
            person.settle(300);
            copy(log.toString());
            person.clickCenter(button("Paste"));
            person.settle(500);
            assertNotNull(view.snapshots(), "Paste read the copied log: " + view.messageText());
            assertEquals(3, view.snapshots().size(), view.messageText());
            var list = programList(view);
            int row = list.getItemHeight();
            person.click(list, 20, row + row / 2);   // the second program's row
            person.settle(300);
            assertEquals(1, view.selected(), "the click selected the second program");
            List<String> tree = shownTree(view);
            assertTrue(tree.size() > 3, "the tree shows the second program: " + tree);
            ViewTestSupport.screenshot(journey.shell(), "dump-view-pasted.png");

            closeByTab(view);
            assertNull(page.findView(DumpView.ID), "the middle click on its tab closed the view");
            ModalSteps showView = ModalSteps.whenOpen("Show View", 30, d -> {
                person.settle(500);
                Text filter = ViewTestSupport.descendants(d, Text.class).stream().filter(Text::isVisible).findFirst()
                        .orElseThrow(() -> new AssertionError("Show View has no filter field"));
                person.focusByClick(filter);
                person.type("nvfuser dump", 30);
                person.settle(500);
                person.press(SWT.CR);   // the first match selected, the list focused
                person.settle(300);
                person.press(SWT.CR);   // opened
                assertTrue(person.until(5_000, d::isDisposed), "Enter on nvFuser Dump closed Show View");
            });
            person.press(SWT.ALT | SWT.SHIFT, 'q');
            person.press(0, 'q');
            showView.check(person);
            person.settle(500);
            DumpView again = (DumpView) page.findView(DumpView.ID);
            assertNotNull(again, "Show View opened the nvFuser Dump view again");
            assertNotNull(again.snapshots(), "the view came back empty: " + again.messageText());
            assertEquals("(pasted)", again.snapshots().file());
            assertEquals(3, again.snapshots().size());
            assertEquals(1, again.selected(), "the second program is selected again");
            assertEquals(1, programList(again).getSelectionIndex(), "the list shows the second program selected");
            assertEquals(tree, shownTree(again), "the tree shows the same program");
            ViewTestSupport.screenshot(journey.shell(), "dump-view-pasted-restored.png");
        } finally {
            journey.hide(DumpView.ID);
            HostIrPreferences.setDumpFile(null);   // no pasted dump left for the views of later tests
        }
    }

    private static final List<String> THREE = List.of("examples/dumps/nvfuser-2026-04/test_stream_matmul.log",
            "examples/dumps/nvfuser-2026-04/test_stream_two_matmuls_inlinable.log",
            "examples/dumps/nvfuser-2026-04/row_parallel_linear_forward.log");

    /** What a copy in another program leaves on the clipboard. */
    private void copy(String text) {
        Clipboard c = new Clipboard(Display.getCurrent());
        try {
            c.setContents(new Object[] {text}, new Transfer[] {TextTransfer.getInstance()});
        } finally {
            c.dispose();
        }
    }

    private Button button(String label) {
        return ViewTestSupport.descendants(journey.shell(), Button.class).stream()
                .filter(b -> b.isVisible() && label.equals(b.getText())).findFirst().orElseThrow();
    }

    /** The view's list of programs, under the line that names the dump it shows. */
    private static org.eclipse.swt.widgets.List programList(DumpView view) {
        String named = view.snapshots().file() + ": ";
        Label line = ViewTestSupport.descendants(view.getSite().getShell(), Label.class).stream()
                .filter(l -> l.isVisible() && l.getText().startsWith(named)).findFirst()
                .orElseThrow(() -> new AssertionError("no line names " + named));
        // the line sits in the view's row of controls, the list in the column below it
        return ViewTestSupport.descendants(line.getParent().getParent(), org.eclipse.swt.widgets.List.class).getFirst();
    }

    /** The texts of the view's tree's items, as shown (expanded). */
    private static List<String> shownTree(DumpView view) {
        Tree tree = ViewTestSupport.descendants(programList(view).getParent(), Tree.class).getFirst();
        List<String> out = new ArrayList<>();
        for (TreeItem i : tree.getItems()) collect(i, out);
        return out;
    }

    private static void collect(TreeItem item, List<String> out) {
        out.add(item.getText());
        if (item.getExpanded()) for (TreeItem c : item.getItems()) collect(c, out);
    }

    /** A middle click on the view's tab, which closes it as the tab's X does. */
    private void closeByTab(DumpView view) {
        CTabFolder folder = ViewTestSupport.descendants(journey.shell(), CTabFolder.class).stream()
                .filter(f -> f.isVisible() && java.util.Arrays.stream(f.getItems())
                        .anyMatch(i -> "nvFuser Dump".equals(i.getText())))
                .findFirst().orElseThrow(() -> new AssertionError("no tab reads nvFuser Dump"));
        CTabItem tab = java.util.Arrays.stream(folder.getItems()).filter(i -> "nvFuser Dump".equals(i.getText()))
                .findFirst().orElseThrow();
        person.clickTab(tab, 2);
        person.settle(500);
    }

    /** Clicks Open Dump... and, while the file dialog runs the event loop, types the path and Enter from a thread. */
    private void openByTyping(DumpView view, Path dump) {
        // Ctrl+L: GTK's file chooser opens its location field first (a "/" typed into the list opens it too, and
        // swallowed the next key)
        Typist.after(2000).keys("ctrl+l").then(1000).type(dump.toString(), 40).then(1500).keys("Return").start();
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
        return ViewTestSupport.descendants(sourceLabel(view, dump).getParent().getParent(),
                        org.eclipse.swt.widgets.List.class)
                .getFirst().getItemCount();
    }
}
