package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.core.runtime.jobs.IJobChangeEvent;
import org.eclipse.core.runtime.jobs.IJobChangeListener;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.core.runtime.jobs.JobChangeAdapter;
import org.eclipse.swt.SWT;
import org.hostir.studio.lower.PassTrace;
import org.hostir.studio.ui.FusionElement;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.passes.LoweringResult;
import org.hostir.studio.ui.passes.LoweringView;
import org.hostir.studio.ui.tests.ShownLowering;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 32, Deliver 1 (the view's part): the Lowering view lowers in a background job once per edit, and only the
 * rank it shows. The jobs of its family are counted as the job manager reports them done: an edit in the fusion
 * editor gives one job that lowers rank 0 alone, saving it gives none (the text did not change), and choosing rank 1
 * gives one more job, which adds rank 1 to what was lowered.
 */
public class LoweringOncePerEditJourneyTest extends JourneyTest {
    private final AtomicInteger jobs = new AtomicInteger();
    private final IJobChangeListener counter = new JobChangeAdapter() {
        @Override
        public void done(IJobChangeEvent event) {
            if (event.getJob().belongsTo(LoweringView.JOB_FAMILY)) jobs.incrementAndGet();
        }
    };

    @AfterEach
    public void stopCounting() {
        Job.getJobManager().removeJobChangeListener(counter);
        journey.hide(LoweringView.ID);
    }

    private static List<Integer> ranks(LoweringView view) {
        PassTrace trace = assertInstanceOf(LoweringResult.Lowered.class, view.result(), ShownLowering.message(view)).trace();
        return trace.ranks().stream().map(PassTrace.RankTrace::rank).toList();
    }

    @Test
    public void anEditIsLoweredOnceForTheRankShown() throws Exception {
        LoweringView view = journey.show(LoweringView.ID);
        FusionEditor e = journey.openSeed("journeys", "ag_matmul_p2p", "once.fusion");
        page.activate(e);
        journey.waitForLowering();
        assertEquals(List.of(0), ranks(view), "opening lowers rank 0 of the 2 devices, not every rank");

        Job.getJobManager().addJobChangeListener(counter);
        e.propertySource(new FusionElement(e.workspacePath(), null, -1)).setPropertyValue("description", "edited once");
        journey.waitForLowering();
        assertEquals(1, jobs.get(), "one edit: one lowering job");
        assertEquals(List.of(0), ranks(view), "of the rank shown only");

        person.press(SWT.CTRL, 's');
        journey.waitForLowering();
        assertFalse(e.isDirty());
        assertEquals(1, jobs.get(), "a save changes no text: nothing is lowered again");

        ShownLowering.selectRank(view, 1);
        journey.waitForLowering();
        assertEquals(2, jobs.get(), "choosing rank 1 lowers it, once");
        assertEquals(List.of(0, 1), ranks(view));
        assertEquals(1, view.getAdapter(org.hostir.studio.ui.passes.PassInspector.class).rank().rank(), "and shows it");
        ShownLowering.selectRank(view, 0); // leave the shared view as the next class expects it
        journey.waitForLowering();
    }
}
