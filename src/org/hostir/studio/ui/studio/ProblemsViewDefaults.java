package org.hostir.studio.ui.studio;

import java.io.IOException;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.core.runtime.ILog;
import org.eclipse.e4.ui.model.application.MApplication;
import org.eclipse.e4.ui.model.application.descriptor.basic.MPartDescriptor;
import org.eclipse.e4.ui.model.application.ui.MUIElement;
import org.eclipse.e4.ui.model.application.ui.basic.MPart;
import org.eclipse.e4.ui.model.application.ui.basic.MWindow;
import org.eclipse.e4.ui.workbench.modeling.EModelService;
import org.eclipse.ui.IMemento;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.XMLMemento;

/**
 * The Problems view as the Studio first shows it: its Errors and Warnings groups expanded and a Description column
 * that reads a fusion's error. Eclipse's own first look, the groups collapsed ("Errors (1 item)") and the
 * description cut after a few words, showed a person no error text (issue 35). The view keeps both in its memento,
 * which the workbench hands it from the view's part; so the Studio's defaults are such a memento, given to the
 * window's shared Problems part before the perspective places it (the workbench reads a view's memento when it makes
 * the view's reference) and only where the part has none: from its first showing on, the view saves a person's own
 * widths and groups there, and a restart or Reset Perspective keeps them.
 */
final class ProblemsViewDefaults {
    /** The compatibility layer's key of a 3.x view's memento in its part's persisted state. */
    static final String MEMENTO_KEY = "memento";
    /** The marker views' memento tags for the expanded groups and the column widths (ExtendedMarkersView's). */
    static final String EXPANDED = "expanded", CATEGORY = "category", COLUMN_WIDTHS = "columnWidths";
    /** The severity grouping's labels, by which the view names an expanded group (org.eclipse.ui.ide's, English). */
    static final List<String> GROUPS = List.of("Errors", "Warnings");
    /**
     * The problems generator's visible columns by their marker field ids, in pixels: a fusion's error reads whole
     * in the Description (a matmul's contracted axes that differ, with its rule's name, took 790 px; Eclipse's
     * column was about 200 px wide), the other columns beside it at 1600 x 1000 (the tab about 1310 px wide) and the
     * Location past the edge at 1280 x 800 (about 1040 px).
     */
    static final Map<String, Integer> WIDTHS = widths();

    private ProblemsViewDefaults() {}

    private static Map<String, Integer> widths() {
        Map<String, Integer> w = new LinkedHashMap<>();
        w.put("org.eclipse.ui.ide.severityAndDescriptionField", 850);
        w.put("org.eclipse.ui.ide.resourceField", 110);
        w.put("org.eclipse.ui.ide.pathField", 160);
        w.put("org.eclipse.ui.ide.locationField", 80);
        return w;
    }

    /** Gives every window's Problems part the Studio's defaults where it has no memento yet. */
    static void seed() {
        MApplication app = PlatformUI.getWorkbench().getService(MApplication.class);
        EModelService models = PlatformUI.getWorkbench().getService(EModelService.class);
        if (app == null || models == null) return;
        for (MWindow window : app.getChildren()) {
            MPart part = sharedPart(window, models);
            if (part != null) part.getPersistedState().putIfAbsent(MEMENTO_KEY, memento());
        }
    }

    /** The window's shared Problems part, made from its descriptor where the window has none yet. */
    private static MPart sharedPart(MWindow window, EModelService models) {
        for (MUIElement e : window.getSharedElements()) {
            if (IPageLayout.ID_PROBLEM_VIEW.equals(e.getElementId()) && e instanceof MPart part) return part;
        }
        MPartDescriptor descriptor = models.getPartDescriptor(IPageLayout.ID_PROBLEM_VIEW);
        if (descriptor == null) return null;
        MPart part = models.createPart(descriptor);
        window.getSharedElements().add(part);
        return part;
    }

    /** The defaults as the view's memento text. */
    static String memento() {
        XMLMemento root = XMLMemento.createWriteRoot("view");
        IMemento expanded = root.createChild(EXPANDED);
        for (String group : GROUPS) expanded.createChild(CATEGORY, group);
        IMemento columns = root.createChild(COLUMN_WIDTHS);
        WIDTHS.forEach(columns::putInteger);
        StringWriter text = new StringWriter();
        try {
            root.save(text);
        } catch (IOException e) {
            ILog.of(ProblemsViewDefaults.class).error("cannot write the Problems view's defaults", e);
        }
        return text.toString();
    }
}
