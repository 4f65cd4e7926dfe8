package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.dnd.Clipboard;
import org.eclipse.swt.dnd.TextTransfer;
import org.eclipse.swt.dnd.Transfer;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Spinner;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.diff.DiffKind;
import org.hostir.studio.diff.ProgramComparison;
import org.hostir.studio.ir.NvFuserGeneration;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ir.host.ShardByStream;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.hostir.studio.ui.tests.input.Person;
import org.hostir.studio.ui.tests.passes.DumpViewTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The nvFuser Dump view as a person uses it (issue 20): a log copied from a terminal is pasted with the Paste
 * button, the second program is clicked in the list, the filter takes typing, the device count is typed into its
 * spinner, and "Compare with Studio lowering..." picks the seed's fusion in the workspace dialog by typing its
 * name: equal numbering aside; with {@code allgather=collective} typed into Options, the expected difference. A
 * dump of today's nvFuser (the 2026-04 dialect) is pasted and compared the same way.
 */
public class DumpJourneyTest {
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
        // a name no other test uses, so that the dialog's first match is this file
        ViewTestSupport.copyToWorkspace("dumpjourney", "examples/seeds/ag_matmul_p2p.fusion", "dumpjourneyseed.fusion");
        ViewTestSupport.copyToWorkspace("dumpjourney",
                "tests/org.hostir.studio.ui.tests/fusions/row_parallel_linear_forward.fusion", "dumpjourneyrowlinear.fusion");
        person.settle(200);
    }

    @AfterEach
    public void close() {
        journey.hide(DumpView.ID);
    }

    @Test
    public void pasteSelectFilterAndCompareWithTheStudiosLowering() throws Exception {
        String log = DumpViewTest.log(DumpViewTest.seed000Dumps());
        Clipboard clipboard = new Clipboard(page.getWorkbenchWindow().getShell().getDisplay());
        clipboard.setContents(new Object[] {log}, new Transfer[] {TextTransfer.getInstance()});
        clipboard.dispose();

        person.clickCenter(button("Paste"));
        assertEquals(2, view.snapshots().size(), view.messageText());

        org.eclipse.swt.widgets.List list = only(org.eclipse.swt.widgets.List.class);
        person.click(list, 20, list.getItemHeight() + list.getItemHeight() / 2);
        assertEquals(1, view.selected(), "the second program is selected by the click");
        assertTrue(view.treeRows().stream().anyMatch(r -> r.kind() == DiffKind.ADDED), "the matmul program adds nodes");
        // issue 35: the tree labels communications as the text beside it prints them (not as the diff numbers them)
        String texts = view.snapshots().previousText(1) + view.snapshots().text(1);
        assertLabelsAreLinesOf(texts, texts, list);

        Text filter = field(f -> (f.getStyle() & SWT.SEARCH) != 0);
        person.focusByClick(filter);
        person.type("matmul", 30);
        assertEquals("matmul", filter.getText(), "no key dropped");
        assertEquals(1, list.getItemCount(), List.of(list.getItems()).toString());
        assertTrue(list.getItem(0).contains("AG_matmul_P2p"), list.getItem(0));
        for (int i = 0; i < "matmul".length(); i++) person.press(SWT.BS);

        Spinner devices = ViewTestSupport.descendants(viewRoot(list), Spinner.class).getFirst();
        person.click(devices, 10, devices.getSize().y / 2);
        person.press(SWT.CTRL, 'a');
        person.type("8", 30);
        person.press(SWT.TAB);
        assertEquals(8, devices.getSelection(), "the dump is of 8 devices");
        person.click(list, 20, list.getItemHeight() + list.getItemHeight() / 2);

        compareWithTyping("dumpjourneyseed");
        assertNotNull(view.comparison(), view.messageText());
        assertTrue(view.comparison().result().equal(), view.messageText());
        assertTrue(view.messageText().startsWith("structurally equal"), view.messageText());

        Text options = field(f -> "key=value ...".equals(f.getMessage()));
        person.focusByClick(options);
        person.type("allgather=collective", 30);
        assertEquals("allgather=collective", options.getText());
        // issue 35: Enter in Options compares again with the same fusion (it kept the last comparison)
        person.press(SWT.CR);
        person.settle(300);
        assertFalse(view.comparison().result().equal(), view.messageText());
        assertTrue(view.messageText().startsWith("structurally different"), view.messageText());
        List<PassRow> rows = view.treeRows();
        assertTrue(rows.stream().anyMatch(r -> r.kind() == DiffKind.ADDED && r.node() instanceof Communication));
        assertTrue(rows.stream().anyMatch(r -> r.kind() == DiffKind.REMOVED && r.node() instanceof P2PCommunication));
        // the Studio's Communication reads as its text prints it ("Communication 0"), not 16777216 (issue 35)
        assertLabelsAreLinesOf(view.comparison().dumpText(), view.comparison().studioText(), list);
        assertFalse(view.messageText().contains(String.valueOf(ProgramComparison.RIGHT_NODE_BASE)),
                view.messageText());
        // the difference is shown: the text panes hold both programs, in a view no wider than it needs to be
        java.io.File shot = ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "dump-journey.png");
        if (shot != null) {
            Control panes = viewRoot(list);
            var at = Screens.inShot(page.getWorkbenchWindow().getShell(), panes);
            double flat = Screens.largestFlatBlock(shot, at.x, at.y, panes.getSize().x, panes.getSize().y,
                    panes.getDisplay().getSystemColor(SWT.COLOR_WIDGET_BACKGROUND).getRGB());
            assertTrue(flat < 0.1, "an unpainted block of " + flat + " of the Dump view");
        }
    }

    /**
     * A dump printed by today's nvFuser (issue 33, item 5): the program quoted in
     * tests/python/multidevice/test_overlap.py (81c4b22fd) is pasted with the Paste button; the view reads it as one
     * program, structured (its ShardByStreams in the tree), and sets its "nvFuser:" choice to the detected
     * generation, 2026-04; {@code hostIrLowering=true} is typed into Options (the dump was printed under
     * {@code _enable_options=["host_ir_lowering"]}, test_overlap.py:116), and "Compare with Studio lowering..." picks
     * the matching fusion by typing its name. The fusion lowers under 2026-04, so the view compares: the verdict
     * names the generation and, where the programs differ, each difference; both hold the loop's ShardByStream.
     */
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
                .filter(c -> inRow(c)).findFirst().orElseThrow();
        assertEquals("2026-04", generation.getText());
        assertTrue(view.treeRows().stream().anyMatch(r -> r.node() instanceof ShardByStream), "structured tree");

        Text options = field(f -> "key=value ...".equals(f.getMessage()));
        person.focusByClick(options);
        person.press(SWT.CTRL, 'a');
        person.type("hostIrLowering=true", 30);
        assertEquals("hostIrLowering=true", options.getText(), "no key dropped");
        compareWithTyping("dumpjourneyrowlinear");
        String verdict = view.messageText();
        assertNotNull(view.comparison(), "the fusion lowers under 2026-04, so the view compares: " + verdict);
        assertTrue(verdict.startsWith("structurally") && verdict.contains("nvFuser 2026-04"), verdict);
        assertTrue(view.comparison().equal() || verdict.contains("only in") || verdict.contains("differs:"),
                "a difference is named: " + verdict);
        List<PassRow> rows = view.treeRows();
        // the Studio's program (every row not REMOVED) holds a ShardByStream: it lowered the host_ir_lowering path
        assertTrue(rows.stream().anyMatch(r -> r.kind() != DiffKind.REMOVED && r.node() instanceof ShardByStream),
                "the Studio's ShardByStream: " + rows);
        ViewTestSupport.screenshot(page.getWorkbenchWindow().getShell(), "newest-dump-journey.png");
        // the view as it was found: no options
        person.focusByClick(options);
        person.press(SWT.CTRL, 'a');
        person.press(SWT.BS);
        assertEquals("", options.getText());
    }

    /**
     * Clicks "Compare with Studio lowering..." and, while its modal dialog runs the event loop, types the file's
     * name into the dialog and presses Enter from another thread, as a person at the keyboard does.
     */
    private void compareWithTyping(String name) {
        Typist.after(1500).type(name, 30).then(1500).keys("Return").start();
        person.clickCenter(button("Compare with Studio lowering..."));
        person.settle(300);
        // the dialog is gone: back to the workbench window, which X gives the keys to again
        person.lookAt(page.getWorkbenchWindow().getShell());
    }

    /**
     * Every communication row the Dump view's tree shows (its item text, the "+ "/"- "/"~ " mark aside) is a line of
     * the text it stands for: a removed row of {@code left}'s, an added one of {@code right}'s, others of either's.
     */
    private static void assertLabelsAreLinesOf(String left, String right, org.eclipse.swt.widgets.List list) {
        Tree tree = ViewTestSupport.descendants(list.getParent(), Tree.class).getFirst();
        java.util.Set<String> leftLines = statements(left);
        java.util.Set<String> rightLines = statements(right);
        List<String> labels = new java.util.ArrayList<>();
        for (TreeItem item : tree.getItems()) labels(item, labels);
        List<String> checked = labels.stream().filter(l -> l.contains("Communication")).toList();
        assertFalse(checked.isEmpty(), "no communication in the tree: " + labels);
        for (String label : checked) {
            String line = label.substring(2).replace("   (moved)", "").strip();
            boolean found = switch (label.charAt(0)) {
                case '-' -> leftLines.contains(line);
                case '+' -> rightLines.contains(line);
                default -> leftLines.contains(line) || rightLines.contains(line);
            };
            assertTrue(found, "the tree shows \"" + label + "\", a line the text does not print:\n" + left
                    + "----\n" + right);
        }
        // issue 35: every tensor a row names is spelled as the text beside it spells it, extents included
        // (T3_l_float[iS5{i2}]); a row may order a statement otherwise ("= Set(...) -> T3"), so tensors, not lines
        java.util.regex.Pattern tensor = java.util.regex.Pattern.compile("T\\d+_[a-z]_\\w+\\[[^\\]]*\\]");
        int tensors = 0;
        for (String label : labels) {
            var m = tensor.matcher(label);
            while (m.find()) {
                tensors++;
                String t = m.group();
                boolean found = switch (label.charAt(0)) {
                    case '-' -> left.contains(t);
                    case '+' -> right.contains(t);
                    default -> left.contains(t) || right.contains(t);
                };
                assertTrue(found, "the tree row \"" + label + "\" names " + t + ", which the text does not:\n"
                        + left + "----\n" + right);
            }
        }
        assertTrue(tensors > 0, "no tensor in the tree's rows: " + labels);
    }

    /** The text's statements, one a line: the printer puts a long one's "= op(...)" on a line of its own. */
    private static java.util.Set<String> statements(String text) {
        List<String> out = new java.util.ArrayList<>();
        for (String line : text.lines().map(String::strip).toList()) {
            if (line.startsWith("= ") && !out.isEmpty()) out.set(out.size() - 1, out.getLast() + " " + line);
            else out.add(line);
        }
        return new java.util.HashSet<>(out);
    }

    private static void labels(TreeItem item, List<String> out) {
        out.add(item.getText());
        for (TreeItem child : item.getItems()) labels(child, out);
    }

    private Control root() { return page.getWorkbenchWindow().getShell(); }

    /** Whether {@code c} lies in the Dump view's row of controls (with its Paste button; each field with its label). */
    private boolean inRow(Control c) {
        Control row = button("Paste").getParent();
        for (Control p = c.getParent(); p != null; p = p.getParent()) if (p == row) return true;
        return false;
    }

    /** The Dump view's contents: the smallest ancestor of its program list that holds its fields as well. */
    private static Control viewRoot(Control list) {
        Control c = list;
        while (ViewTestSupport.descendants(c, Spinner.class).isEmpty()) c = c.getParent();
        return c;
    }

    private Button button(String label) {
        return ViewTestSupport.descendants(root(), Button.class).stream().filter(b -> label.equals(b.getText()))
                .filter(Control::isVisible).findFirst().orElseThrow(() -> new AssertionError("no button " + label));
    }

    private <T extends Control> T only(Class<T> type) {
        List<T> found = ViewTestSupport.descendants(root(), type).stream().filter(Control::isVisible).toList();
        assertEquals(1, found.size(), type.getSimpleName() + "s: " + found);
        return found.getFirst();
    }

    private Text field(java.util.function.Predicate<Text> which) {
        return ViewTestSupport.descendants(root(), Text.class).stream().filter(Control::isVisible).filter(which)
                .filter(this::inRow).findFirst()
                .orElseThrow(() -> new AssertionError("no such field in the Dump view"));
    }
}
