package org.hostir.studio.ui.debug;

import org.eclipse.debug.core.model.IValue;
import org.eclipse.debug.ui.IDebugModelPresentation;
import org.eclipse.debug.ui.IValueDetailListener;
import org.eclipse.jface.viewers.ILabelProviderListener;
import org.eclipse.swt.graphics.Image;
import org.eclipse.ui.IEditorInput;

/**
 * Labels of the Host IR debug model: a breakpoint by its node, rank and iteration; every other element by its own
 * name (null here: Eclipse's default); a value's detail pane is its summary.
 */
public final class Presentation implements IDebugModelPresentation {
    @Override
    public void setAttribute(String attribute, Object value) { }

    @Override
    public Image getImage(Object element) { return null; }

    @Override
    public String getText(Object element) {
        return element instanceof NodeBreakpoint b ? b.label() : null;
    }

    @Override
    public void computeDetail(IValue value, IValueDetailListener listener) {
        try {
            listener.detailComputed(value, value.getValueString());
        } catch (org.eclipse.debug.core.DebugException e) {
            listener.detailComputed(value, e.getMessage());
        }
    }

    @Override
    public IEditorInput getEditorInput(Object element) { return null; }

    @Override
    public String getEditorId(IEditorInput input, Object element) { return null; }

    @Override
    public void addListener(ILabelProviderListener listener) { }

    @Override
    public void removeListener(ILabelProviderListener listener) { }

    @Override
    public boolean isLabelProperty(Object element, String property) { return false; }

    @Override
    public void dispose() { }
}
