package org.hostir.studio.ui.tests.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;

import org.hostir.studio.io.FusionDocument;
import org.hostir.studio.io.FusionReader;
import org.hostir.studio.io.MeshSpec;
import org.hostir.studio.io.TensorSpec;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ui.editor.model.AxisText;
import org.hostir.studio.ui.editor.model.FusionEdits;
import org.junit.jupiter.api.Test;

/** Editing a tensor's other properties in the graph keeps its hostir-fusion/2 loop steps (no silent loss on save). */
class LoopStepsSurviveEditsTest {

    private static FusionDocument loopSplit() throws Exception {
        Path file = EditorFixture.repo().resolve("examples/conformance/lower_collective_allgather_loop_split.fusion");
        return FusionReader.read(Files.readString(file), "loop.fusion").document();
    }

    @Test
    void renameDtypeMeshAndMemoryEditsKeepTheLoopSteps() throws Exception {
        FusionDocument doc = loopSplit();
        TensorSpec in = doc.tensor("in").orElseThrow();
        FusionDocument renamed = FusionEdits.renameTensor(doc, "in", "x");
        assertEquals(in.loop(), renamed.tensor("x").orElseThrow().loop());
        for (TensorSpec edited : new TensorSpec[] {FusionEdits.withDtype(in, DataType.HALF),
                FusionEdits.withMesh(in, MeshSpec.ALL), FusionEdits.withMemory(in, MemoryType.LOCAL),
                FusionEdits.withAxes(in, in.axes())}) {
            assertEquals(in.loop(), edited.loop());
            assertEquals(in.allocationIsLoop(), edited.allocationIsLoop());
        }
        assertEquals(FusionDocument.FORMAT_2, FusionEdits.setTensor(doc, FusionEdits.withDtype(in, DataType.HALF))
                .format());
    }

    @Test
    void aTensorNodeShowsItsLoopSteps() throws Exception {
        FusionDocument doc = loopSplit();
        assertEquals("N | outer_split 0 by D, DIDx 0, allocation loop", AxisText.withLoop(doc.tensor("in").orElseThrow()));
        assertEquals("N", AxisText.withLoop(doc.tensor("out").orElseThrow()));
    }
}
