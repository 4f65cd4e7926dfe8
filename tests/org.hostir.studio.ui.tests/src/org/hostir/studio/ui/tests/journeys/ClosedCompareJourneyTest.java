package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.core.runtime.ILogListener;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Platform;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.custom.CTabItem;
import org.eclipse.ui.IViewPart;
import org.hostir.studio.ui.HostIrPreferences;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * A view with a text compare closed before it compared anything (issue 35, driven by hand; the clean-clone CI's
 * workspace log had it too): the Lowering view opened with no fusion editor, or the nvFuser Dump view with no dump,
 * closed again by a middle click on its tab. Eclipse Compare's viewer logged "Unhandled event loop exception"
 * (a NullPointerException in TextMergeViewer.handleDispose): it meets its contributors only with a first input.
 */
public class ClosedCompareJourneyTest extends JourneyTest {

    @Test
    public void theLoweringViewClosedBeforeAnyFusionLogsNothing() throws Exception {
        page.closeAllEditors(false);
        journey.hide(LoweringView.ID);
        assertEquals(List.of(), closedFresh(LoweringView.ID), "closing the Lowering view logs nothing");
    }

    @Test
    public void theDumpViewClosedBeforeAnyDumpLogsNothing() throws Exception {
        HostIrPreferences.setDumpFile(null);   // nothing shown last time: the view opens empty
        journey.hide(DumpView.ID);
        assertEquals(List.of(), closedFresh(DumpView.ID), "closing the nvFuser Dump view logs nothing");
    }

    /**
     * Opens view {@code id} (Window > Show View's effect), lets the person close it by a middle click on its tab's
     * title, and returns what was logged as an error meanwhile; the view must be gone.
     */
    private List<String> closedFresh(String id) throws Exception {
        IViewPart view = page.showView(id);
        person.settle(500);
        String title = view.getTitle();
        List<String> logged = new ArrayList<>();
        ILogListener listener = (status, plugin) -> {
            if (status.getSeverity() == IStatus.ERROR) logged.add(status.getMessage() + " " + status.getException());
        };
        Platform.addLogListener(listener);
        try {
            middleClickTab(title);
            person.settle(800);
        } finally {
            Platform.removeLogListener(listener);
        }
        assertNull(page.findView(id), "the middle click closed " + title);
        return logged;
    }

    /** The middle button on the tab titled {@code title}, where a person aims: the middle of its title. */
    private void middleClickTab(String title) {
        CTabItem tab = null;
        for (CTabFolder f : ViewTestSupport.descendants(journey.shell(), CTabFolder.class)) {
            for (CTabItem item : f.getItems()) {
                if (item.getText().equals(title) && item.isShowing()) tab = item;
            }
        }
        assertNotNull(tab, "the " + title + " view's tab");
        person.clickTab(tab, 2);
    }
}
