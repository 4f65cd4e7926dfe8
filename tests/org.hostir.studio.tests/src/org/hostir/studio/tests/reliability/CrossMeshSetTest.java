package org.hostir.studio.tests.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.hostir.studio.diag.Diagnostic;
import org.hostir.studio.engine.Engine;
import org.hostir.studio.engine.EngineFailure;
import org.hostir.studio.engine.FusionSource;
import org.hostir.studio.lower.AllgatherLowering;
import org.junit.jupiter.api.Test;

/**
 * Sets between two meshes: gathering or reducing a sharded tensor into a replicated one on another mesh gives
 * every receiving device the whole result (one Gather or Reduce rooted at each, as nvFuser's lowerToGather and
 * lowerToReduce); a DIDx-to-Stream set across meshes, which the pipelined allgather cannot express, is refused
 * by check.
 */
class CrossMeshSetTest {
    private static String set(String from, String to, String outParallel) {
        return """
                {
                  "format": "hostir-fusion/1",
                  "name": "cross_mesh",
                  "symbols": {"M": 8},
                  "tensors": [
                    {"name": "tv0", "dtype": "float", "axes": [{"extent": 2, "parallel": "DIDx"}, "M"], "mesh": %s},
                    {"name": "tv1", "dtype": "float", "axes": [{"extent": 2, "parallel": "%s"}, "M"], "mesh": %s}
                  ],
                  "ops": [{"op": "set", "inputs": ["tv0"], "output": "tv1"}],
                  "inputs": ["tv0"],
                  "outputs": ["tv1"]
                }
                """.formatted(from, outParallel, to);
    }

    @Test
    void aShardedTensorGathersIntoEveryDeviceOfAnotherMesh() {
        for (String to : List.of("[1, 0]", "[2, 3]", "[3, 0, 1]", "[0, 1, 2, 3]")) {
            String text = set("[0, 1]", to, "Serial");
            for (AllgatherLowering a : AllgatherLowering.values()) {
                var o = MeshOrderTest.outcome(text, new MeshVariant(List.of(0, 1), 4), a);
                assertTrue(o.validated(), "gather [0, 1] -> " + to + ": " + o.detail());
            }
        }
    }

    @Test
    void aPipelinedAllgatherAcrossMeshesIsRefusedByCheck() {
        for (String to : List.of("[1, 0]", "[2, 3]", "[0, 1, 2, 3]")) {
            String text = set("[0, 1]", to, "Stream");
            EngineFailure e = assertThrows(EngineFailure.class,
                    () -> Engine.load(new FusionSource.Text(text, "x.fusion"), 4, Map.of()), to);
            assertEquals(EngineFailure.Kind.BAD_INPUT, e.kind());
            Diagnostic d = e.diagnostics().getFirst();
            assertEquals("mesh.stream-allgather", d.rule(), d.toString());
            assertEquals(9, d.line(), "the line of the set: " + d);
            assertTrue(d.message().contains("on [0, 1]") && d.message().contains("on " + to), d.message());
        }
    }

    @Test
    void aPipelinedAllgatherWithinOneMeshIsAccepted() throws EngineFailure {
        Engine.load(new FusionSource.Text(set("[3, 1]", "[3, 1]", "Stream"), "x.fusion"), 4, Map.of());
    }
}
