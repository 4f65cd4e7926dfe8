package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ShownProperties;
import org.junit.jupiter.api.Test;

/**
 * Finding 6 of the round-17 hand drive: a tensor renamed in Properties and its mesh changed, then Ctrl+Z, Ctrl+Z,
 * Ctrl+Y. The undo of the rename left the graph with no selection and Properties empty (the graph drops selected keys
 * that no longer exist), and the redo showed the new name in Properties with no node selected. After every step the
 * graph's selection and the Properties view must agree, on the tensor being edited under its name of that moment.
 */
public class RenameUndoSelectionJourneyTest extends JourneyTest {
    @Test
    public void undoAndRedoOfARenameKeepTheTensorSelected() throws Exception {
        FusionEditor e = journey.openSeed("renameundo", "ag_matmul_p2p", "renameundo.fusion");
        GraphViewer graph = ShownGraph.of(e);
        person.click(graph.getControl(), graph.center("tv1"), 0);
        Tree props = ShownProperties.show(page, person);
        agree(graph, props, "tv1", "the click on tv1");

        ShownProperties.type(person, props, "Name", "bias");
        agree(graph, props, "bias", "the rename in Properties");
        ShownProperties.type(person, props, "Device mesh", "0");
        agree(graph, props, "bias", "the mesh edit");

        // the keyboard back in the graph, as a person clicks the selected node
        person.click(graph.getControl(), graph.center("bias"), 0);
        agree(graph, props, "bias", "the click on bias in the graph");
        assertTrue(graph.getControl().isFocusControl(), "the graph has the keyboard");

        person.press(SWT.CTRL, 'z');
        agree(graph, props, "bias", "Ctrl+Z (the mesh edit undone)");
        person.press(SWT.CTRL, 'z');
        assertTrue(e.model().tensor("tv1").isPresent(), "the second Ctrl+Z undid the rename");
        agree(graph, props, "tv1", "Ctrl+Z (the rename undone)");
        person.press(SWT.CTRL, 'y');
        assertTrue(e.model().tensor("bias").isPresent(), "Ctrl+Y redid the rename");
        agree(graph, props, "bias", "Ctrl+Y (the rename redone)");
    }

    /** After {@code step}, the graph selects node {@code name} alone and Properties shows it (the sheet follows late). */
    private void agree(GraphViewer graph, Tree props, String name, String step) {
        person.until(4000, () -> graph.selectedKeys().equals(List.of(name)) && name.equals(shownName(props)));
        assertEquals(List.of(name), graph.selectedKeys(), "after " + step + ": the graph's selection");
        assertEquals(name, shownName(props), "after " + step + ": the tensor Properties shows");
    }

    private static String shownName(Tree props) {
        if (props.isDisposed()) return null;
        TreeItem row = ShownProperties.find(props, "Name");
        return row == null ? null : row.getText(1);
    }
}
