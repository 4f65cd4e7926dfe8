package org.hostir.studio.tests.exec;

import java.util.HashMap;
import java.util.Map;

import org.hostir.studio.exec.OutputValidator;
import org.hostir.studio.exec.RunConfig;
import org.hostir.studio.exec.RunResult;
import org.hostir.studio.exec.Validation;
import org.hostir.studio.exec.ValidationMode;
import org.hostir.studio.exec.cpu.CpuBackend;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Reference;
import org.hostir.studio.file.LoadedFusion;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.tests.SeedGeneration;

/**
 * A correct CPU run of an example kept for fault injection: its inputs and per-rank outputs, and the reference.
 * Faults are injected after the run, into copies of the outputs or into the inputs the reference sees, so the
 * production code has no fault hooks.
 */
record Faults(LoadedFusion loaded, Map<Integer, DenseTensor> inputs, Map<Integer, Map<Integer, DenseTensor>> outputs,
              Reference reference, boolean bySampling) {
    /** The sample's grid when {@link #sampled()}: a few hundred elements, so most of each output is unchecked. */
    static final long GRID = 256;


    static Faults run(String example, int devices, Map<String, Long> symbols, long seed) throws Exception {
        LoadedFusion loaded = Runs.load(example, devices, symbols);
        RunResult r = runOnly(loaded, devices, seed);
        return new Faults(loaded, r.inputs(), r.outputs(), Reference.evaluate(loaded.fusion(), r.inputs()), false);
    }

    /** The same run validated by sampling whatever its size (no full-check budget, a grid of {@link #GRID}). */
    Faults sampled() { return new Faults(loaded, inputs, outputs, reference, true); }

    /** One iteration on the CPU backend, without the run's own validation. */
    static RunResult runOnly(LoadedFusion loaded, int devices, long seed) {
        Map<String, Long> symbols = new HashMap<>(loaded.bindings().asMap());
        RunConfig config = new RunConfig(devices, symbols, SeedGeneration.DEFAULTS.numberOfStreams(), 1, 0, false, seed,
                120_000);
        try (CpuBackend backend = new CpuBackend(devices, 120_000)) {
            return Runs.lowered(loaded.fusion(), config, SeedGeneration.DEFAULTS, backend, line -> { });
        }
    }

    Fusion fusion() { return loaded.fusion(); }

    /** These outputs against the reference, every rank present. */
    Validation validate(Map<Integer, Map<Integer, DenseTensor>> outs) {
        return bySampling ? OutputValidator.validate(fusion(), inputs, outs, true, ValidationMode.AUTO, 0, GRID, 3)
                : OutputValidator.validate(fusion(), reference, outs, true);
    }

    /** The run's outputs against a reference of other inputs: as if the backend had lost what differs. */
    Validation validateAgainst(Map<Integer, DenseTensor> referenceInputs) {
        return bySampling ? OutputValidator.validate(fusion(), referenceInputs, outputs, true, ValidationMode.AUTO, 0, GRID, 3)
                : OutputValidator.validate(fusion(), Reference.evaluate(fusion(), referenceInputs), outputs, true);
    }

    /** A deep copy of the outputs, to corrupt. */
    Map<Integer, Map<Integer, DenseTensor>> copy() {
        Map<Integer, Map<Integer, DenseTensor>> c = new HashMap<>();
        outputs.forEach((rank, byPos) -> {
            Map<Integer, DenseTensor> m = new HashMap<>();
            byPos.forEach((pos, t) -> m.put(pos, t.copy()));
            c.put(rank, m);
        });
        return c;
    }

    /** A copy of the inputs, to corrupt. */
    Map<Integer, DenseTensor> inputsCopy() {
        Map<Integer, DenseTensor> c = new HashMap<>();
        inputs.forEach((id, t) -> c.put(id, t.copy()));
        return c;
    }

    /** The first output of {@code rank} in {@code outs}. */
    static DenseTensor out(Map<Integer, Map<Integer, DenseTensor>> outs, int rank) { return outs.get(rank).get(0); }
}
