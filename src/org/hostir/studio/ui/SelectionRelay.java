package org.hostir.studio.ui;

import org.eclipse.core.runtime.ListenerList;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.ISelectionChangedListener;
import org.eclipse.jface.viewers.ISelectionProvider;
import org.eclipse.jface.viewers.SelectionChangedEvent;
import org.eclipse.jface.viewers.StructuredSelection;

/**
 * A view's selection provider for the workbench that publishes shared elements rather than the view's own rows:
 * the lowering view publishes {@link FusionElement}s (what a Host IR node came from), the timeline view
 * {@link HostIrNodeElement}s (the node a bar came from), so that other parts follow without knowing the view.
 */
public final class SelectionRelay implements ISelectionProvider {
    private final ListenerList<ISelectionChangedListener> listeners = new ListenerList<>();
    private ISelection selection = StructuredSelection.EMPTY;

    @Override
    public void addSelectionChangedListener(ISelectionChangedListener l) { listeners.add(l); }

    @Override
    public void removeSelectionChangedListener(ISelectionChangedListener l) { listeners.remove(l); }

    @Override
    public ISelection getSelection() { return selection; }

    @Override
    public void setSelection(ISelection s) {
        selection = s == null ? StructuredSelection.EMPTY : s;
        SelectionChangedEvent event = new SelectionChangedEvent(this, selection);
        for (ISelectionChangedListener l : listeners) l.selectionChanged(event);
    }
}
