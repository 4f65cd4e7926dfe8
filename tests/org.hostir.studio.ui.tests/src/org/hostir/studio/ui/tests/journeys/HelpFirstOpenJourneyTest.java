package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.swt.SWT;
import org.eclipse.swt.browser.Browser;
import org.eclipse.swt.widgets.Shell;
import org.hostir.studio.ui.studio.HelpWarmUp;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, round 18 (driven by hand): after a fresh start, Help > Help Contents opened a help window that stayed
 * blank for about 14 s, the embedded help server (Jetty, the help web application, the table of contents) starting
 * only then. A person opens Help Contents by the menu; the table of contents with the guide's book and the
 * content frame's page must show within {@link #BOUND_MS}. The test sorts before the other help tests, so in a
 * suite run this is the workbench's first help window too.
 */
public class HelpFirstOpenJourneyTest extends JourneyTest {
    /**
     * The most a first open may take. With the server started and its pages compiled, the open is the browser's
     * start and a dozen frames from a local server: 2.4 s measured here while other builds loaded the machine's 2
     * cores. Without, by hand in the product at 1280 x 800, the window stayed blank 15 to 18 s. 6 s leaves more than twice the measured time for a loaded machine and stays far
     * below the cold server's.
     */
    static final long BOUND_MS = 6_000;

    @Test
    public void helpContentsShowsTheGuidePromptlyOnItsFirstOpen() throws Exception {
        // a person who opens Help once the Studio has settled: what its start does in the background is done
        ViewTestSupport.join(HelpWarmUp.FAMILY);
        List<Shell> before = List.of(journey.shell().getDisplay().getShells());
        person.lookAt(journey.shell());
        person.press(SWT.ALT, 'h');   // the Help menu by its mnemonic; Help Contents is its first item
        person.settle(500);
        long start = System.currentTimeMillis();
        person.press(SWT.CR);
        Shell window = null;
        long shown = 0, toc = 0, page = 0;
        try {
            while (System.currentTimeMillis() - start < 60_000 && page == 0) {
                person.settle(100);
                if (window == null && (window = HelpJourneyTest.helpWindow(before)) != null) shown = elapsed(start);
                if (window == null) continue;
                Browser browser = ViewTestSupport.descendants(window, Browser.class).getFirst();
                if (toc == 0 && HelpJourneyTest.text(browser, "tocViewFrame").contains("Host IR Studio Guide")) {
                    toc = elapsed(start);
                }
                if (toc > 0 && !HelpJourneyTest.text(browser, "ContentViewFrame").isBlank()) page = elapsed(start);
            }
            System.out.println("HelpFirstOpenJourneyTest: help window after " + shown + " ms, the guide in the table"
                    + " of contents after " + toc + " ms, the content frame's text after " + page + " ms");
            assertTrue(window != null, "Help > Help Contents opened no help window");
            ViewTestSupport.screenshot(window, "help-first-open.png");
            assertTrue(page > 0 && page <= BOUND_MS, "the help window showed the guide after " + (page == 0 ? "more than"
                    + " 60000" : page) + " ms (table of contents " + toc + " ms); at most " + BOUND_MS + " ms");
            assertTrue(HelpJourneyTest.inkRows(window) > 100, "the help window looks empty (help-first-open.png)");
        } finally {
            if (window != null) window.close();
            person.settle(300);
        }
    }

    private static long elapsed(long start) { return Math.max(1, System.currentTimeMillis() - start); }
}
