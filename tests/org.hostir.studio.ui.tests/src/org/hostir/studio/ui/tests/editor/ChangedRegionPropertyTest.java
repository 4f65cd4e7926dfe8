package org.hostir.studio.ui.tests.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.hostir.studio.ui.editor.ChangedRegion;
import org.junit.jupiter.api.Test;

/**
 * Generated texts and rewrites for {@link ChangedRegion#between}, the stretches a graph edit replaces in the Source
 * page: applied last to first they must give the rewrite exactly (the oracle is the rewrite itself), in order and
 * apart, each narrowed to differing characters; and an edit of one line replaces only within that line, so that a
 * caret elsewhere stays where it was.
 */
public class ChangedRegionPropertyTest {
    private static final String[] PIECES = { "", "{", "}", "  \"name\": \"tv1\",", "  \"op\": \"add\"", "\t", "é", "x", "\r" };

    @Test
    void appliedLastToFirstTheStretchesGiveTheRewrite() {
        Random random = new Random(35);
        for (int round = 0; round < 3_000; round++) {
            String was = text(random, random.nextInt(12));
            String now = rewrite(random, was);
            List<ChangedRegion> regions = ChangedRegion.between(was, now);
            StringBuilder applied = new StringBuilder(was);
            int end = Integer.MAX_VALUE;
            for (int k = regions.size() - 1; k >= 0; k--) {
                ChangedRegion r = regions.get(k);
                assertTrue(r.offset() >= 0 && r.offset() + r.length() <= end, "in order and apart: " + regions);
                assertTrue(r.length() > 0 || !r.text().isEmpty(), "no empty replacement: " + r);
                if (r.length() > 0 && !r.text().isEmpty()) {
                    assertTrue(was.charAt(r.offset()) != r.text().charAt(0)
                            || was.charAt(r.offset() + r.length() - 1) != r.text().charAt(r.text().length() - 1),
                            "narrowed to what differs: " + r);
                }
                applied.replace(r.offset(), r.offset() + r.length(), r.text());
                end = r.offset();
            }
            assertEquals(now, applied.toString(), "round " + round + ": " + regions);
            if (was.equals(now)) assertEquals(List.of(), regions);
        }
    }

    @Test
    void anEditOfOneLineReplacesWithinThatLine() {
        Random random = new Random(36);
        for (int round = 0; round < 1_000; round++) {
            List<String> lines = new ArrayList<>();
            for (int k = 0; k < 3 + random.nextInt(20); k++) lines.add("line " + k + " " + PIECES[random.nextInt(PIECES.length)]);
            String was = String.join("\n", lines) + "\n";
            int edited = random.nextInt(lines.size());
            lines.set(edited, lines.get(edited) + ",");
            String now = String.join("\n", lines) + "\n";
            int lineStart = was.indexOf("line " + edited + " "), lineEnd = was.indexOf('\n', lineStart);
            for (ChangedRegion r : ChangedRegion.between(was, now)) {
                assertTrue(r.offset() >= lineStart && r.offset() + r.length() <= lineEnd + 1,
                        "line " + edited + " [" + lineStart + ", " + lineEnd + "]: " + r);
            }
        }
    }

    private static String text(Random random, int lines) {
        StringBuilder s = new StringBuilder();
        for (int k = 0; k < lines; k++) {
            s.append(PIECES[random.nextInt(PIECES.length)]);
            if (k < lines - 1 || random.nextBoolean()) s.append('\n');
        }
        return s.toString();
    }

    /** Lines inserted, deleted, replaced, characters typed into a line, or nothing. */
    private static String rewrite(Random random, String was) {
        List<String> lines = new ArrayList<>(List.of(was.split("\n", -1)));
        for (int edits = random.nextInt(4); edits > 0; edits--) {
            int at = random.nextInt(lines.size() + 1);
            switch (random.nextInt(4)) {
                case 0 -> lines.add(at, PIECES[random.nextInt(PIECES.length)]);
                case 1 -> { if (at < lines.size() && lines.size() > 1) lines.remove(at); }
                case 2 -> { if (at < lines.size()) lines.set(at, PIECES[random.nextInt(PIECES.length)]); }
                default -> { if (at < lines.size()) lines.set(at, lines.get(at) + PIECES[random.nextInt(PIECES.length)]); }
            }
        }
        return String.join("\n", lines);
    }
}
