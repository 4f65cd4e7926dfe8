package org.hostir.studio.ui.tests.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.hostir.studio.file.AxisSpec;
import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.file.OpSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ui.editor.FusionEditor;
import org.hostir.studio.ui.tests.ShownGraph;
import org.junit.jupiter.api.Test;

/** Issue 35's "A/B labels overlap for the same operand": add(tv0, tv0)'s two arrows coincide; their letters do not. */
public class OperandLabelsTest {
    @Test
    void anOpReadingOneTensorTwiceShowsItsAAndBApart() throws Exception {
        List<AxisSpec> axes = List.of(AxisSpec.of(ExtentSpec.symbol("N")));
        FusionDocument doc = new FusionDocument("twice", null, Map.of("N", 8L),
                List.of(new TensorSpec("tv0", DataType.FLOAT, null, axes, MeshSpec.ALL),
                        new TensorSpec("tv1", DataType.FLOAT, null, axes, MeshSpec.ALL)),
                List.of(OpSpec.of(OpKind.ADD, "tv1", "tv0", "tv0")), List.of("tv0"), List.of("tv1"), null);
        IFile f = EditorFixture.file("twice.fusion", FusionWriter.write(doc));
        FusionEditor e = EditorFixture.open(f);
        try {
            assertEquals(3, ShownGraph.of(e).keys().size());   // waits for the layout
            e.getSite().getShell().getDisplay().update();
            Map<String, int[]> letters = ShownGraph.of(e).operandLetters("op:tv1");
            assertEquals(List.of("A", "B"), List.copyOf(letters.keySet()), "both letters drawn");
            int[] a = letters.get("A"), b = letters.get("B");
            assertTrue(a[2] > 0 && b[2] > 0, "laid out");
            boolean overlap = a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
            assertFalse(overlap, "A at " + Arrays.toString(a) + " and B at " + Arrays.toString(b) + " apart");
            EditorFixture.screenshot("operand-labels.png");
        } finally {
            EditorFixture.closeAll();
        }
    }
}
