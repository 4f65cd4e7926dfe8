package org.hostir.studio.ui.debug;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.core.commands.ExecutionException;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.handlers.HandlerUtil;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.exec.debug.StopText;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.ui.HostIrNodeElement;
import org.hostir.studio.ui.LoweringShown;

/**
 * Toggle Host IR Breakpoint (Ctrl+Shift+B in the Lowering view): on the node selected in the final program (the
 * view publishes it as a {@link HostIrNodeElement}), a breakpoint on every rank and iteration, or off again.
 */
public final class ToggleNodeBreakpoint extends AbstractHandler {
    @Override
    public Object execute(ExecutionEvent event) throws ExecutionException {
        IWorkbenchPart part = HandlerUtil.getActivePart(event);
        if (!(HandlerUtil.getCurrentSelection(event) instanceof IStructuredSelection s)) return null;
        HostIrNodeElement node = null;
        for (Object o : s.toList()) if (o instanceof HostIrNodeElement n) node = n;
        if (node == null || node.file() == null) return null;
        IFile file = ResourcesPlugin.getWorkspace().getRoot().getFile(
                org.eclipse.core.runtime.Path.fromPortableString(node.file()));
        try {
            toggle(file, node.nodeId(), label(file, node, part == null ? null : part.getAdapter(LoweringShown.class)));
        } catch (CoreException e) {
            throw new ExecutionException("cannot toggle the breakpoint: " + e.getMessage(), e);
        }
        return null;
    }

    /** Removes the file's breakpoints on {@code nodeId}, or adds one when it has none. */
    public static void toggle(IFile file, int nodeId, String label) throws CoreException {
        boolean removed = false;
        for (NodeBreakpoint b : RunTarget.allBreakpoints(file)) {
            if (b.nodeId() == nodeId) {
                b.delete();
                removed = true;
            }
        }
        if (!removed) NodeBreakpoint.create(file, nodeId, -1, -1, label);
    }

    /** {@code P2PCommunication 12} from the program the Lowering view shows; {@code node 12} when it cannot say. */
    private static String label(IFile file, HostIrNodeElement node, LoweringShown shown) {
        Optional<String> named = Optional.empty();
        if (shown != null && file.getLocation() != null) {
            try {
                var loaded = Engine.load(new FusionSource.File(Path.of(file.getLocation().toOSString()), node.file()),
                        shown.devices(), Map.of());
                HostIrContainer program = Engine.lowerRank(loaded, LoweringOptions.parse(shown.options()), node.rank());
                named = Optional.of(StopText.node(program, node.nodeId()));
            } catch (EngineFailure | RuntimeException e) {
                named = Optional.empty(); // the file changed or does not lower now: the id still names the node
            }
        }
        return named.orElse("node " + node.nodeId());
    }
}
