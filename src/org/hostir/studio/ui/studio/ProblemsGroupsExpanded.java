package org.hostir.studio.ui.studio;

import java.io.StringReader;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.eclipse.e4.ui.model.application.ui.basic.MPart;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.IMemento;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IPartListener2;
import org.eclipse.ui.IPropertyListener;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbench;
import org.eclipse.ui.IWorkbenchPartConstants;
import org.eclipse.ui.IWorkbenchPartReference;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.WorkbenchException;
import org.eclipse.ui.XMLMemento;

/**
 * The Problems view's groups that its memento names expanded ({@link ProblemsViewDefaults}), expanded as they first
 * appear. The view reads that list once, at its first update, and matches it against the groups it has then: a view
 * opened before its markers were gathered kept "Errors (3 items)" collapsed (issue 35). Each group is opened once per
 * view, as a person's click on its arrow does (the Expand event the view records and the viewer fills the group
 * on): the view then keeps it open itself, and a person's collapse is the view's to remember.
 */
final class ProblemsGroupsExpanded implements IPartListener2 {
    private static final ProblemsGroupsExpanded INSTANCE = new ProblemsGroupsExpanded();
    /** Each opened Problems view's listener while it still has groups to open (UI thread only). */
    private final Map<IViewPart, IPropertyListener> listening = new HashMap<>();

    private ProblemsGroupsExpanded() {}

    /** Follows the Problems view in every window, those opened later too. */
    static void install(IWorkbench workbench) {
        for (IWorkbenchWindow w : workbench.getWorkbenchWindows()) w.getPartService().addPartListener(INSTANCE);
        workbench.addWindowListener((WindowOpened) w -> w.getPartService().addPartListener(INSTANCE));
    }

    @Override
    public void partOpened(IWorkbenchPartReference ref) {
        if (!IPageLayout.ID_PROBLEM_VIEW.equals(ref.getId()) || !(ref.getPart(false) instanceof IViewPart view)) return;
        if (!(view.getSite().getSelectionProvider() instanceof TreeViewer viewer)) return;
        Set<String> pending = expandedIn(view.getSite().getService(MPart.class));
        if (pending.isEmpty()) return;
        open(viewer.getTree(), pending);
        if (pending.isEmpty()) return;
        // each update of the view's tree ends with its summary line ("3 errors, 0 warnings, 0 others"); the
        // listener goes once every pending group is open, or with the view
        IPropertyListener updated = (source, property) -> {
            if (property != IWorkbenchPartConstants.PROP_CONTENT_DESCRIPTION) return;
            open(viewer.getTree(), pending);
            if (pending.isEmpty()) stopListening(view);
        };
        listening.put(view, updated);
        view.addPropertyListener(updated);
    }

    @Override
    public void partClosed(IWorkbenchPartReference ref) {
        if (ref.getPart(false) instanceof IViewPart view) stopListening(view);
    }

    private void stopListening(IViewPart view) {
        IPropertyListener updated = listening.remove(view);
        if (updated != null) view.removePropertyListener(updated);
    }

    /** The groups the view's memento lists under "expanded", by name ("Errors"). */
    static Set<String> expandedIn(MPart part) {
        Set<String> names = new HashSet<>();
        String text = part == null ? null : part.getPersistedState().get(ProblemsViewDefaults.MEMENTO_KEY);
        if (text == null) return names;
        try {
            IMemento expanded = XMLMemento.createReadRoot(new StringReader(text)).getChild(ProblemsViewDefaults.EXPANDED);
            if (expanded != null) {
                for (IMemento c : expanded.getChildren(ProblemsViewDefaults.CATEGORY)) names.add(c.getID());
            }
        } catch (WorkbenchException e) {
            return names;   // no memento to honour
        }
        return names;
    }

    /** Opens the pending groups the tree shows, each once: "Errors (3 items)" is group Errors. */
    private static void open(Tree tree, Set<String> pending) {
        if (tree.isDisposed()) return;
        for (TreeItem item : tree.getItems()) {
            String label = item.getText(0);
            String name = label.contains(" (") ? label.substring(0, label.indexOf(" (")) : label;
            if (!pending.remove(name) || item.getExpanded()) continue;
            Event click = new Event();
            click.item = item;
            tree.notifyListeners(SWT.Expand, click);
            item.setExpanded(true);
        }
    }
}
