package org.hostir.studio.ui.editor;

import java.util.Set;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IMarker;
import org.eclipse.core.runtime.ILog;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.IMarkerResolution;
import org.eclipse.ui.IMarkerResolutionGenerator2;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.ide.IDE;
import org.hostir.studio.diag.Rule;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.ui.editor.model.FusionEdits;

/**
 * Quick fixes (Ctrl+1 in the Problems view, or its context menu) for the common mesh problems of a fusion: a tensor
 * with a DID axis but no mesh, a fusion where some tensors have meshes and some not, a mesh naming devices the run
 * does not have, an empty mesh or one listing a device twice. The fix sets the tensor's mesh to {@code all}, as one
 * undoable edit of the fusion editor (the file is opened in it when it is not open).
 */
public final class MeshQuickFixes implements IMarkerResolutionGenerator2 {
    private static final Set<String> RULES = Set.of(Rule.MESH_MISSING.id(), Rule.MESH_MIXED.id(),
            Rule.MESH_DEVICE_RANGE.id(), Rule.MESH_EMPTY.id(), Rule.MESH_DUPLICATE.id());

    @Override
    public boolean hasResolutions(IMarker marker) {
        return RULES.contains(marker.getAttribute("rule", "")) && !marker.getAttribute(ProblemMarkers.TENSOR, "").isEmpty();
    }

    @Override
    public IMarkerResolution[] getResolutions(IMarker marker) {
        if (!hasResolutions(marker)) return new IMarkerResolution[0];
        String tensor = marker.getAttribute(ProblemMarkers.TENSOR, "");
        return new IMarkerResolution[] { new SetMeshToAll(tensor) };
    }

    private record SetMeshToAll(String tensor) implements IMarkerResolution {
        @Override
        public String getLabel() { return "Set the mesh of " + tensor + " to all"; }

        @Override
        public void run(IMarker marker) {
            if (!(marker.getResource() instanceof IFile file)) return;
            try {
                var page = PlatformUI.getWorkbench().getActiveWorkbenchWindow().getActivePage();
                IEditorPart part = IDE.openEditor(page, file, FusionEditor.ID);
                if (!(part instanceof FusionEditor editor)) return;
                editor.commands().edit("Set the mesh of " + tensor + " to all", d -> d.tensor(tensor)
                        .map(t -> FusionEdits.setTensor(d, FusionEdits.withMesh(t, MeshSpec.ALL))).orElse(d));
            } catch (PartInitException e) {
                ILog.of(MeshQuickFixes.class).error("could not open " + file, e);
            }
        }
    }
}
