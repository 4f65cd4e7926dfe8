package org.hostir.studio.ui.studio;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.jface.preference.PreferenceDialog;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Listener;
import org.eclipse.swt.widgets.Sash;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.dialogs.PreferencesUtil;
import org.eclipse.ui.handlers.HandlerUtil;

/**
 * Window > Preferences (the workbench's command, its page parameter kept) with a page tree as wide as its longest
 * name. JFace gives the tree 180 px whatever its labels (PreferenceDialog's tree width until a person drags the sash),
 * which cut General > Appearance > "Colors and Fonts" to "Colors and For" (issue 35, driven by hand at 1280 x 800).
 * The dialog is made as the workbench's handler makes it; once its tree shows, the tree's area gets the width of its
 * widest row, every page counted, and the dialog grows by as much, within its monitor.
 */
public final class ShowPreferencesHandler extends AbstractHandler {
    /** The workbench command's parameter: the page to show. */
    static final String PAGE = "preferencePageId";
    /** Room beside the widest label (the row's end, GTK's focus frame). */
    private static final int SLACK = 12;

    @Override
    public Object execute(ExecutionEvent event) {
        var window = HandlerUtil.getActiveWorkbenchWindow(event);
        PreferenceDialog dialog = PreferencesUtil.createPreferenceDialogOn(window == null ? null : window.getShell(),
                event.getParameter(PAGE), null, null);
        if (dialog.getTreeViewer() != null) widenOnceShown(dialog);
        dialog.open();
        return null;
    }

    /**
     * Widens the tree after its first paint: GTK places a tree's rows only once it is shown (the rows' bounds are
     * what is measured), so the dialog shows at the platform's width and widens once.
     */
    private static void widenOnceShown(PreferenceDialog dialog) {
        Tree tree = dialog.getTreeViewer().getTree();
        tree.addListener(SWT.Paint, new Listener() {
            @Override
            public void handleEvent(Event e) {
                tree.removeListener(SWT.Paint, this);
                tree.getDisplay().asyncExec(() -> {
                    if (!tree.isDisposed()) widen(dialog, neededShown(dialog));
                });
            }
        });
    }

    /** The right end of the widest row's text, every page expanded, from the shown rows' bounds. */
    private static int neededShown(PreferenceDialog dialog) {
        Tree tree = dialog.getTreeViewer().getTree();
        return expandedWhile(dialog, () -> {
            GC gc = new GC(tree);
            try {
                int right = 0;
                for (TreeItem item : rows(tree.getItems())) {
                    right = Math.max(right, item.getBounds().x + gc.textExtent(item.getText()).x);
                }
                return right + tree.getSize().x - tree.getClientArea().width + SLACK;
            } finally {
                gc.dispose();
            }
        });
    }

    /** {@code measure} with every page expanded (rows under collapsed pages count), the expansion then restored. */
    private static int expandedWhile(PreferenceDialog dialog, IntSupplier measure) {
        Tree tree = dialog.getTreeViewer().getTree();
        Object[] expanded = dialog.getTreeViewer().getExpandedElements();
        tree.setRedraw(false);
        try {
            dialog.getTreeViewer().expandAll();
            return measure.getAsInt();
        } finally {
            dialog.getTreeViewer().setExpandedElements(expanded);
            tree.setRedraw(true);
        }
    }

    private static List<TreeItem> rows(TreeItem[] items) {
        List<TreeItem> out = new ArrayList<>();
        for (TreeItem i : items) {
            out.add(i);
            out.addAll(rows(i.getItems()));
        }
        return out;
    }

    /** Gives the tree's area (the control beside the sash) {@code need} px of tree, and the dialog the difference. */
    private static void widen(PreferenceDialog dialog, int need) {
        Tree tree = dialog.getTreeViewer().getTree();
        Control area = areaBesideSash(tree);
        if (area == null || !(area.getLayoutData() instanceof GridData data)) return;
        int grow = need - tree.getSize().x;
        if (grow <= 0) return;
        Shell shell = dialog.getShell();
        Rectangle bounds = shell.getBounds();
        Rectangle screen = shell.getMonitor().getClientArea();
        grow = Math.min(grow, Math.max(0, screen.width - bounds.width));
        data.widthHint = Math.max(data.widthHint, area.getSize().x) + grow;
        int x = Math.max(screen.x, Math.min(bounds.x - grow / 2, screen.x + screen.width - bounds.width - grow));
        shell.setBounds(x, bounds.y, bounds.width + grow, bounds.height);
        shell.layout(true, true);
    }

    /** The ancestor of the tree that the dialog lays out beside its sash (its width is the tree column's). */
    private static Control areaBesideSash(Tree tree) {
        for (Control c = tree; c.getParent() != null; c = c.getParent()) {
            for (Control sibling : c.getParent().getChildren()) {
                if (sibling instanceof Sash) return c;
            }
        }
        return null;
    }
}
