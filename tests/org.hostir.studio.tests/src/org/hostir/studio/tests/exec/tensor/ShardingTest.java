package org.hostir.studio.tests.exec.tensor;

import static org.hostir.studio.tests.exec.tensor.TensorFixtures.F;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.did;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.iota;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.iter;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.red;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.shape;
import static org.hostir.studio.tests.exec.tensor.TensorFixtures.tv;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Inputs;
import org.hostir.studio.exec.tensor.ReferenceInterpreter;
import org.hostir.studio.exec.tensor.RuntimeShapes;
import org.hostir.studio.exec.tensor.Sharding;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.DeviceMesh;
import org.hostir.studio.ir.IrBuilder;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ShardingTest {
    private final IrBuilder b = new IrBuilder();

    @Test
    void aDidAxisIsSplitInMeshOrderAndKeptAsSizeOne() {
        // mesh {2, 0, 1}: device 2 holds slice 0
        TensorView t = tv(b, F, DeviceMesh.of(2, 0, 1), iter(b, 2), did(b, "D"), iter(b, 2));
        DenseTensor global = iota(2, 3, 2);
        DenseTensor onTwo = Sharding.shard(t, global, 2).orElseThrow();
        assertArrayEquals(shape(2, 1, 2), onTwo.shape());
        assertEquals(global.get(1, 0, 1), onTwo.get(1, 0, 1));
        assertEquals(global.get(1, 2, 0), Sharding.shard(t, global, 1).orElseThrow().get(1, 0, 0));
        assertFalse(onTwo.sharesBuffer(global), "a shard is the rank's own copy");
        assertEquals(Optional.empty(), Sharding.shard(t, global, 3));
    }

    @Test
    void runtimeAxesSkipReductionAxes() {
        TensorView t = tv(b, F, DeviceMesh.of(0, 1), red(b, 5), iter(b, 3), did(b, "D"));
        assertEquals(1, Sharding.deviceAxis(t));
        DenseTensor global = iota(3, 2);
        DenseTensor s1 = Sharding.shard(t, global, 1).orElseThrow();
        assertArrayEquals(shape(3, 1), s1.shape());
        assertEquals(global.get(2, 1), s1.get(2, 0));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 8})
    void shardThenGatherRoundTripsEveryTensorOfAnExample(int devices) throws Exception {
        for (String example : List.of("seeds/ag_linear.fusion", "seeds/matmul_rs_through_bcast.fusion",
                "seeds/allgather_p2p.fusion")) {
            LoadedFusion lf = FusionLoader.load(RepoPaths.repo().resolve("examples").resolve(example), devices);
            Map<String, Long> bindings = lf.bindings().asMap();
            Map<Integer, DenseTensor> all = ReferenceInterpreter.evaluateAll(lf.fusion(),
                    Inputs.generate(lf.fusion(), bindings, 3));
            for (TensorView tv : lf.fusion().tensors()) {
                DenseTensor global = all.get(tv.id());
                Map<Integer, DenseTensor> locals = new HashMap<>();
                for (int rank = 0; rank < devices; rank++) {
                    int r = rank;
                    Sharding.shard(tv, global, rank).ifPresent(local -> {
                        assertArrayEquals(RuntimeShapes.local(tv, bindings), local.shape(), tv.label() + " on " + r);
                        locals.put(r, local);
                    });
                }
                Sharding.Gathered g = Sharding.gather(tv, locals);
                assertTrue(g.replicasAgree());
                assertArrayEquals(global.shape(), g.tensor().shape());
                assertArrayEquals(global.toArray(), g.tensor().toArray(), example + " " + tv.label());
            }
        }
    }

    @Test
    void replicasThatDisagreeAreReported() {
        TensorView t = tv(b, F, DeviceMesh.of(0, 1, 2), iter(b, 2), iter(b, 2));
        DenseTensor global = iota(2, 2);
        Map<Integer, DenseTensor> locals = new HashMap<>();
        for (int r = 0; r < 3; r++) locals.put(r, Sharding.shard(t, global, r).orElseThrow());
        locals.get(2).set(42f, 1, 1);
        Sharding.Gathered g = Sharding.gather(t, locals);
        assertEquals(List.of(2), g.disagreeingRanks());
        assertEquals(39, g.maxReplicaDifference(), 1e-6);
        assertArrayEquals(global.toArray(), g.tensor().toArray(), "the first mesh device's copy wins");
    }

    @Test
    void aTensorWithoutMeshIsOnEveryRankAndAMissingShardIsAnError() {
        TensorView single = tv(b, iter(b, 2));
        assertTrue(Sharding.shard(single, iota(2), 5).isPresent());
        TensorView sharded = tv(b, F, DeviceMesh.of(0, 1), did(b, "D"));
        assertThrows(IllegalArgumentException.class, () -> Sharding.gather(sharded, Map.of(0, iota(1))));
    }
}
