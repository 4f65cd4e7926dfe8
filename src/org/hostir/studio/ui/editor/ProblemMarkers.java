package org.hostir.studio.ui.editor;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IMarker;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.IWorkspace;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.ILog;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.ui.editor.model.FusionCheck;

/**
 * The fusion editor's check results in the Problems view: one error marker ({@link FusionEditor#MARKER}) per
 * problem on the file, with its rule, line and path and the graph nodes it is about (so that a double-click in the
 * Problems view selects them, {@link FusionEditor#gotoMarker}), all replaced in one workspace operation after every
 * check.
 */
final class ProblemMarkers {
    /** The marker attribute naming the graph nodes of the problem ({@code tv2,op:tv2}): what a double-click selects. */
    static final String NODES = "nodes";
    /** The marker attribute naming the problem's tensor, for quick fixes. */
    static final String TENSOR = "tensor";

    private ProblemMarkers() {}

    /**
     * The markers of the file as saved, for an editor closed with Don't Save: its markers were those of the text
     * it threw away (issue 35: they stayed in Problems, on the file and on the project, across restarts).
     */
    static void updateFromSaved(IFile file, String label) {
        if (file == null || !file.exists()) return;
        try (InputStream in = file.getContents(true)) {
            String text = new String(in.readAllBytes(), file.getCharset());
            FusionCheck.Result checked = FusionCheck.check(text, label);
            update(file, checked.problems(), checked.document());
        } catch (CoreException | IOException e) {
            ILog.of(ProblemMarkers.class).error("could not check the saved " + file, e);
        }
    }

    /** Replaces the markers of {@code file} (nothing when it is null or gone) by one per problem of {@code doc}. */
    static void update(IFile file, List<FusionCheck.Problem> problems, FusionDocument doc) {
        if (file == null || !file.exists()) return;
        try {
            file.getWorkspace().run(monitor -> {
                file.deleteMarkers(FusionEditor.MARKER, true, IResource.DEPTH_ZERO);
                for (FusionCheck.Problem p : problems) {
                    IMarker m = file.createMarker(FusionEditor.MARKER);
                    m.setAttribute(IMarker.SEVERITY, IMarker.SEVERITY_ERROR);
                    m.setAttribute(IMarker.MESSAGE, p.message() + " [" + p.rule() + "]");
                    if (p.line() > 0) m.setAttribute(IMarker.LINE_NUMBER, p.line());
                    m.setAttribute(IMarker.LOCATION, p.line() > 0 ? "line " + p.line() + ", " + p.path() : p.path());
                    m.setAttribute("rule", p.rule());
                    m.setAttribute(NODES, doc == null ? "" : String.join(",", p.nodes(doc))); // no document: the text does not parse
                    if (p.tensor() != null) m.setAttribute(TENSOR, p.tensor());
                }
            }, null, IWorkspace.AVOID_UPDATE, null);
        } catch (CoreException e) {
            ILog.of(ProblemMarkers.class).error("could not update the markers of " + file, e);
        }
    }
}
