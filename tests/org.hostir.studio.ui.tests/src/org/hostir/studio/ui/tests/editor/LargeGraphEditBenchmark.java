package org.hostir.studio.ui.tests.editor;

import static org.hostir.studio.ui.tests.editor.EditorBenchmarkTest.median;
import static org.hostir.studio.ui.tests.editor.EditorBenchmarkTest.ms;
import static org.hostir.studio.ui.tests.editor.EditorBenchmarkTest.waitWhile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.core.resources.IFile;
import org.eclipse.swt.widgets.Display;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.editor.GraphViewer;
import org.junit.jupiter.api.Test;

/**
 * Benchmark, not a timed test, and not in the CI's run (its name does not end in Test; about a minute): edits on the
 * 1,000-op fusion of {@link EditorBenchmarkTest}. Run it by name: {@code ./hirstudio test
 * -Dtest=LargeGraphEditBenchmark -Dsurefire.failIfNoSpecifiedTests=false -DfailIfNoTests=false}; the figures go to
 * target/editor-benchmark-edits.txt and docs/benchmarks.md.
 */
public class LargeGraphEditBenchmark {
    /**
     * Issue 35: one edit on the opened 1,000-op fusion, as a drag's release makes it (every shown position stored, one
     * node moved 40 px right and 30 down) and as a palette click adds an op (a set reading one tensor, placed by the
     * incremental layout in the background). Each split into the edit's call (operation, source rewrite, check,
     * figures updated) and what the event loop does after it until idle (Draw2d's validation: the arrows routed
     * again, then the paint). Side by side, edit by edit: every arrow rerouted (before issue 35's change, system
     * property hirstudio.editor.rerouteAll) and only those near a moved node. Medians of several edits.
     */
    @Test
    void edit1000Ops() throws Exception {
        IFile f = EditorFixture.file("edit1000.fusion", FusionWriter.write(EditorBenchmarkTest.generated(1000)));
        FusionEditor e = (FusionEditor) org.eclipse.ui.ide.IDE.openEditor(EditorFixture.page(), f, FusionEditor.ID);
        GraphViewer g = e.getAdapter(GraphViewer.class);
        Display display = e.getSite().getShell().getDisplay();
        waitWhile(g::layoutPending);
        waitWhile(e::checkPending);
        int runs = Integer.getInteger("hirstudio.bench.edits", 7);
        long[][] move = new long[4][runs], add = new long[4][runs];   // [all call, all after, near call, near after]
        try {
            for (int r = 0; r < runs; r++) {
                for (int way = 0; way < 2; way++) {
                    System.setProperty("hirstudio.editor.rerouteAll", String.valueOf(way == 0));
                    String key = "tv" + (300 + 50 * r + 10 * way);
                    var at = new java.util.LinkedHashMap<String, org.hostir.studio.ui.editor.model.Layout.Position>();
                    for (String k : g.keys()) {
                        at.put(k, new org.hostir.studio.ui.editor.model.Layout.Position(g.bounds(k)[0], g.bounds(k)[1]));
                    }
                    int[] b = g.bounds(key);
                    at.put(key, new org.hostir.studio.ui.editor.model.Layout.Position(b[0] + 40, b[1] + 30));
                    long t0 = System.nanoTime();
                    assertTrue(e.commands().edit("Move", d -> d.withLayout(
                            org.hostir.studio.ui.editor.model.Layout.withPositions(d.layout(), at))), "moved");
                    long t1 = System.nanoTime();
                    drain(display);
                    move[2 * way][r] = t1 - t0;
                    move[2 * way + 1][r] = System.nanoTime() - t1;
                    assertEquals(b[0] + 40, g.bounds(key)[0], key + " moved");
                }
            }
            for (int r = 0; r < runs; r++) {
                for (int way = 0; way < 2; way++) {
                    System.setProperty("hirstudio.editor.rerouteAll", String.valueOf(way == 0));
                    long t0 = System.nanoTime();
                    String out = e.commands().addOp(OpKind.SET, List.of("tv" + (320 + 50 * r + 10 * way)));
                    long t1 = System.nanoTime();
                    waitWhile(g::layoutPending);
                    drain(display);
                    add[2 * way][r] = t1 - t0;
                    add[2 * way + 1][r] = System.nanoTime() - t1;
                    assertTrue(out != null && g.visible(out), "the set was added and placed: " + e.commands().lastError());
                }
            }
        } finally {
            System.clearProperty("hirstudio.editor.rerouteAll");
        }
        EditorFixture.screenshot("editor-bench-1000-edits.png");
        EditorFixture.closeAll();
        String report = String.format("BENCH editor: edits on a 1,000-op fusion (%d edits each way, alternating)%n"
                + "  a moved node, every arrow rerouted: edit call median %.0f ms %s, then routing and paint median %.0f ms %s%n"
                + "  a moved node, arrows near it only:  edit call median %.0f ms %s, then routing and paint median %.0f ms %s%n"
                + "  an added set op, every arrow:       edit call median %.0f ms %s, then layout, routing and paint median %.0f ms %s%n"
                + "  an added set op, near ones only:    edit call median %.0f ms %s, then layout, routing and paint median %.0f ms %s%n",
                runs, median(move[0]), ms(move[0]), median(move[1]), ms(move[1]), median(move[2]), ms(move[2]),
                median(move[3]), ms(move[3]), median(add[0]), ms(add[0]), median(add[1]), ms(add[1]), median(add[2]),
                ms(add[2]), median(add[3]), ms(add[3]));
        System.out.print(report);
        Path out = EditorFixture.repo().resolve("tests/org.hostir.studio.ui.tests/target/editor-benchmark-edits.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
    }

    /** Runs the event loop until it is idle, then paints what is damaged. */
    private static void drain(Display display) {
        for (int i = 0; i < 3; i++) {
            while (display.readAndDispatch()) { /* the update manager's validation and paint are queued events */ }
            display.update();
        }
    }

}
