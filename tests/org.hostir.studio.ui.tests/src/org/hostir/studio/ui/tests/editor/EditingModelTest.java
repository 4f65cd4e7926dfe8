package org.hostir.studio.ui.tests.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.file.OpKind;
import org.hostir.studio.file.TensorSpec;
import org.hostir.studio.ui.editor.model.Arrange;
import org.hostir.studio.ui.editor.model.Arrange.Box;
import org.hostir.studio.ui.editor.model.AxisText;
import org.hostir.studio.ui.editor.model.FusionEdits;
import org.hostir.studio.ui.editor.model.Layout;
import org.hostir.studio.ui.editor.model.Layout.Position;
import org.hostir.studio.ui.editor.model.NewOperands;
import org.hostir.studio.ui.editor.model.SubgraphCopy;
import org.junit.jupiter.api.Test;

/** The Eclipse-free side of issue 35's editing basics: copies with fresh names, alignment, arrow-key neighbours. */
public class EditingModelTest {
    /** tv0, tv1 inputs; tv2 = add(tv0, tv1); tv3 = mul(tv2, tv1). */
    private static FusionDocument chain() {
        FusionDocument d = FusionEdits.addInput(FusionEdits.addInput(FusionEdits.empty("chain"), "tv0"), "tv1");
        d = FusionEdits.addOp(d, OpKind.ADD, List.of("tv0", "tv1"), "tv2");
        return FusionEdits.addOp(d, OpKind.MUL, List.of("tv2", "tv1"), "tv3");
    }

    @Test
    void pastedOpsReadTheirCopiedOperandsAndTheOriginalsOtherwiseUnderFreshNames() {
        FusionDocument d = chain();
        Map<String, Position> at = Map.of("op:tv2", new Position(100, 10), "tv2", new Position(200, 10),
                "op:tv3", new Position(300, 10), "tv3", new Position(400, 10));
        var clip = SubgraphCopy.take(d, List.of("op:tv2", "tv2", "op:tv3", "tv3"), at);
        var pasted = SubgraphCopy.paste(d, clip, Map.of(), 40, 40);
        FusionDocument p = pasted.document();
        Set<String> names = new HashSet<>();
        for (TensorSpec t : p.tensors()) assertTrue(names.add(t.name()), "unique: " + t.name());
        assertEquals(List.of("tv4", "op:tv4", "tv5", "op:tv5").stream().sorted().toList(), pasted.keys().stream().sorted().toList());
        assertEquals(List.of("tv0", "tv1"), FusionEdits.producer(p, "tv4").get().inputs(), "the add reads the originals");
        assertEquals(List.of("tv4", "tv1"), FusionEdits.producer(p, "tv5").get().inputs(), "the mul reads the copied add");
        assertEquals(new Position(140, 50), Layout.positions(p.layout()).get("op:tv4"));
        assertEquals(d.inputs(), p.inputs(), "no new inputs: every copied tensor has its op copied");
    }

    @Test
    void aComputedTensorCopiedWithoutItsOpBecomesAnInputOfItsRuntimeShape() {
        FusionDocument d = chain();
        var pasted = SubgraphCopy.paste(d, SubgraphCopy.take(d, List.of("tv2"), Map.of()), Map.of(), 40, 40);
        FusionDocument p = pasted.document();
        assertEquals(List.of("tv4"), pasted.keys());
        assertTrue(p.inputs().contains("tv4"));
        assertEquals(AxisText.format(d.tensor("tv2").get().axes()), AxisText.format(p.tensor("tv4").get().axes()));
    }

    @Test
    void newOperandsAreShapedForTheOpAndOnTheFusionsMesh() {
        FusionDocument d = FusionEdits.setTensor(chain(), FusionEdits.withMesh(chain().tensor("tv0").get(), MeshSpec.ALL));
        List<TensorSpec> mm = NewOperands.of(d, OpKind.MATMUL, List.of("a", "b"));
        assertEquals(List.of("M, K", "K, N"), mm.stream().map(t -> AxisText.format(t.axes())).toList());
        assertEquals(MeshSpec.ALL, mm.get(0).mesh(), "the mesh of the fusion's first tensor");
        assertEquals(2, NewOperands.count(OpKind.LINEAR), "linear's bias is optional");
    }

    private static Map<String, Box> boxes() {
        Map<String, Box> b = new LinkedHashMap<>();
        b.put("a", new Box(0, 0, 100, 40));
        b.put("b", new Box(150, 100, 60, 30));
        b.put("c", new Box(400, 30, 80, 50));
        return b;
    }

    @Test
    void alignmentFollowsTheNodeSelectedLastAndDistributionEqualisesTheGaps() {
        Map<String, Position> right = Arrange.align(boxes(), "c", Arrange.Alignment.RIGHT);
        assertEquals(new Position(380, 0), right.get("a"), "a's right edge on c's (480)");
        assertEquals(new Position(400, 30), right.get("c"), "the primary stays");
        Map<String, Position> middle = Arrange.align(boxes(), "a", Arrange.Alignment.MIDDLE);
        assertEquals(5, middle.get("b").y(), "b's middle on a's (20)");
        Map<String, Position> spread = Arrange.distribute(boxes(), true);
        assertEquals(0, spread.get("a").x());
        assertEquals(400, spread.get("c").x(), "the ends stay");
        assertEquals(220, spread.get("b").x(), "gaps of 120 on both sides of b (480 wide, 240 of nodes)");
    }

    @Test
    void arrowKeysGoToTheNearestNodeThatWay() {
        assertEquals("b", Arrange.neighbour(boxes(), "a", Arrange.Direction.RIGHT));
        assertEquals("b", Arrange.neighbour(boxes(), "c", Arrange.Direction.LEFT));
        assertNull(Arrange.neighbour(boxes(), "a", Arrange.Direction.LEFT), "nothing left of a");
        assertEquals(List.of("a", "b", "c"), Arrange.readingOrder(boxes()));
    }
}
