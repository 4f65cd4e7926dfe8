package org.hostir.studio.ui;

import org.eclipse.jface.action.IContributionItem;
import org.eclipse.ui.IPartListener2;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPartReference;

/**
 * A view toolbar's tooltips name their keys (the Timeline's Fit (Ctrl+0), the Lowering view's Next pass (F6))
 * whenever the view is the active part. The workbench adds a command's key to a tool item's tooltip when it updates
 * the item, and only a key of an active context: each view's keys are in its own context, active while the view is.
 * A view made while another part was active (restored on top of its folder at the start, shown by a run) kept its
 * tooltips without keys, and clicking into it changed nothing (issue 35, rounds 17 and 18: "the keys appear only
 * sometimes"). So each time the view becomes active, once its context is, the toolbar's items are updated. One
 * listener for every view with keyed toolbar actions (issue 35, round 19: the Lowering view had its own copy).
 */
public final class ToolTipKeys implements IPartListener2 {
    private final IViewPart view;

    private ToolTipKeys(IViewPart view) { this.view = view; }

    /** Listens to {@code view}'s page until {@link #uninstall}. */
    public static ToolTipKeys install(IViewPart view) {
        ToolTipKeys keys = new ToolTipKeys(view);
        view.getSite().getPage().addPartListener(keys);
        return keys;
    }

    /** Stops listening; the view calls it from its {@code dispose}. */
    public void uninstall() {
        var page = view.getSite().getPage();
        if (page != null) page.removePartListener(this);
    }

    @Override
    public void partActivated(IWorkbenchPartReference ref) {
        if (ref.getPart(false) != view) return;
        // after the activation's own work: the view's key context is active by then
        view.getSite().getShell().getDisplay().asyncExec(this::updateItems);
    }

    private void updateItems() {
        // the workbench may have closed the view (or be closing) since the activation
        var page = view.getSite().getPage();
        if (page == null || page.getActivePart() != view) return;
        for (IContributionItem item : view.getViewSite().getActionBars().getToolBarManager().getItems()) item.update();
    }
}
