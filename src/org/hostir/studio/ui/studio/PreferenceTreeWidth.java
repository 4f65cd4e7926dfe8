package org.hostir.studio.ui.studio;

import org.eclipse.jface.preference.PreferenceDialog;
import org.eclipse.jface.viewers.ILabelProvider;
import org.eclipse.jface.viewers.ITreeContentProvider;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Sash;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;

/**
 * The page tree of a preference dialog (Window > Preferences, a resource's Properties) as wide as its longest page
 * name. JFace lays the tree's area out with a fixed width hint (PreferenceDialog's 180 px, whatever the labels), so at
 * 1280 x 800 "Colors and Fonts" and "Large File Associations" were cut (issue 35). A command handler for Window >
 * Preferences did not help (round 19: the workbench's own handler opened the dialog), so the Studio watches every
 * shell that shows: for one whose data is a {@link PreferenceDialog}, once the tree is laid out, the area's width hint
 * (the control beside the dialog's sash) grows by what the longest name lacks, counting the pages not yet expanded at
 * their depth, and the shell grows by as much, kept on its monitor. An expanded page is measured again from its rows.
 */
final class PreferenceTreeWidth {
    /** Room after a name's end, as the tree leaves before its first column's edge. */
    static final int PAD = 12;

    private PreferenceTreeWidth() {}

    /** From now on, on the UI thread. */
    static void install(Display display) {
        display.addFilter(SWT.Show, e -> {
            if (e.widget instanceof Shell shell && shell.getData() instanceof PreferenceDialog dialog)
                display.asyncExec(() -> watch(dialog, TRIES));
        });
    }

    /** How often the first fit waits {@value #WAIT_MS} ms for GTK to place the rows. */
    static final int TRIES = 20;
    static final int WAIT_MS = 50;

    private static void watch(PreferenceDialog dialog, int tries) {
        TreeViewer viewer = dialog.getTreeViewer();
        if (viewer == null || viewer.getControl().isDisposed()) return;
        Tree tree = viewer.getTree();
        if (tree.getItemCount() > 0 && tree.getItem(0).getBounds().width == 0 && tries > 0) {
            tree.getDisplay().timerExec(WAIT_MS, () -> watch(dialog, tries - 1));
            return;
        }
        fit(viewer);
        // a page the person opens: its rows measured once GTK has placed them
        tree.addListener(SWT.Expand, e -> tree.getDisplay().asyncExec(() -> fit(viewer)));
    }

    /** Widens the tree's area (never narrows it) so that every page's name ends inside the tree. */
    static void fit(TreeViewer viewer) {
        Tree tree = viewer.getTree();
        if (tree.isDisposed() || tree.getItemCount() == 0) return;
        Control area = sashNeighbour(tree);
        if (area == null || !(area.getLayoutData() instanceof GridData data)) return;
        int lacking = widestEnd(viewer) + PAD - tree.getClientArea().width;
        if (lacking <= 0) return;
        data.widthHint = Math.max(data.widthHint, area.getSize().x) + lacking;
        Shell shell = tree.getShell();
        Rectangle bounds = shell.getBounds();
        Rectangle screen = shell.getMonitor().getClientArea();
        int width = Math.min(bounds.width + lacking, screen.width);
        int x = Math.max(screen.x, Math.min(bounds.x, screen.x + screen.width - width));
        shell.setBounds(x, bounds.y, width, bounds.height);
        shell.layout(true, true);
    }

    /** The tree's ancestor that JFace gives the width hint: the one whose parent also holds the dialog's sash. */
    private static Control sashNeighbour(Control tree) {
        for (Control c = tree; c.getParent() != null; c = c.getParent()) {
            for (Control sibling : c.getParent().getChildren()) if (sibling instanceof Sash) return c;
        }
        return null;
    }

    /**
     * Where the longest name ends, in the tree's coordinates: shown rows from their bounds; every page under a row
     * that is not expanded at its row's indent plus one level per depth (a level as wide as the first level's indent,
     * or as a shown child is indented from its parent).
     */
    static int widestEnd(TreeViewer viewer) {
        Tree tree = viewer.getTree();
        GC gc = new GC(tree);
        try {
            int level = levelIndent(tree.getItems());
            int end = 0;
            for (TreeItem item : tree.getItems()) end = Math.max(end, end(viewer, gc, item, level));
            return end;
        } finally {
            gc.dispose();
        }
    }

    private static int end(TreeViewer viewer, GC gc, TreeItem item, int level) {
        int x = item.getBounds().x;
        int end = x + gc.textExtent(item.getText()).x;
        if (item.getExpanded()) {
            for (TreeItem child : item.getItems()) end = Math.max(end, end(viewer, gc, child, level));
        } else if (item.getData() != null) {
            end = Math.max(end, hiddenEnd(viewer, gc, item.getData(), x + level, level));
        }
        return end;
    }

    /** Pages under {@code element}, not shown yet, at indent {@code x} and deeper. */
    private static int hiddenEnd(TreeViewer viewer, GC gc, Object element, int x, int level) {
        if (!(viewer.getContentProvider() instanceof ITreeContentProvider pages)
                || !(viewer.getLabelProvider() instanceof ILabelProvider names)) return 0;
        int end = 0;
        for (Object page : pages.getChildren(element)) {
            String name = names.getText(page);
            end = Math.max(end, x + gc.textExtent(name == null ? "" : name).x);
            end = Math.max(end, hiddenEnd(viewer, gc, page, x + level, level));
        }
        return end;
    }

    /** One level's indent: a shown child's offset from its parent, else the first level's own indent. */
    private static int levelIndent(TreeItem[] items) {
        for (TreeItem item : items) {
            if (item.getExpanded() && item.getItemCount() > 0 && item.getItems()[0].getData() != null)
                return item.getItems()[0].getBounds().x - item.getBounds().x;
        }
        return items.length == 0 ? 0 : Math.max(items[0].getBounds().x, 16);
    }
}
