package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.passes.PassInspector;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * A matmul's row in the Lowering view's and the nvFuser Dump view's program trees reads as nvFuser prints the
 * statement, on one line: {@code T8_l_float[..] = matmul(T7_l_float[..], T1_g_float[..])}. The rows used to take
 * the print's second line, {@code = matmul(T7..,  -> T8..}: no output first and the second operand lost (hand drive
 * 17, finding 8).
 */
public class TreeRowTextJourneyTest extends JourneyTest {

    @Test
    public void theLoweringTreeShowsTheMatmulFoundByCtrlFOnOneLine() throws Exception {
        PassInspector inspector = LoweredFinalProgram.shown(journey, "tree-row-text", "ag_matmul_p2p", "rowtext.fusion");
        Tree tree = LoweredFinalProgram.openFindInTree(person, inspector);
        person.type("matmul", 40);
        person.settle(100);
        PassRow found = (PassRow) inspector.tree().getStructuredSelection().getFirstElement();
        assertNotNull(found, "typing selected a row");
        assertSame(found, tree.getSelection()[0].getData(), "the tree shows it selected");
        assertReadsAsNvFuserPrintsIt(found, tree.getSelection()[0].getText());
        ViewTestSupport.screenshot(journey.shell(), "tree-row-lowering-matmul.png");
        person.press(SWT.ESC);
    }

    @Test
    public void theDumpTreeShowsAPastedMatmulOnOneLine() throws Exception {
        DumpView view = journey.show(DumpView.ID);
        person.settle(300);   // laid out: its Paste button has a place to click
        try {
            String log = Files.readString(
                    ViewTestSupport.repoFile("examples/dumps/nvfuser-2026-04/test_stream_matmul.log"));
            DumpViewButtons.paste(journey, person, log);
            Tree tree = ViewTestSupport.descendants(journey.shell(), Tree.class).stream()
                    .filter(t -> t.isVisible() && shown(t).stream().anyMatch(i -> i.getData() instanceof PassRow r
                            && view.treeRows().contains(r))).findFirst()
                    .orElseThrow(() -> new AssertionError("no tree of the pasted program: " + view.messageText()));
            TreeItem item = shown(tree).stream().filter(i -> i.getData() instanceof PassRow r && isMatmul(r))
                    .findFirst().orElseThrow(() -> new AssertionError("no matmul row in " + texts(tree)));
            tree.showItem(item);
            person.settle(100);
            assertReadsAsNvFuserPrintsIt((PassRow) item.getData(), item.getText());
            ViewTestSupport.screenshot(journey.shell(), "tree-row-dump-matmul.png");
        } finally {
            journey.hide(DumpView.ID);
        }
    }

    private static boolean isMatmul(PassRow r) {
        return r.node() instanceof HostOp o && o.op() instanceof FusionOp.Matmul;
    }

    /** The item's text, its "+ "/"~ " mark aside: the output, then {@code = matmul(}, both operands, {@code )}. */
    private static void assertReadsAsNvFuserPrintsIt(PassRow row, String shown) {
        assertTrue(isMatmul(row), "a matmul row: " + shown);
        FusionOp.Matmul mm = (FusionOp.Matmul) ((HostOp) row.node()).op();
        String text = shown.substring(2);
        String tensor = "_[a-z]_\\w+\\[[^\\]]*\\]( \\(DeviceMesh\\{[^}]*\\}\\))?";
        String pattern = "T" + mm.output().id() + tensor + " = matmul\\(T" + mm.a().id() + tensor + ", T" + mm.b().id()
                + tensor + "\\)";
        assertTrue(text.matches(pattern), "the row reads [" + text + "], not the statement " + pattern);
    }

    private static List<TreeItem> shown(Tree tree) {
        List<TreeItem> out = new ArrayList<>();
        for (TreeItem i : tree.getItems()) collect(i, out);
        return out;
    }

    private static void collect(TreeItem item, List<TreeItem> out) {
        out.add(item);
        if (item.getExpanded()) for (TreeItem c : item.getItems()) collect(c, out);
    }

    private static List<String> texts(Tree tree) { return shown(tree).stream().map(TreeItem::getText).toList(); }
}
