package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.hostir.studio.exec.OutputValidator;
import org.hostir.studio.exec.Validation;
import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.exec.tensor.Box;
import org.hostir.studio.exec.tensor.Comparison;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Inputs;
import org.hostir.studio.exec.tensor.Reference;
import org.hostir.studio.exec.tensor.SamplePlan;
import org.hostir.studio.exec.tensor.SampledReference;
import org.hostir.studio.file.FusionLoader;
import org.hostir.studio.file.FusionReader;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.tests.RepoPaths;
import org.junit.jupiter.api.Test;

/**
 * The reference computed on demand at a sample ({@link SampledReference}) agrees with the whole reference at every
 * box of every example's outputs (scaled up so that the sample is a real subset), values within the error-bounded
 * tolerance and magnitude bounds within float rounding; and launcher mode samples each rank's own shard.
 */
class SampledValidationTest {

    @Test
    void theSampledReferenceAgreesWithTheWholeOneOnEveryExample() throws Exception {
        int checked = 0;
        for (String example : ExampleCoverageTest.examples()) {
            if (!ExampleCoverageTest.fits(example, 2)) continue;
            LoadedFusion loaded = scaled(example, 2, 8);
            Map<Integer, DenseTensor> inputs = Inputs.generate(loaded.fusion(), loaded.bindings().asMap(), 3);
            Reference whole = Reference.evaluate(loaded.fusion(), inputs);
            SampledReference sampled = new SampledReference(loaded.fusion(), inputs);
            for (TensorView out : loaded.fusion().outputs()) {
                long[] shape = sampled.shape(out);
                SamplePlan plan = SamplePlan.of(shape, 64, 9);
                for (Box box : plan.boxes()) {
                    SampledReference.Sample s = sampled.sample(out, box);
                    String at = example + " " + out.name() + " " + box;
                    Comparison.Result values = Comparison.compare(box.gather(whole.value(out)), s.value(),
                            s.tolerance(out));
                    assertTrue(values.passed(), at + ": " + values.summary());
                    float[] expected = box.gather(whole.magnitude(out)).toArray();
                    float[] got = s.magnitude().toArray();
                    for (int i = 0; i < got.length; i++) {
                        assertTrue(Math.abs(got[i] - expected[i]) <= 1e-4 * Math.abs(expected[i]) + 1e-30,
                                at + ": bound " + got[i] + " vs " + expected[i] + " at " + i);
                    }
                    checked += got.length;
                }
            }
        }
        assertTrue(checked > 10_000, "elements compared: " + checked);
    }

    /** One process holding rank 1 only: its shard of the DID-sharded output, at its part of the sample. */
    @Test
    void launcherModeSamplesEachRanksOwnShard() throws Exception {
        Faults run = Faults.run("seeds/matmul_rs_through_bcast", 2, Map.of("S", 2L, "M", 64L, "K", 256L, "N", 64L), 5);
        Map<Integer, Map<Integer, DenseTensor>> mine = Map.of(1, run.outputs().get(1));
        Validation ok = OutputValidator.validate(run.fusion(), run.inputs(), mine, false, ValidationMode.AUTO, 0, 256, 1);
        assertTrue(ok.passed() && ok.line().contains(": sampled "), ok.line());
        Map<Integer, Map<Integer, DenseTensor>> broken = new HashMap<>();
        DenseTensor zeroed = run.outputs().get(1).get(0).copy();
        zeroed.fill(0);
        broken.put(1, Map.of(0, zeroed));
        Validation v = OutputValidator.validate(run.fusion(), run.inputs(), broken, false, ValidationMode.AUTO, 0, 256, 1);
        assertFalse(v.passed(), v.line());
        assertTrue(v.line().contains("on rank 1"), v.line());
        // rank 0's correct shard where rank 1's belongs
        Map<Integer, Map<Integer, DenseTensor>> swapped = Map.of(1, run.outputs().get(0));
        assertFalse(OutputValidator.validate(run.fusion(), run.inputs(), swapped, false, ValidationMode.AUTO, 0, 256, 1)
                .passed(), "rank 0's shard reported as rank 1's");
    }

    /** The example with every symbol but S {@code factor} times its file's value. */
    private static LoadedFusion scaled(String example, int devices, long factor) throws Exception {
        Path file = RepoPaths.repo().resolve("examples").resolve(example + ".fusion");
        var parsed = FusionReader.read(Files.readString(file), example);
        Map<String, Long> symbols = FusionLoader.load(parsed, devices, Map.of()).bindings().asMap();
        Map<String, Long> overrides = new HashMap<>();
        for (String s : parsed.document().symbolNames()) {
            if (!s.equals("S")) overrides.put(s, symbols.get(s) * factor);
        }
        return FusionLoader.load(parsed, devices, overrides);
    }
}
