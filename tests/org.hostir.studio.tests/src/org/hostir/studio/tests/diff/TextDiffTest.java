package org.hostir.studio.tests.diff;

import static org.hostir.studio.tests.diff.DiffFixture.lines;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.hostir.studio.diff.Hunk;
import org.hostir.studio.diff.TextDiff;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.print.HostIrPrinter;
import org.junit.jupiter.api.Test;

class TextDiffTest {

    /** Lines {@code line 1} .. {@code line n}, each with its newline. */
    private static String numbered(int n) {
        return IntStream.rangeClosed(1, n).mapToObj(i -> "line " + i + "\n").collect(Collectors.joining());
    }

    private static List<String> headers(List<Hunk> hunks) { return hunks.stream().map(Hunk::header).toList(); }

    @Test
    void identicalTextsGiveAnEmptyDiff() {
        assertEquals("", TextDiff.unified("", ""));
        assertEquals("", TextDiff.unified(numbered(20), numbered(20)));
        assertTrue(TextDiff.hunks(numbered(20), numbered(20), 3).isEmpty());
    }

    @Test
    void oneChangedLineIsOneHunkWithThreeLinesOfContext() {
        String after = numbered(10).replace("line 5\n", "LINE FIVE\n");
        assertEquals(lines(
                "--- before",
                "+++ after",
                "@@ -2,7 +2,7 @@",
                " line 2",
                " line 3",
                " line 4",
                "-line 5",
                "+LINE FIVE",
                " line 6",
                " line 7",
                " line 8"), TextDiff.unified(numbered(10), after));
        assertEquals(lines("--- a/x", "+++ b/x", "@@ -1,2 +1,2 @@", "-line 1", "+one", " line 2"),
                TextDiff.unified(numbered(2), "one\nline 2\n", "a/x", "b/x"));
    }

    @Test
    void insertionsAtStartAndEnd() {
        assertEquals(lines("--- before", "+++ after", "@@ -1,3 +1,4 @@", "+first", " line 1", " line 2", " line 3"),
                TextDiff.unified(numbered(10), "first\n" + numbered(10)));
        assertEquals(lines("--- before", "+++ after", "@@ -8,3 +8,4 @@", " line 8", " line 9", " line 10", "+last"),
                TextDiff.unified(numbered(10), numbered(10) + "last\n"));
        assertEquals(lines("--- before", "+++ after", "@@ -0,0 +1,2 @@", "+line 1", "+line 2"),
                TextDiff.unified("", numbered(2)));
        assertEquals(lines("--- before", "+++ after", "@@ -1,2 +0,0 @@", "-line 1", "-line 2"),
                TextDiff.unified(numbered(2), ""));
    }

    @Test
    void nearbyChangesShareAHunkDistantOnesDoNot() {
        // 6 unchanged lines between two changes: the contexts touch, one hunk. 7: two hunks.
        String near = numbered(20).replace("line 5\n", "x\n").replace("line 12\n", "y\n");
        assertEquals(List.of("@@ -2,14 +2,14 @@"), headers(TextDiff.hunks(numbered(20), near, 3)));
        String far = numbered(20).replace("line 5\n", "x\n").replace("line 13\n", "y\n");
        assertEquals(List.of("@@ -2,7 +2,7 @@", "@@ -10,7 +10,7 @@"), headers(TextDiff.hunks(numbered(20), far, 3)));
        assertEquals(List.of("@@ -5,1 +5,1 @@", "@@ -13,1 +13,1 @@"), headers(TextDiff.hunks(numbered(20), far, 0)));
    }

    @Test
    void missingFinalNewlineIsADifferenceAndMarked() {
        assertEquals(lines("--- before", "+++ after", "@@ -1,2 +1,2 @@", " a", "-b", "+b",
                "\\ No newline at end of file"), TextDiff.unified("a\nb\n", "a\nb"));
    }

    @Test
    void largeInputDiffsToTheExpectedHunks() {
        List<String> after = new ArrayList<>(numbered(5000).lines().toList());
        after.set(99, "changed 100");
        after.set(2499, "changed 2500");
        after.add(4000, "new after 4000");
        after.removeLast();
        List<Hunk> hunks = TextDiff.hunks(numbered(5000), String.join("\n", after) + "\n", 3);
        assertEquals(List.of("@@ -97,7 +97,7 @@", "@@ -2497,7 +2497,7 @@", "@@ -3998,6 +3998,7 @@",
                "@@ -4997,4 +4998,3 @@"), headers(hunks));
        assertEquals(new Hunk.Line(Hunk.Kind.ADDED, "new after 4000", true), hunks.get(2).lines().get(3));
        assertEquals(new Hunk.Line(Hunk.Kind.REMOVED, "line 5000", true), hunks.get(3).lines().getLast());

        // Nothing in common: one hunk replacing everything, still minimal (D = 10,000).
        String other = numbered(5000).replace("line", "row");
        List<Hunk> all = TextDiff.hunks(numbered(5000), other, 3);
        assertEquals(List.of("@@ -1,5000 +1,5000 @@"), headers(all));
        assertEquals(5000, all.getFirst().lines().stream().filter(l -> l.kind() == Hunk.Kind.REMOVED).count());
        assertEquals(new Hunk.Line(Hunk.Kind.ADDED, "row 1", true), all.getFirst().lines().get(5000));

        // Every tenth line changed: 500 separate hunks.
        String tenth = IntStream.rangeClosed(1, 5000).mapToObj(i -> (i % 10 == 0 ? "x " : "line ") + i + "\n")
                .collect(Collectors.joining());
        assertEquals(500, TextDiff.hunks(numbered(5000), tenth, 3).size());
    }

