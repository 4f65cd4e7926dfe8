package org.hostir.studio.exec;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.host.HostIrContainer;
import org.hostir.studio.trace.Timeline;

/**
 * What a run produced: the per-rank programs, the wall time of each timed iteration, the last iteration's
 * timeline, each rank's peak device memory, the validation when asked for, the generated inputs (unsharded, by
 * TensorView id) and the last iteration's outputs (rank -> output position -> that rank's local tensor).
 */
public record RunResult(String backend, Map<Integer, HostIrContainer> programs, List<Double> iterationMillis,
                        Timeline timeline, Map<Integer, Long> peakBytes, Optional<Validation> validation,
                        Map<Integer, DenseTensor> inputs, Map<Integer, Map<Integer, DenseTensor>> outputs) {
    public RunResult {
        programs = Map.copyOf(programs);
        iterationMillis = List.copyOf(iterationMillis);
        peakBytes = Map.copyOf(peakBytes);
        inputs = Map.copyOf(inputs);
        outputs = Map.copyOf(outputs);
    }

    public double medianMillis() {
        List<Double> sorted = iterationMillis.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
