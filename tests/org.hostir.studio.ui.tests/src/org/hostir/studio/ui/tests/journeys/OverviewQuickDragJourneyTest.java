package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.runtime.ILogListener;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Platform;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.IPageLayout;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.FusionOutlinePage;
import org.hostir.studio.ui.editor.GraphViewer;
import org.hostir.studio.ui.tests.ShownGraph;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, found driving the Studio by hand with xdotool: with the editor the active part, a hand that moves onto
 * the Outline's overview and presses at once, then drags, logged a NullPointerException at each step of the drag
 * (Draw2d's thumbnail got the drag without its press). The drags of EditorIntegrationJourneyTest rest the pointer
 * before pressing and pressed the overview's rectangle first, which hid it.
 */
public class OverviewQuickDragJourneyTest extends JourneyTest {

    @Test
    public void aQuickDragOnTheOverviewOfAFreshOutlineLogsNothing() throws Exception {
        FusionEditor e = journey.openSeedBesideOutline("overview-drag", "ag_matmul_p2p", "quick-drag.fusion");
        person.settle(1000);   // the overview is drawn once the graph rests
        GraphViewer g = ShownGraph.of(e);
        person.click(g.getControl(), g.center("tv1"), 0);   // the editor is the active part, as after editing
        FusionOutlinePage outline = ShownGraph.outlinePage(e);
        assertNotNull(outline, "the Outline shows the editor's page");
        Control overview = outline.overview();
        int[] box = outline.viewportBox();
        assertNotNull(box, "the overview shows its viewport rectangle");

        List<String> logged = new ArrayList<>();
        ILogListener listener = (status, plugin) -> {
            if (status.getSeverity() == IStatus.ERROR) logged.add(status.getMessage() + " " + status.getException());
        };
        Platform.addLogListener(listener);
        try {
            person.quickDrag(overview, box[0] + box[2] / 2, box[1] + box[3] / 2, box[0] + box[2] / 2 + 30,
                    box[1] + box[3] / 2 + 15);
            person.settle(300);
        } finally {
            Platform.removeLogListener(listener);
        }
        assertEquals(List.of(), logged, "a quick drag on the overview logs nothing");
        journey.hide(IPageLayout.ID_OUTLINE);
    }
}
