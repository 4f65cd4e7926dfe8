package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.swt.SWT;
import org.eclipse.ui.IPerspectiveDescriptor;
import org.eclipse.ui.PlatformUI;
import org.hostir.studio.ui.studio.HostIrPerspective;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, driven by hand: File > New listed Fusion first in the Host IR perspective but last in the others (the
 * Resource perspective: Folder, File, Untitled Text File, Fusion), while the Project Explorer's New lists it first in
 * every perspective. A person in each other perspective of the product (Resource, Debug, Team Synchronizing) opens
 * File > New by keys, Alt+F then N, and reads Fusion right after Project..., as in the Host IR perspective; the
 * perspective's own wizards follow it. Each is also reset, as Window > Perspective > Reset does, and read again.
 */
public class NewMenuOtherPerspectivesJourneyTest extends JourneyTest {
    @Test
    public void fileNewListsFusionFirstInEveryPerspective() throws Exception {
        var was = page.getPerspective();
        Map<String, List<String>> menus = new LinkedHashMap<>();
        List<String> opened = new ArrayList<>();
        try {
            for (IPerspectiveDescriptor p : PlatformUI.getWorkbench().getPerspectiveRegistry().getPerspectives()) {
                if (p.getId().equals(HostIrPerspective.ID)) continue;
                boolean open = java.util.Arrays.stream(page.getOpenPerspectives()).anyMatch(o -> o.equals(p));
                page.setPerspective(p);
                if (!open) opened.add(p.getId());
                person.settle(300);
                menus.put(p.getLabel(), fileNew(p.getLabel()));
                page.resetPerspective();
                person.settle(300);
                menus.put(p.getLabel() + " after a reset", fileNew(p.getLabel() + "-reset"));
            }
        } finally {
            page.setPerspective(was);
            for (String id : opened) {
                page.closePerspective(PlatformUI.getWorkbench().getPerspectiveRegistry().findPerspectiveWithId(id),
                        false, false);
            }
            person.settle(300);
        }
        System.out.println("File > New by perspective: " + menus);
        assertTrue(menus.keySet().stream().anyMatch(k -> k.startsWith("Resource")), "the Resource perspective was read: "
                + menus.keySet());
        Map<String, String> firsts = new LinkedHashMap<>();
        Map<String, String> expected = new LinkedHashMap<>();
        menus.forEach((p, items) -> {
            firsts.put(p, NewMenusJourneyTest.firstWizard(items));
            expected.put(p, "Fusion");
        });
        assertEquals(expected, firsts, "File > New's first wizard after Project... in each perspective: " + menus);
        List<String> resource = menus.get(menus.keySet().stream().filter(k -> k.startsWith("Resource")).findFirst()
                .orElseThrow());
        assertTrue(resource.containsAll(List.of("Folder", "File")), "the perspective's own wizards stay: " + resource);
    }

    /** File > New opened by Alt+F, N and read; the menus closed again. */
    private List<String> fileNew(String picture) {
        person.lookAt(journey.shell()).press(SWT.ALT, 'f');
        person.settle(400);
        person.press(0, 'n');
        person.settle(500);
        List<String> items = NewMenusJourneyTest.shownSubmenu(journey.shell().getMenuBar(), "File", "New");
        ViewTestSupport.screenshot(journey.shell(), "new-menu-" + picture.replaceAll("[^A-Za-z-]", "") + ".png");
        person.press(SWT.ESC).press(SWT.ESC).press(SWT.ESC);
        person.settle(300);
        return items;
    }
}