    @Test
    void scriptIsMinimalAndReproducesTheAfterText() {
        Random random = new Random(20240611);
        for (int round = 0; round < 400; round++) {
            List<String> a = randomLines(random);
            List<String> b = random.nextBoolean() ? randomLines(random) : mutate(a, random);
            String before = String.join("", a);
            String after = String.join("", b);
            List<Hunk> hunks = TextDiff.hunks(before, after, round % 4);
            assertEquals(after, apply(before, hunks), "round " + round + ": " + a + " -> " + b);
            long edits = hunks.stream().flatMap(h -> h.lines().stream())
                    .filter(l -> l.kind() != Hunk.Kind.CONTEXT).count();
            assertEquals(a.size() + b.size() - 2L * lcs(a, b), edits, "round " + round + ": " + a + " -> " + b);
        }
    }

    @Test
    void printedProgramsDiffToTheAddedNode() {
        DiffFixture f = new DiffFixture();
        HostNode dealloc = f.h.deallocate(f.a);
        List<HostNode> top = new ArrayList<>(f.topLevel());
        top.add(dealloc);
        String before = HostIrPrinter.print(f.before());
        String after = HostIrPrinter.print(f.program(top));
        List<Hunk> hunks = TextDiff.hunks(before, after, 3);
        assertEquals(1, hunks.size());
        List<Hunk.Line> changes = hunks.getFirst().lines().stream().filter(l -> l.kind() != Hunk.Kind.CONTEXT)
                .toList();
        assertEquals(List.of(new Hunk.Line(Hunk.Kind.ADDED, "  " + HostIrPrinter.headline(dealloc), true)), changes);
        // The dealloc goes after the last node, before the closing line: 3 lines of context above, 1 below.
        int last = before.lines().toList().indexOf("  Synchronize Stream 0") + 1;
        assertEquals("@@ -" + (last - 2) + ",4 +" + (last - 2) + ",5 @@", hunks.getFirst().header());
        assertEquals(new Hunk.Line(Hunk.Kind.CONTEXT, "} // %HostIrContainer", true),
                hunks.getFirst().lines().getLast());
    }

    private static List<String> randomLines(Random random) {
        int n = random.nextInt(25);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add((char) ('a' + random.nextInt(4)) + "\n");
        return out;
    }

    private static List<String> mutate(List<String> a, Random random) {
        List<String> out = new ArrayList<>(a);
        for (int edits = random.nextInt(5); edits > 0; edits--) {
            if (!out.isEmpty() && random.nextBoolean()) out.remove(random.nextInt(out.size()));
            else out.add(random.nextInt(out.size() + 1), (char) ('a' + random.nextInt(6)) + "\n");
        }
        return out;
    }

    /** Applies hunks as patch would, checking every context and removed line against the before text. */
    private static String apply(String before, List<Hunk> hunks) {
        List<String> a = before.lines().toList();
        StringBuilder out = new StringBuilder();
        int next = 0;
        for (Hunk h : hunks) {
            int start = h.beforeCount() == 0 ? h.beforeStart() : h.beforeStart() - 1;
            while (next < start) out.append(a.get(next++)).append('\n');
            for (Hunk.Line l : h.lines()) {
                switch (l.kind()) {
                    case CONTEXT -> out.append(a.get(next++)).append('\n');
                    case REMOVED -> assertEquals(a.get(next++), l.text());
                    case ADDED -> out.append(l.text()).append('\n');
                }
                if (l.kind() == Hunk.Kind.CONTEXT) assertEquals(a.get(next - 1), l.text());
            }
        }
        while (next < a.size()) out.append(a.get(next++)).append('\n');
        return out.toString();
    }

    /** Length of a longest common subsequence, by the textbook table. */
    private static int lcs(List<String> a, List<String> b) {
        int[][] t = new int[a.size() + 1][b.size() + 1];
        for (int i = a.size() - 1; i >= 0; i--) {
            for (int j = b.size() - 1; j >= 0; j--) {
                t[i][j] = a.get(i).equals(b.get(j)) ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
            }
        }
        return t[0][0];
    }
}
