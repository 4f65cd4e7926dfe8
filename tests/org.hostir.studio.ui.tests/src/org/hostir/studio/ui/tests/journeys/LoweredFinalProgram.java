package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Tree;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.PassInspector;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.input.Person;

/**
 * A seed's final program in the Lowering view, as the find journeys start from it: the seed opened in a file of its
 * own, the view shown, its lowering waited for and the last pass chosen; and the find bar over the program tree,
 * opened by a click on the tree's first row and Ctrl+F.
 */
final class LoweredFinalProgram {
    private LoweredFinalProgram() {}

    /** Opens seed {@code seed} as {@code project}/{@code as} and shows its final program; the view's lists. */
    static PassInspector shown(Journey journey, String project, String seed, String as) throws Exception {
        journey.openSeed(project, seed, as);
        LoweringView view = journey.show(LoweringView.ID);
        journey.waitForLowering();
        PassInspector inspector = ShownLowering.of(view);
        inspector.selectPass(inspector.visibleEntries().getLast().step().pass());
        journey.person().settle(200);
        return inspector;
    }

    /** Gives the program tree the keyboard by a click on its first row, presses Ctrl+F; the tree, its find bar open. */
    static Tree openFindInTree(Person person, PassInspector inspector) {
        Tree tree = inspector.tree().getTree();
        person.click(tree, 30, tree.getHeaderHeight() + tree.getItemHeight() / 2);
        person.press(SWT.CTRL, 'f');
        assertNotNull(inspector.findField(), "Ctrl+F opened the find bar");
        return tree;
    }
}
