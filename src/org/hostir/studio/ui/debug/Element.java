package org.hostir.studio.ui.debug;

import org.eclipse.debug.core.model.DebugElement;
import org.eclipse.debug.core.model.IDebugTarget;

/** What every element of the Host IR debug model shares: its model id and its run. */
abstract class Element extends DebugElement {
    Element(IDebugTarget target) { super(target); }

    @Override
    public String getModelIdentifier() { return NodeBreakpoint.MODEL_ID; }
}
