package org.hostir.studio.exec.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * Which kernels occupy each GPU's SMs at the simulation's current time: the ends of the compute kernels and of the
 * NCCL kernels that have started. The simulation asks how long a new op would overlap the other kind, to slow it
 * by the profile's contention factor. Ops start in time order, so a kernel that ended before now is dropped.
 */
final class SmOccupancy {
    private final List<List<Double>> kernels = new ArrayList<>();
    private final List<List<Double>> nccl = new ArrayList<>();

    SmOccupancy(int ranks) {
        for (int r = 0; r < ranks; r++) {
            kernels.add(new ArrayList<>(2));
            nccl.add(new ArrayList<>(2));
        }
    }

    void add(int rank, SimOp.Role role, double endUs) {
        switch (role) {
            case KERNEL -> kernels.get(rank).add(endUs);
            case NCCL -> nccl.get(rank).add(endUs);
            case COPY_ENGINE, JOIN -> { }
        }
    }

    /** Microseconds of {@code [fromUs, toUs]} during which ops of {@code role} run on {@code rank}'s GPU. */
    double overlapUs(int rank, SimOp.Role role, double fromUs, double toUs) {
        List<Double> ends = switch (role) {
            case KERNEL -> kernels.get(rank);
            case NCCL -> nccl.get(rank);
            case COPY_ENGINE, JOIN -> List.of();
        };
        double total = 0;
        for (int i = ends.size() - 1; i >= 0; i--) {
            double e = ends.get(i);
            if (e <= fromUs) {
                if (ends instanceof ArrayList<Double> list) list.remove(i);
            } else {
                total += Math.min(e, toUs) - fromUs;
            }
        }
        return total;
    }
}
