package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Tree;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.PassInspector;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, Deliver 7: search in the Lowering view's program tree, by keys. Ctrl+F in the view opens a find bar over
 * the tree; typing selects the first row whose text holds the word and says "1 of N", Enter goes to the next, a word
 * found nowhere says "not found", Esc closes the bar and gives the keyboard back to the tree.
 */
public class LoweringFindJourneyTest extends JourneyTest {

    @Test
    public void ctrlFFindsANodeInTheProgramTree() throws Exception {
        journey.openSeed("lowering-find", "ag_matmul_p2p", "find.fusion");
        LoweringView view = journey.show(LoweringView.ID);
        journey.waitForLowering();
        PassInspector inspector = ShownLowering.of(view);
        inspector.selectPass(inspector.visibleEntries().getLast().step().pass());   // the final program
        person.settle(200);
        Tree tree = inspector.tree().getTree();
        person.click(tree, 30, tree.getHeaderHeight() + tree.getItemHeight() / 2);
        person.press(SWT.CTRL, 'f');
        assertNotNull(inspector.findField(), "Ctrl+F opened the find bar");
        assertSame(inspector.findField(), person.focus(), "the find field has the keyboard");

        List<PassRow> matmuls = inspector.treeRows().stream()
                .filter(r -> r.text().toLowerCase(Locale.ROOT).contains("matmul")).toList();
        assertTrue(!matmuls.isEmpty(), "the final program has a matmul row: " + inspector.treeRows());
        person.type("matmul", 40);
        person.settle(100);
        assertSame(matmuls.get(0), inspector.tree().getStructuredSelection().getFirstElement(), "the first match");
        assertTrue(tree.getSelection()[0].getText().contains(matmuls.get(0).text()), "the tree shows it selected");
        assertEquals("1 of " + matmuls.size(), inspector.findCount());
        person.press(SWT.CR);
        assertSame(matmuls.get(1 % matmuls.size()), inspector.tree().getStructuredSelection().getFirstElement(),
                "Enter: the next match");
        assertEquals((1 % matmuls.size() + 1) + " of " + matmuls.size(), inspector.findCount());
        ViewTestSupport.screenshot(journey.shell(), "lowering-find.png");

        person.type("qqq", 40);
        assertEquals("not found", inspector.findCount(), "a word found nowhere");
        person.press(SWT.ESC);
        assertNull(inspector.findField(), "Esc closed the bar");
        assertSame(tree, person.focus(), "and gave the keyboard back to the tree");
    }
}
