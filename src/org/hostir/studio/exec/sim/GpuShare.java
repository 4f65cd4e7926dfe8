package org.hostir.studio.exec.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * How the kernels running at once on one GPU share it (docs/simulation.md, "Contention"): concurrent compute
 * kernels (GEMMs, elementwise kernels, device copies) on different streams share the SMs equally, so each
 * progresses at {@code 1/n} of its solo speed; while an NCCL kernel runs, compute kernels progress
 * {@code 1 + computeSlowdown} times slower. Each kernel keeps its remaining solo time; whenever the set changes
 * (a kernel starts or ends, an NCCL kernel starts or ends), the remaining work is advanced at the old rate and new
 * end times are given at the new one ({@code reschedule} is told, so the simulation moves the finish event).
 */
final class GpuShare {
    private final double computeSlowdown;
    private final Consumer<SimOp> reschedule;
    private final List<List<SimOp>> running = new ArrayList<>();
    private final List<List<Double>> ncclEnds = new ArrayList<>();
    private final double[] lastUs;
    private final double[] rate;

    GpuShare(int ranks, double computeSlowdown, Consumer<SimOp> reschedule) {
        this.computeSlowdown = computeSlowdown;
        this.reschedule = reschedule;
        for (int r = 0; r < ranks; r++) {
            running.add(new ArrayList<>(2));
            ncclEnds.add(new ArrayList<>(2));
        }
        lastUs = new double[ranks];
        rate = new double[ranks];
    }

    /** A compute kernel of {@code soloUs} starts at {@code t}: its end (and the others') follow from the share. */
    void start(SimOp kernel, double soloUs, double t) {
        advance(kernel.rank, t);
        kernel.remainingUs = soloUs;
        running.get(kernel.rank).add(kernel);
        rerate(kernel.rank, t);
    }

    /** A compute kernel ended at {@code t}. */
    void end(SimOp kernel, double t) {
        advance(kernel.rank, t);
        running.get(kernel.rank).remove(kernel);
        rerate(kernel.rank, t);
    }

    /** An NCCL kernel runs on {@code rank} from {@code t} to {@code endUs}. */
    void ncclStarts(int rank, double t, double endUs) {
        advance(rank, t);
        ncclEnds.get(rank).add(endUs);
        rerate(rank, t);
    }

    /** An NCCL kernel of {@code rank} ended at {@code t}. */
    void ncclEnds(int rank, double t) {
        advance(rank, t);
        rerate(rank, t);
    }

    /** Microseconds of {@code [fromUs, toUs]} during which compute kernels run on {@code rank} (as now planned). */
    double computeOverlapUs(int rank, double fromUs, double toUs) {
        double total = 0;
        for (SimOp k : running.get(rank)) total += Math.max(0, Math.min(k.endUs, toUs) - fromUs);
        return total;
    }

    private void advance(int rank, double t) {
        double elapsed = t - lastUs[rank];
        if (elapsed > 0) {
            for (SimOp k : running.get(rank)) k.remainingUs = Math.max(0, k.remainingUs - elapsed * rate[rank]);
        }
        lastUs[rank] = t;
    }

    private void rerate(int rank, double t) {
        List<Double> ends = ncclEnds.get(rank);
        if (!ends.isEmpty()) ends.removeIf(e -> e <= t);
        List<SimOp> kernels = running.get(rank);
        if (kernels.isEmpty()) return;
        rate[rank] = 1.0 / kernels.size() / (ends.isEmpty() ? 1 : 1 + computeSlowdown);
        for (SimOp k : kernels) {
            double end = t + k.remainingUs / rate[rank];
            if (end != k.endUs) {
                k.endUs = end;
                reschedule.accept(k);
            }
        }
    }
}
