package org.hostir.studio.ui.tests.journeys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.eclipse.swt.widgets.Control;
import org.hostir.studio.ui.HostIrPreferences;
import org.hostir.studio.ui.passes.DumpView;
import org.hostir.studio.ui.tests.ViewTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A GitHub pull request's page copied whole (the seed that quotes nvFuser's AllgatherP2p and AG_matmul_P2p programs
 * in Markdown code fences) and pasted into the nvFuser Dump view (issue 35, driven by hand): its third and fourth
 * programs were listed as "#3 ```" and "#4 ```", the fence line before each, the same label for two programs.
 * Now each is named by the last line with words before it, as the page's prose introduces it.
 */
public class DumpLabelJourneyTest extends JourneyTest {
    private static final Pattern WORDS = Pattern.compile("[\\p{L}\\p{N}]");

    @AfterEach
    public void hideDumpView() {
        journey.hide(DumpView.ID);
        HostIrPreferences.setDumpFile(null);   // the pasted page is not shown again by a later test's Dump view
    }

    @Test
    public void programsOfAPastedMarkdownPageAreNamedByItsProse() throws Exception {
        DumpView view = journey.show(DumpView.ID);
        person.settle(500);   // laid out: its buttons where a person sees them
        Path seed;
        try (Stream<Path> files = Files.list(ViewTestSupport.repoFile("../shared/seeds"))) {
            seed = files.filter(p -> p.getFileName().toString().startsWith("000_")).findFirst().orElseThrow();
        }
        DumpViewButtons.paste(journey, person, Files.readString(seed));
        person.settle(200);
        assertEquals(4, view.snapshots().size(), view.messageText());
        org.eclipse.swt.widgets.List list = ViewTestSupport.descendants(journey.shell(),
                org.eclipse.swt.widgets.List.class).stream().filter(Control::isVisible)
                .filter(l -> l.getItemCount() == 4).findFirst().orElseThrow(() -> new AssertionError("no program list"));
        List<String> shown = List.of(list.getItems());
        for (int i = 0; i < shown.size(); i++) {
            String words = shown.get(i).substring(("#" + (i + 1)).length());
            assertTrue(WORDS.matcher(words).find(), "program " + (i + 1) + " is named by words: " + shown);
            assertEquals(view.snapshots().label(i), shown.get(i), "the list shows the model's label");
        }
        assertTrue(shown.get(2).endsWith("is lowered to:"), "the prose before the third program: " + shown);
        assertTrue(shown.get(3).endsWith("which generates the following host program:"),
                "the prose before the fourth program: " + shown);
    }
}
