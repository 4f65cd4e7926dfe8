package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.help.HelpSystem;
import org.eclipse.help.IContext;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.custom.CTabItem;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.IPageLayout;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.console.IConsoleConstants;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, Deliver 2 ("F1 context help on each view"): F1 in the platform's views of the Host IR perspective
 * (Properties, Problems, Console, Project Explorer, Outline) showed no help, the platform's documentation not being
 * shipped. A person clicks in each view (below its rows), presses F1, and the Help view shows the Studio's topic for that view:
 * its description and the link to its section of docs/views.md. The context ids are those the platform's views set
 * (PropertySheet, the Problems view's help adapter, ConsoleView, the Project Explorer's viewer, ContentOutline).
 */
public class PlatformViewHelpJourneyTest extends JourneyTest {
    private static final String HELP_VIEW = "org.eclipse.help.ui.HelpView";

    /** A view, the title of its tab, the context id it sets, and the section of docs/views.md it is described in. */
    private record Case(String viewId, String tab, String contextId, String anchor) {}

    private static final List<Case> CASES = List.of(
            new Case(IPageLayout.ID_PROP_SHEET, "Properties", "org.eclipse.ui.property_sheet_view_context", "properties-view"),
            new Case(IPageLayout.ID_PROBLEM_VIEW, "Problems", "org.eclipse.ui.problem_view_context", "problems-view"),
            new Case(IConsoleConstants.ID_CONSOLE_VIEW, "Console", "org.eclipse.ui.console.console_view_context", "console-view"),
            new Case(IPageLayout.ID_PROJECT_EXPLORER, "Project Explorer", "org.eclipse.ui.project_explorer_context", "project-explorer"),
            new Case(IPageLayout.ID_OUTLINE, "Outline", "org.eclipse.ui.content_outline_context", "outline-view"));

    @Test
    public void f1InEachPlatformViewShowsTheStudiosTopic() throws Exception {
        journey.openSeed("platform-help", "ag_matmul_p2p", "platform-help.fusion");   // Properties and Outline show it
        person.settle(500);
        List<String> failures = new ArrayList<>();
        for (Case c : CASES) {
            String failure = f1In(c);
            if (failure != null) failures.add(failure);
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /** F1 in the view of {@code c}, by a click on its tab; null when the Help view shows its topic, else why not. */
    private String f1In(Case c) throws Exception {
        IContext context = HelpSystem.getContext(c.contextId());
        if (context == null || context.getRelatedTopics().length == 0) return c.tab() + ": no help context " + c.contextId();
        String href = context.getRelatedTopics()[0].getHref();
        if (!href.startsWith("/org.hostir.studio/docs/views.html#" + c.anchor())) return c.tab() + ": its topic is " + href;
        journey.hide(HELP_VIEW);
        IViewPart view = page.showView(c.viewId());
        person.settle(300);
        page.activate(page.getActiveEditor());   // away (the editor area is no view's stack), so the click activates it
        person.settle(300);
        Control content = content(tab(c.tab()));
        // below its rows, above any horizontal scroll bar (a click on one neither focuses nor activates the view,
        // Properties' and Problems' wide columns have one): selects nothing, drags nothing
        var inside = content instanceof org.eclipse.swt.widgets.Scrollable s ? s.getClientArea()
                : new org.eclipse.swt.graphics.Rectangle(0, 0, content.getSize().x, content.getSize().y);
        person.click(content, inside.x + 12, inside.y + inside.height - 8);
        person.settle(300);
        if (page.getActivePart() != view) return c.tab() + ": the click in it did not activate it";
        person.press(SWT.F1);   // Show Context Help: the Help view, on the part in focus
        String label = context.getRelatedTopics()[0].getLabel();
        String shown = "";
        for (long end = System.currentTimeMillis() + 20_000; System.currentTimeMillis() < end; ) {
            person.settle(250);
            shown = helpViewText();
            if (shown.contains(label)) break;
        }
        ViewTestSupport.screenshot(journey.shell(), "f1-" + c.anchor() + ".png");
        journey.hide(HELP_VIEW);
        String description = context.getText().substring(0, 40);
        if (!shown.contains(label) || !shown.contains(description)) {
            return c.tab() + ": the Help view shows \"" + shown.replace('\n', ' ') + "\", not \"" + label + "\"";
        }
        return null;
    }

    /**
     * What a person clicks in to work in the view: its tree, table or text, the largest one (a click on the tab
     * itself can start dragging the view).
     */
    private static Control content(CTabItem tab) {
        Control part = tab.getControl();
        assertNotNull(part, "the tab " + tab.getText() + " holds no control");
        Control best = part;
        int area = 0;
        for (Class<? extends Control> kind : List.of(org.eclipse.swt.widgets.Tree.class, org.eclipse.swt.widgets.Table.class,
                org.eclipse.swt.custom.StyledText.class)) {
            for (Control c : ViewTestSupport.descendants(part, kind)) {
                var size = c.getSize();
                if (c.isVisible() && size.x * size.y > area) {
                    best = c;
                    area = size.x * size.y;
                }
            }
            if (area > 0) return best;
        }
        return best;
    }

    /** The tab titled {@code title} among the workbench window's part stacks. */
    private CTabItem tab(String title) {
        for (CTabFolder folder : ViewTestSupport.descendants(journey.shell(), CTabFolder.class)) {
            if (!folder.isVisible()) continue;
            for (CTabItem item : folder.getItems()) if (title.equals(item.getText())) return item;
        }
        throw new AssertionError("no tab " + title);
    }

    /** What the Help view's forms show (their text as the forms give it to screen readers); "" while it is closed. */
    private String helpViewText() throws Exception {
        IViewPart help = page.findView(HELP_VIEW);
        if (help == null) return "";
        StringBuilder out = new StringBuilder();
        for (Control c : ViewTestSupport.descendants(journey.shell(), Control.class)) {
            if (!c.isVisible() || !c.getClass().getName().equals("org.eclipse.ui.forms.widgets.FormText")) continue;
            var field = c.getClass().getDeclaredField("model");
            field.setAccessible(true);
            Object model = field.get(c);
            out.append(model.getClass().getMethod("getAccessibleText").invoke(model)).append('\n');
        }
        return out.toString();
    }
}
