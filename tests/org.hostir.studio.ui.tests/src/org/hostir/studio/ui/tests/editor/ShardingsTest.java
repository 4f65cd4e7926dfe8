package org.hostir.studio.ui.tests.editor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.hostir.studio.file.AxisSpec;
import org.hostir.studio.file.ExtentSpec;
import org.hostir.studio.file.FusionDocument;
import org.hostir.studio.file.FusionWriter;
import org.hostir.studio.file.LoopStep;
import org.hostir.studio.file.MeshSpec;
import org.hostir.studio.ir.IterType;
import org.hostir.studio.ir.ParallelType;
import org.hostir.studio.ui.editor.model.FusionCheck;
import org.hostir.studio.ui.editor.model.Shardings;
import org.junit.jupiter.api.Test;

/**
 * The editor's model of issue 34 without a display: the shardings of a document after nvFuser's propagation by
 * tensor name, and the two edits between inferred and written, checked by checking the edited document again.
 */
public class ShardingsTest {
    /** seed matmul_ar's first op written inputs-only: tv2 = matmul(tv0 [DIDx D, S, M, K], tv1 [DIDx D, K, N]). */
    private static final String MATMUL = """
            {"format": "hostir-fusion/1", "name": "mm", "symbols": {"S": 4, "M": 8, "K": 4, "N": 6},
             "tensors": [
              {"name": "tv0", "dtype": "float", "axes": [{"extent": "D", "parallel": "DIDx"}, "S", "M", "K"], "mesh": [0, 1]},
              {"name": "tv1", "dtype": "float", "axes": [{"extent": "D", "parallel": "DIDx"}, "K", "N"], "mesh": [0, 1]},
              {"name": "tv2", "dtype": "float", "axes": ["D", "S", "M", "N", {"extent": "K", "iter": "reduction"}]}],
             "ops": [{"op": "matmul", "inputs": ["tv0", "tv1"], "output": "tv2"}],
             "inputs": ["tv0", "tv1"], "outputs": ["tv2"]}
            """;

    @Test
    void aLogicalAxisIsMadeExplicitOnTheAxisAndClearedBack() {
        FusionCheck.Result r = FusionCheck.check(MATMUL, "mm.fusion");
        assertEquals(List.of(), r.problems());
        Shardings s = r.shardings();
        assertTrue(s.hasInferred("tv2") && !s.hasInferred("tv0"));
        assertEquals("DIDx, inferred from tv1 (T1) through matmul", Shardings.axisText(s.get("tv2").axes().get(0)));
        assertEquals("{0 1}, inferred from tv1 (T1) through matmul", Shardings.meshText(s.get("tv2")));

        FusionDocument explicit = s.makeExplicit(r.document(), "tv2");
        var tv2 = explicit.tensor("tv2").orElseThrow();
        assertEquals(MeshSpec.of(0, 1), tv2.mesh(), "a device list stays a device list");
        assertEquals(new AxisSpec(ExtentSpec.symbol("D"), IterType.ITERATION, ParallelType.DIDX), tv2.axes().get(0));
        assertTrue(tv2.loop().isEmpty(), "a logical DIDx needs no loop step");
        FusionCheck.Result again = FusionCheck.check(FusionWriter.write(explicit), "mm.fusion");
        assertEquals(List.of(), again.problems());
        assertFalse(again.shardings().hasInferred("tv2"), "nothing left to infer");
        assertEquals(r.document(), Shardings.clearToInferred(explicit, "tv2"), "cleared: the document as it was");
    }

    @Test
    void clearingKeepsTheStepsThatAreNotADeviceSplit() {
        FusionDocument doc = FusionCheck.check(MATMUL, "mm.fusion").document();
        var t = doc.tensor("tv1").orElseThrow();
        var scheduled = new org.hostir.studio.file.TensorSpec(t.name(), t.dtype(), t.memory(),
                List.of(AxisSpec.of(ExtentSpec.symbol("D")), AxisSpec.of(ExtentSpec.symbol("K")),
                        AxisSpec.of(ExtentSpec.symbol("N"))), t.mesh(),
                List.of(new LoopStep.Split(2, ExtentSpec.size(2), true), new LoopStep.Split(1, ExtentSpec.symbol("D"), false),
                        new LoopStep.Parallelize(1, ParallelType.DIDX), new LoopStep.Parallelize(0, ParallelType.STREAM)),
                false);
        FusionDocument cleared = Shardings.clearToInferred(org.hostir.studio.ui.editor.model.FusionEdits.setTensor(doc,
                scheduled), "tv1");
        var c = cleared.tensor("tv1").orElseThrow();
        assertEquals(MeshSpec.ABSENT, c.mesh());
        assertEquals(List.of(new LoopStep.Split(2, ExtentSpec.size(2), true)), c.loop(),
                "the inner split stays; the device split and the parallelize steps go");
        assertTrue(c.axes().stream().allMatch(a -> a.parallel() == ParallelType.SERIAL));
        assertFalse(Shardings.hasWritten(c));
    }
}
