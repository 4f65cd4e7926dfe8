package org.hostir.studio.ui.tests.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.eclipse.core.resources.IFile;
import org.eclipse.draw2d.FigureCanvas;
import org.eclipse.draw2d.IFigure;
import org.eclipse.draw2d.Label;
import org.eclipse.draw2d.PolylineConnection;
import org.eclipse.draw2d.geometry.Rectangle;
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
            List<Label> letters = new ArrayList<>();
            collect(((FigureCanvas) ShownGraph.of(e).getControl()).getContents(), letters);
            assertEquals(List.of("A", "B"), letters.stream().map(Label::getText).sorted().toList(), "both letters drawn");
            Rectangle a = letters.get(0).getBounds(), b = letters.get(1).getBounds();
            assertFalse(a.intersects(b), "A at " + a + " and B at " + b + " apart");
            EditorFixture.screenshot("operand-labels.png");
        } finally {
            EditorFixture.closeAll();
        }
    }

    private static void collect(IFigure f, List<Label> out) {
        if (f instanceof PolylineConnection c) {
            for (Object child : c.getChildren()) {
                if (child instanceof Label l && l.getText().length() == 1) out.add(l);
            }
        }
        for (Object child : f.getChildren()) collect((IFigure) child, out);
    }
}
