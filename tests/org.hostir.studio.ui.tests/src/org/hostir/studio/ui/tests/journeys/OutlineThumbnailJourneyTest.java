package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.IPageLayout;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ShownGraph;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, found driving the Studio by hand: right after a fusion opened with the Outline in view, the Outline's
 * overview of the graph was sometimes blank (the thumbnail's area one flat colour) until the graph was touched.
 * Seeds are opened one after another, as a person opens files from the Project Explorer, with the Outline showing;
 * shortly after each opening the overview must show the graph's nodes on the screen.
 */
public class OutlineThumbnailJourneyTest extends JourneyTest {
    private static final List<String> SEEDS = List.of("ag_matmul_p2p", "allgather", "matmul_ar", "two_sets",
            "reduce_scatter", "ag_linear");

    @Test
    public void theOverviewShowsTheGraphRightAfterEachOpening() throws Exception {
        journey.show(IPageLayout.ID_OUTLINE);
        List<String> blank = new ArrayList<>();
        for (String seed : SEEDS) {
            FusionEditor e = journey.openSeed("thumbnails", seed, seed + ".fusion");
            page.activate(e);
            // the overview is drawn once the graph rests (IdleThumbnail, 250 ms) and its tiles are painted
            person.settle(1500);
            Control overview = ShownGraph.outline(e);
            assertNotNull(overview, "the Outline shows " + seed + "'s page");
            person.moveTo(journey.shell(), 2, journey.shell().getSize().y - 2);
            person.settle(200);
            File shot = ViewTestSupport.screenshot(journey.shell(), "outline-after-open-" + seed + ".png");
            if (shot == null) {
                blank.add(seed + ": no screenshot (-Dhirstudio.screenshots unset)");
                continue;
            }
            int[] size = ShownGraph.outlinePage(e).thumbnailSize();
            var at = Screens.inShot(journey.shell(), overview);
            int colours = colours(shot, at.x, at.y, size[0], size[1]);
            System.out.println("outline after opening " + seed + ": thumbnail " + size[0] + " x " + size[1] + ", "
                    + colours + " colours");
            if (size[0] < 20 || size[1] < 10 || colours < DRAWN) {
                blank.add(seed + ": thumbnail " + size[0] + " x " + size[1] + ", " + colours + " colours ("
                        + shot.getName() + ")");
            }
        }
        assertTrue(blank.isEmpty(), "blank overviews right after an opening:\n" + String.join("\n", blank));
    }

    /**
     * The fewest colours of a drawn overview: a blank one is its background, the viewport rectangle's fill and its
     * border (a handful); a drawn one adds the mesh fills, the borders, arrows and the shrunk text's anti-aliasing.
     */
    private static final int DRAWN = 12;

    /** How many distinct colours the rectangle of the picture holds. */
    private static int colours(File png, int x, int y, int w, int h) {
        ImageData d = new ImageLoader().load(png.getPath())[0];
        Set<RGB> seen = new HashSet<>();
        for (int j = Math.max(0, y); j < Math.min(d.height, y + h); j++) {
            for (int i = Math.max(0, x); i < Math.min(d.width, x + w); i++) seen.add(d.palette.getRGB(d.getPixel(i, j)));
        }
        return seen.size();
    }
}
