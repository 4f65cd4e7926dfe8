package org.hostir.studio.tests.exec.tensor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.diag.FusionFileException;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Inputs;
import org.hostir.studio.exec.tensor.ReferenceInterpreter;
import org.hostir.studio.exec.tensor.RuntimeShapes;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The oracle on every example file, and on a few of them against values computed here by hand-written loops. */
class ReferenceInterpreterTest {
    static final int[] DEVICES = {1, 2, 4, 8};

    static List<Path> examples() { return TensorFixtures.exampleFiles(); }

    @ParameterizedTest(name = "{index}: {0}")
    @MethodSource("examples")
    void runsEveryExampleForEveryDeviceCountItLoadsWith(Path file) throws Exception {
        int ran = 0;
        for (int devices : DEVICES) {
            LoadedFusion lf;
            try {
                lf = FusionLoader.load(file, devices);
            } catch (FusionFileException e) {
                // explicit meshes naming devices up to 3 (scatter_two_stages, the communication examples)
                assertTrue(devices < 4 && e.diagnostics().stream().allMatch(d -> d.rule().equals("mesh.device-range")),
                        file + " with " + devices + " devices: " + e.getMessage());
                continue;
            }
            Map<String, Long> bindings = lf.bindings().asMap();
            Fusion fusion = lf.fusion();
            Map<Integer, DenseTensor> outputs = ReferenceInterpreter.run(fusion,
                    Inputs.generate(fusion, bindings, 7), bindings);
            assertEquals(fusion.outputs().size(), outputs.size());
            for (TensorView out : fusion.outputs()) {
                DenseTensor t = outputs.get(out.id());
                assertArrayEquals(RuntimeShapes.global(out, bindings), t.shape(), out.label() + " with " + devices);
                assertEquals(out.dtype(), t.dtype());
                for (float v : t.toArray()) assertTrue(Float.isFinite(v), out.label() + " has " + v);
            }
            ran++;
        }
        assertTrue(ran >= 2, "ran " + ran);
    }

    @Test
    void transposeAddIsTheTransposePlusB() throws Exception {
        Run r = run("transpose_add.fusion", 2);
        DenseTensor a = r.in("a"), b = r.in("b"), c = r.out("c");
        for (int i = 0; i < 6; i++) for (int j = 0; j < 8; j++) {
            assertEquals(a.get(j, i) + b.get(i, j), c.get(i, j), 1e-6);
        }
    }

    @Test
    void mlpMatchesNaiveLoops() throws Exception {
        Run r = run("mlp_two_layer.fusion", 1);
        DenseTensor x = r.in("x"), w1 = r.in("w1"), b1 = r.in("b1"), w2 = r.in("w2"), y = r.out("y");
        for (int m = 0; m < 8; m++) for (int n = 0; n < 6; n++) {
            double acc = 0;
            for (int h = 0; h < 16; h++) {
                double hidden = b1.get(h);
                for (int k = 0; k < 4; k++) hidden += x.get(m, k) * w1.get(k, h);
                acc += (float) hidden * w2.get(h, n);
            }
            assertEquals(acc, y.get(m, n), 1e-5);
        }
    }

    /** The unsharded meaning of seed 001's matmul_AR: the sum over D of the per-device products. */
    @Test
    void matmulAllreduceSumsThePerDeviceProducts() throws Exception {
        Run r = run("seeds/matmul_ar.fusion", 2);
        DenseTensor a = r.in("tv0"), b = r.in("tv1"), out = r.out("tv3");
        assertArrayEquals(new long[] {4, 8, 6}, out.shape());
        for (int s = 0; s < 4; s++) for (int m = 0; m < 8; m++) for (int n = 0; n < 6; n++) {
            double acc = 0;
            for (int d = 0; d < 2; d++) for (int k = 0; k < 4; k++) acc += a.get(d, s, m, k) * b.get(d, k, n);
            assertEquals(acc, out.get(s, m, n), 1e-5);
        }
    }

    @Test
    void scatterTwoStagesDoublesTheRowSums() throws Exception {
        Run r = run("seeds/scatter_two_stages.fusion", 4);
        DenseTensor in = r.in("tv0"), out = r.out("tv3");
        assertArrayEquals(new long[] {3, 4, 3}, out.shape());
        for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) for (int k = 0; k < 3; k++) {
            double sum = 0;
            for (int l = 0; l < 5; l++) sum += in.get(i, j, k, l);
            assertEquals(2 * sum, out.get(i, j, k), 1e-5);
        }
    }

    @Test
    void missingOrMisshapenInputsAreReported() throws Exception {
        LoadedFusion lf = FusionLoader.load(RepoPaths.repo().resolve("examples/transpose_add.fusion"), 1);
        Map<String, Long> bindings = lf.bindings().asMap();
        Map<Integer, DenseTensor> inputs = new HashMap<>(Inputs.generate(lf.fusion(), bindings, 1));
        TensorView a = lf.fusion().inputs().getFirst();
        inputs.put(a.id(), DenseTensor.zeros(a.dtype(), 8, 5));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ReferenceInterpreter.run(lf.fusion(), inputs, bindings));
        assertTrue(e.getMessage().contains("('a')"), e.getMessage());
        inputs.remove(a.id());
        assertThrows(IllegalArgumentException.class, () -> ReferenceInterpreter.run(lf.fusion(), inputs));
    }

    @Test
    void inputsAreNotModified() throws Exception {
        LoadedFusion lf = FusionLoader.load(RepoPaths.repo().resolve("examples/seeds/allreduce.fusion"), 2);
        Map<String, Long> bindings = lf.bindings().asMap();
        Map<Integer, DenseTensor> inputs = Inputs.generate(lf.fusion(), bindings, 5);
        Map<Integer, float[]> before = new HashMap<>();
        inputs.forEach((id, t) -> before.put(id, t.toArray()));
        Map<Integer, DenseTensor> all = ReferenceInterpreter.evaluateAll(lf.fusion(), inputs);
        inputs.forEach((id, t) -> assertArrayEquals(before.get(id), t.toArray()));
        for (TensorView tv : lf.fusion().tensors()) assertTrue(all.containsKey(tv.id()), tv.name());
        for (TensorView out : lf.fusion().outputs()) {
            for (DenseTensor in : inputs.values()) assertFalse(all.get(out.id()).sharesBuffer(in));
        }
    }

    private record Run(LoadedFusion lf, Map<Integer, DenseTensor> inputs, Map<Integer, DenseTensor> outputs) {
        DenseTensor in(String label) { return inputs.get(id(label)); }

        DenseTensor out(String label) { return outputs.get(id(label)); }

        int id(String label) {
            return lf.tensors().stream().filter(t -> t.label().equals(label)).findFirst()
                    .orElseThrow(() -> new AssertionError("no tensor " + label)).id();
        }
    }

    private static Run run(String example, int devices) throws Exception {
        LoadedFusion lf = FusionLoader.load(RepoPaths.repo().resolve("examples").resolve(example), devices);
        Map<String, Long> bindings = lf.bindings().asMap();
        Map<Integer, DenseTensor> inputs = Inputs.generate(lf.fusion(), bindings, 11);
        Map<Integer, DenseTensor> outputs = ReferenceInterpreter.run(lf.fusion(), inputs, bindings);
        if (outputs.isEmpty()) fail("no outputs");
        return new Run(lf, inputs, outputs);
    }
}
