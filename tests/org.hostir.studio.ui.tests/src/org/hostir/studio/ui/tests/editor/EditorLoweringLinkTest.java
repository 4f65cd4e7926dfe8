package org.hostir.studio.ui.tests.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.file.Files;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.ir.host.P2PCommunication;
import org.hostir.studio.ui.tests.ShownLowering;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.FusionElement;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.passes.model.PassRow;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Provenance links between the graphical editor and the lowering view, both ways, through the selection service. */
public class EditorLoweringLinkTest {
    @AfterEach
    void close() {
        EditorFixture.closeAll();
    }

    @Test
    void aHostIrNodeSelectsItsOpInTheGraphAndAnOpRevealsItsNodes() throws Exception {
        IFile f = EditorFixture.file("linked.fusion",
                Files.readString(EditorFixture.repo().resolve("examples/seeds/ag_matmul_p2p.fusion")));
        IWorkbenchPage page = EditorFixture.page();
        LoweringView view = (LoweringView) page.showView(LoweringView.ID);
        FusionEditor editor = EditorFixture.open(f);
        ViewTestSupport.join(LoweringView.JOB_FAMILY);
        EditorFixture.spin(200);

        // Host IR node -> graph: the P2P communication came from the fusion's matmul (op 0, output tv2)
        page.activate(view);
        ShownLowering.of(view).selectPass("InsertDeallocations");
        PassRow p2p = ShownLowering.of(view).treeRows().stream().filter(r -> r.node() instanceof P2PCommunication).findFirst()
                .orElseThrow();
        ShownLowering.of(view).tree().setSelection(new StructuredSelection(p2p), true);
        FusionElement published = assertInstanceOf(FusionElement.class,
                ((IStructuredSelection) view.getSite().getSelectionProvider().getSelection()).getFirstElement());
        EditorFixture.spin(800);   // post-selection listeners run after the workbench's delay
        List<String> expected = published.op() >= 0 ? List.of("op:tv2") : List.of(published.tensor());
        assertEquals(expected, ShownGraph.of(editor).selectedKeys(), "the graph selects what the node was lowered from");

        // graph -> Host IR nodes
        page.activate(editor);
        ShownLowering.of(view).tree().setSelection(StructuredSelection.EMPTY);
        editor.select(List.of(FusionElement.op(editor.workspacePath(), 0)));
        EditorFixture.spin(800);
        assertFalse(ShownLowering.of(view).tree().getStructuredSelection().isEmpty(), "the matmul reveals the nodes lowered from it");
    }
}
