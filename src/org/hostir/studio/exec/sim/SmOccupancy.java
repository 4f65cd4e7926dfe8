package org.hostir.studio.exec.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * Which kernels occupy each GPU's SMs at the simulation's current time: the compute kernels and the NCCL kernels
 * that have started and not ended. The simulation asks how long a new op overlaps the other kind, to slow it by the
 * profile's contention factor, and stretches the compute kernels already running when an NCCL kernel joins them.
 * Ops start in time order, so whatever ended before now is dropped.
 */
final class SmOccupancy {
    private final List<List<SimOp>> kernels = new ArrayList<>();
    private final List<List<Double>> nccl = new ArrayList<>();

    SmOccupancy(int ranks) {
        for (int r = 0; r < ranks; r++) {
            kernels.add(new ArrayList<>(2));
            nccl.add(new ArrayList<>(2));
        }
    }

    void add(SimOp op) {
        switch (op.role) {
            case KERNEL -> kernels.get(op.rank).add(op);
            case NCCL -> nccl.get(op.rank).add(op.endUs);
            case COPY_ENGINE, JOIN -> { }
        }
    }

    /** Microseconds of {@code [fromUs, toUs]} during which NCCL kernels run on {@code rank}'s GPU. */
    double ncclOverlapUs(int rank, double fromUs, double toUs) {
        List<Double> ends = nccl.get(rank);
        ends.removeIf(e -> e <= fromUs);
        double total = 0;
        for (double e : ends) total += Math.min(e, toUs) - fromUs;
        return total;
    }

    /** Microseconds of {@code [fromUs, toUs]} during which compute kernels run on {@code rank}'s GPU. */
    double kernelOverlapUs(int rank, double fromUs, double toUs) {
        List<SimOp> running = kernels.get(rank);
        running.removeIf(k -> k.endUs <= fromUs);
        double total = 0;
        for (SimOp k : running) total += Math.min(k.endUs, toUs) - fromUs;
        return total;
    }

    /** The compute kernels running on {@code rank} after {@code fromUs} (they end later). */
    List<SimOp> running(int rank, double fromUs) {
        List<SimOp> running = kernels.get(rank);
        running.removeIf(k -> k.endUs <= fromUs);
        return List.copyOf(running);
    }
}
