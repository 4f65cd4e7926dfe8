package org.hostir.studio.ui.editor;

import org.eclipse.core.runtime.ListenerList;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.ISelectionChangedListener;
import org.eclipse.jface.viewers.ISelectionProvider;
import org.eclipse.jface.viewers.SelectionChangedEvent;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.hostir.studio.ui.FusionElement;

/** The editor site's selection: FusionElements of the graph page, or the text selection of the source page. */
final class SelectionProvider implements ISelectionProvider {
    private final FusionEditor editor;
    private final ListenerList<ISelectionChangedListener> listeners = new ListenerList<>();

    SelectionProvider(FusionEditor editor) { this.editor = editor; }

    @Override
    public void addSelectionChangedListener(ISelectionChangedListener l) { listeners.add(l); }

    @Override
    public void removeSelectionChangedListener(ISelectionChangedListener l) { listeners.remove(l); }

    @Override
    public ISelection getSelection() { return editor.activeSelection(); }

    @Override
    public void setSelection(ISelection selection) {
        if (selection instanceof IStructuredSelection s) {
            editor.select(s.toList().stream().filter(FusionElement.class::isInstance).map(FusionElement.class::cast).toList());
        }
    }

    void fire() {
        ISelection s = getSelection();
        SelectionChangedEvent e = new SelectionChangedEvent(this, s == null ? StructuredSelection.EMPTY : s);
        for (ISelectionChangedListener l : listeners) l.selectionChanged(e);
    }
}
