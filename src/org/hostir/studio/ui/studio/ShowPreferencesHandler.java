package org.hostir.studio.ui.studio;

import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.jface.preference.PreferenceDialog;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Sash;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.ui.dialogs.PreferencesUtil;
import org.eclipse.ui.handlers.HandlerUtil;

/**
 * Window > Preferences (the workbench's command, its page parameter kept) with a page tree as wide as its longest
 * name. JFace gives the tree 180 px whatever its labels (PreferenceDialog's tree width until a person drags the sash),
 * which cut General > Appearance > "Colors and Fonts" to "Colors and For" (issue 35, driven by hand at 1280 x 800).
 * The dialog is made as the workbench's handler makes it; before it opens, the tree's area gets the width of its
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
        if (dialog.getTreeViewer() != null) widen(dialog);
        dialog.open();
        return null;
    }

    /** Gives the tree's area (the control beside the sash) the tree's widest row, and the dialog the difference. */
    private static void widen(PreferenceDialog dialog) {
        Tree tree = dialog.getTreeViewer().getTree();
        Control area = areaBesideSash(tree);
        if (area == null || !(area.getLayoutData() instanceof GridData data)) return;
        Object[] expanded = dialog.getTreeViewer().getExpandedElements();
        tree.setRedraw(false);
        int need;
        try {
            dialog.getTreeViewer().expandAll();   // rows under collapsed pages count: a person expands them
            need = tree.computeSize(SWT.DEFAULT, SWT.DEFAULT).x + tree.getVerticalBar().getSize().x + SLACK;
            dialog.getTreeViewer().setExpandedElements(expanded);
        } finally {
            tree.setRedraw(true);
        }
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
