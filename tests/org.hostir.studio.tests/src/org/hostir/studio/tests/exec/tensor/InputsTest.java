package org.hostir.studio.tests.exec.tensor;

import static org.hostir.studio.tests.exec.tensor.TensorFixtures.F;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.shape;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Inputs;
import org.hostir.studio.exec.tensor.Rounding;
import org.hostir.studio.exec.tensor.RuntimeShapes;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DataType;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

class InputsTest {

    @Test
    void theSameSeedGivesTheSameValuesAndAnotherSeedOthers() {
        float[] a = Inputs.uniform(shape(4, 5), F, 1).toArray();
        assertArrayEquals(a, Inputs.uniform(shape(4, 5), F, 1).toArray());
        assertFalse(Arrays.equals(a, Inputs.uniform(shape(4, 5), F, 2).toArray()));
        for (float v : a) assertTrue(v >= -1 && v < 1, "value " + v);
    }

    @Test
    void narrowDtypesHoldRoundedValues() {
        for (DataType t : List.of(DataType.BFLOAT16, DataType.HALF)) {
            DenseTensor x = Inputs.uniform(shape(100), t, 4);
            for (float v : x.toArray()) assertEquals(Rounding.round(v, t), v);
        }
    }

    @Test
    void fusionInputsHaveTheirFullExtentsUnderTheBindings() throws Exception {
        LoadedFusion lf = FusionLoader.load(RepoPaths.repo().resolve("examples/seeds/matmul_ar.fusion"), 4);
        Map<String, Long> bindings = lf.bindings().asMap();
        assertEquals(4L, bindings.get("D"));
        Map<Integer, DenseTensor> in = Inputs.generate(lf.fusion(), bindings, 0);
        List<TensorView> tvs = lf.fusion().inputs();
        assertEquals(tvs.stream().map(TensorView::id).toList(), List.copyOf(in.keySet()));
        assertArrayEquals(shape(4, 4, 8, 4), in.get(tvs.get(0).id()).shape());
        assertArrayEquals(shape(4, 4, 6), in.get(tvs.get(1).id()).shape());
        assertArrayEquals(shape(1, 4, 8, 4), RuntimeShapes.local(tvs.get(0), bindings));
        // an input's values depend on the seed and its own id, not on the other inputs
        assertArrayEquals(in.get(tvs.get(1).id()).toArray(),
                Inputs.generate(lf.fusion(), bindings, 0).get(tvs.get(1).id()).toArray());
    }
}
