package org.hostir.studio.ui.studio;

import java.util.List;

import org.eclipse.e4.ui.model.application.ui.advanced.MPerspective;
import org.eclipse.e4.ui.model.application.ui.basic.MWindow;
import org.eclipse.e4.ui.workbench.modeling.EModelService;
import org.eclipse.ui.IPerspectiveDescriptor;
import org.eclipse.ui.IWorkbench;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PerspectiveAdapter;

/**
 * File > New > Fusion first in every perspective, as in the Host IR perspective and in the Project Explorer's New
 * (which lists it first whatever the perspective, plugin.xml's commonWizard group). Other perspectives get the
 * shortcut from plugin.xml's perspectiveExtension, which the workbench appends after the perspective's own: the
 * Resource perspective listed Folder, File, Untitled Text File, then Fusion (issue 35, driven by hand). The shortcuts
 * are the perspective's "persp.newWizSC:" tags in menu order (WorkbenchPage.getNewWizardShortcuts, shown unsorted by
 * File > New), so the Fusion tag is moved before the first of them when a perspective opens, shows or is reset.
 */
final class NewWizardOrder extends PerspectiveAdapter implements WindowOpened {
    /** The workbench's tag prefix of a new wizard shortcut (ModeledPageLayout.NEW_WIZARD_TAG). */
    static final String TAG = "persp.newWizSC:";
    private static final String FUSION = TAG + HostIrPerspective.NEW_FUSION_WIZARD;

    private NewWizardOrder() {}

    /** Keeps Fusion first in the open windows' perspectives and in those of windows opened later. */
    static void install(IWorkbench workbench) {
        NewWizardOrder order = new NewWizardOrder();
        workbench.addWindowListener(order);
        for (IWorkbenchWindow w : workbench.getWorkbenchWindows()) order.windowOpened(w);
    }

    /** Moves the Fusion shortcut before the first other one; false if there was nothing to move. */
    static boolean fusionFirst(List<String> tags) {
        int fusion = tags.indexOf(FUSION);
        int first = -1;
        for (int i = 0; i < tags.size() && first < 0; i++) if (tags.get(i).startsWith(TAG)) first = i;
        if (fusion <= first || first < 0) return false;
        tags.add(first, tags.remove(fusion));
        return true;
    }

    private static void order(IWorkbenchPage page) {
        IWorkbenchWindow window = page.getWorkbenchWindow();
        EModelService models = window.getService(EModelService.class);
        MWindow model = window.getService(MWindow.class);
        MPerspective perspective = models == null || model == null ? null : models.getActivePerspective(model);
        if (perspective != null) fusionFirst(perspective.getTags());
    }

    @Override
    public void windowOpened(IWorkbenchWindow window) {
        window.addPerspectiveListener(this);
        if (window.getActivePage() != null) order(window.getActivePage());
    }

    @Override
    public void perspectiveActivated(IWorkbenchPage page, IPerspectiveDescriptor perspective) { order(page); }

    @Override
    public void perspectiveChanged(IWorkbenchPage page, IPerspectiveDescriptor perspective, String changeId) {
        if (IWorkbenchPage.CHANGE_RESET_COMPLETE.equals(changeId)) order(page);
    }

    @Override
    public void windowClosed(IWorkbenchWindow window) { window.removePerspectiveListener(this); }
}
