package org.hostir.studio.ui.tests.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.file.LoopStep;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.MemoryType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ui.editor.model.AxisText;
import org.hostir.studio.ui.editor.model.FusionCheck;
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

    /** The node's badges show the sharding a loop step puts on a logical axis (the DIDx outer part of a split). */
    @Test
    void theBadgesShowTheLoopsSharding() throws Exception {
        FusionDocument doc = loopSplit();
        assertEquals(List.of(ParallelType.DIDX), AxisText.shownParallel(doc.tensor("in").orElseThrow()));
        assertEquals(List.of(ParallelType.SERIAL), AxisText.shownParallel(doc.tensor("out").orElseThrow()));
        TensorSpec in = doc.tensor("in").orElseThrow();
        TensorSpec twoAxes = twoAxes(in, List.of(new LoopStep.Merge(0),
                new LoopStep.Split(0, ExtentSpec.symbol("D"), false), new LoopStep.Parallelize(0, ParallelType.DIDX)));
        assertEquals(List.of(ParallelType.SERIAL, ParallelType.SERIAL), AxisText.shownParallel(twoAxes),
                "a merged axis comes from two logical axes: neither is shown as sharded");
        TensorSpec reordered = twoAxes(in, List.of(new LoopStep.Reorder(List.of(1, 0)),
                new LoopStep.Parallelize(0, ParallelType.DIDX)));
        assertEquals(List.of(ParallelType.SERIAL, ParallelType.DIDX), AxisText.shownParallel(reordered));
    }

    private static TensorSpec twoAxes(TensorSpec t, List<LoopStep> loop) {
        return new TensorSpec(t.name(), t.dtype(), t.memory(), List.of(t.axes().getFirst(), t.axes().getFirst()),
                t.mesh(), loop, false);
    }

    /** A loop step the reader refuses still marks its tensor's node when the editor wrote the text. */
    @Test
    void aRefusedLoopStepIsMarkedOnItsTensor() throws Exception {
        FusionDocument doc = loopSplit();
        TensorSpec in = doc.tensor("in").orElseThrow();
        FusionDocument bad = FusionEdits.setTensor(doc, FusionEdits.withLoop(in,
                List.of(new LoopStep.Split(3, ExtentSpec.symbol("D"), false)), false));
        String text = FusionWriter.write(bad);
        FusionCheck.Problem p = FusionCheck.check(text, "bad.fusion", bad).problems().get(0);
        assertEquals("loop.axis", p.rule());
        assertEquals("in", p.tensor(), "the written document names the tensor at $.tensors[0]");
        assertTrue(p.line() > 0);
        assertNull(FusionCheck.check(text, "bad.fusion").problems().get(0).tensor(), "the user's own text: no node");
    }
}
