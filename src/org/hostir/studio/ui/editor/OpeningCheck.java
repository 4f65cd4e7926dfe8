package org.hostir.studio.ui.editor;

import java.util.function.Consumer;

import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.swt.widgets.Display;
import org.hostir.studio.ui.editor.model.FusionCheck;

/**
 * The rest of an opening editor's check: every rank lowered (as {@code hirstudio check}) once the graph of the loaded
 * fusion has been laid out and painted, in a background job, its result handed back on the UI thread. Issue 35: on
 * a 1,000-op fusion the lowering held the UI thread and took the layout's CPU before the first picture. A check
 * made meanwhile (an edit, the Source page) cancels it: its result would be stale.
 */
final class OpeningCheck {
    private final FusionEditor editor;
    private final GraphPage graph;
    private final Consumer<FusionCheck.Result> done;
    /** Bumped by every start and cancel: an answer of an older generation is dropped. */
    private int generation;
    private boolean pending;

    OpeningCheck(FusionEditor editor, GraphPage graph, Consumer<FusionCheck.Result> done) {
        this.editor = editor;
        this.graph = graph;
        this.done = done;
    }

    /** Lowers {@code loaded}'s ranks once the pending layout is applied and painted (the paint runs first). */
    void lowerOnceDrawn(FusionCheck.Loaded loaded) {
        int mine = ++generation;
        pending = true;
        Display display = Display.getCurrent();
        // Draw2d queued its paint of the new places when the layout was applied: an asyncExec after it comes after it
        graph.viewer().whenLaidOut(() -> display.asyncExec(() -> {
            if (mine != generation || editor.isDisposed()) return;
            Job job = Job.create("Checking " + editor.getPartName(), monitor -> {
                FusionCheck.Result r = loaded.lower();
                if (!display.isDisposed()) display.asyncExec(() -> {
                    if (mine != generation || editor.isDisposed()) return;
                    pending = false;
                    done.accept(r);
                });
                return Status.OK_STATUS;
            });
            job.setSystem(true);
            job.schedule();
        }));
    }

    /** Drops the lowering under way, if any (a newer check applies, or the editor closes). */
    void cancel() {
        generation++;
        pending = false;
    }

    boolean pending() { return pending; }
}
