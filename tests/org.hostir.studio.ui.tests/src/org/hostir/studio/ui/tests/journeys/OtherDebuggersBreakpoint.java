package org.hostir.studio.ui.tests.journeys;

import org.eclipse.core.resources.IMarker;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.model.Breakpoint;
import org.eclipse.debug.core.model.IBreakpoint;

/**
 * An enabled breakpoint of a debug model that is not the Host IR debugger's, as a Java or C breakpoint is in an
 * IDE that has the Studio installed beside JDT or CDT.
 */
final class OtherDebuggersBreakpoint extends Breakpoint {
    static final String MODEL = "org.hostir.studio.tests.otherDebugger";

    static OtherDebuggersBreakpoint on(IResource file) throws CoreException {
        OtherDebuggersBreakpoint b = new OtherDebuggersBreakpoint();
        IMarker marker = file.createMarker(IBreakpoint.BREAKPOINT_MARKER);
        marker.setAttribute(IBreakpoint.ENABLED, true);
        marker.setAttribute(IBreakpoint.ID, MODEL);
        b.setMarker(marker);
        DebugPlugin.getDefault().getBreakpointManager().addBreakpoint(b);
        return b;
    }

    @Override
    public String getModelIdentifier() { return MODEL; }
}
