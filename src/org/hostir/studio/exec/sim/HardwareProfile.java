package org.hostir.studio.exec.sim;

import java.util.List;
import java.util.Map;

import org.hostir.studio.ir.DataType;

/**
 * The constants of the simulation's cost models for one machine (docs/simulation.md): GEMM throughput, the links
 * collectives and transfers use, how much NCCL kernels and GEMMs slow each other when they overlap, and the host's
 * dispatch cost per Host IR node kind. A profile is a JSON file ({@link ProfileJson}); the built-in ones are
 * resources beside this class, and a user copies one and edits it.
 *
 * @param gpusPerNode  GPUs joined by NVLink; rank r sits on node r / gpusPerNode, and a team spanning nodes uses
 *                     the network
 * @param ncclP2p      one NCCL send/recv within a node: NCCL gives a point-to-point transfer fewer channels than a
 *                     ring collective, so it moves slower than NVLink's bus bandwidth (NVLink's when not measured)
 */
public record HardwareProfile(String name, String description, String source, int gpusPerNode, Gemm gemm,
                              Link nvlink, Link network, Link copyEngine, Contention contention,
                              Dispatch dispatch, Link ncclP2p) {

    /** A profile whose NCCL send/recv moves at NVLink's rate. */
    public HardwareProfile(String name, String description, String source, int gpusPerNode, Gemm gemm, Link nvlink,
                           Link network, Link copyEngine, Contention contention, Dispatch dispatch) {
        this(name, description, source, gpusPerNode, gemm, nvlink, network, copyEngine, contention, dispatch, nvlink);
    }

    /**
     * Kernel throughput: a GEMM runs at {@code peakTflops[dtype] x efficiency(cbrt(M N K))} (the curve
     * interpolated linearly in log size between its points, flat past its ends), but never faster than its
     * operands can stream from memory ({@code memoryGBps}); other kernels are memory-bound. Each kernel also
     * costs {@code launchUs}.
     *
     * @param efficiency points (cube root of M*N*K, fraction of the peak), by increasing size
     */
    public record Gemm(Map<DataType, Double> peakTflops, double memoryGBps, double launchUs,
                       List<double[]> efficiency) {
        public Gemm {
            peakTflops = Map.copyOf(peakTflops);
            efficiency = efficiency.stream().map(double[]::clone).toList();
        }

        /** The curve at {@code size}, as the simulation reads it. */
        public double efficiencyAt(double size) { return ComputeCost.efficiency(efficiency, size); }
    }

    /**
     * One kind of link by the alpha-beta model: a message of {@code b} bytes takes {@code alphaUs + b / busGBps}
     * (the bus bandwidth NCCL's tests report, so ring algorithms' (n-1)/n factors are applied by the model). A
     * communication of k steps (a ring's n-1 for an Allgather, 2 (n-1) for an Allreduce) pays {@code callUs} once
     * and {@code alphaUs} per step, as NCCL's own latency model does (NVIDIA/nccl src/graph/tuning.cc,
     * ncclTopoTuneModel: {@code baseLatencies + nsteps x hwLatencies}); {@code callUs} is 0 where a profile gives none.
     */
    public record Link(double alphaUs, double busGBps, double callUs) {
        /** A link whose latency is all per step. */
        public Link(double alphaUs, double busGBps) { this(alphaUs, busGBps, 0); }

        /** Microseconds to move {@code bytes} once over this link after its latency. */
        public double transferUs(double bytes) { return bytes / (busGBps * 1e3); }

        /** The latency of one call of {@code steps} steps: {@code callUs + steps x alphaUs}. */
        public double latencyUs(double steps) { return callUs + steps * alphaUs; }
    }

    /**
     * NCCL's latency per ring step on NVLink with its Simple protocol, the one large messages use (NVIDIA/nccl
     * src/graph/tuning.cc, {@code hwLatencies[NCCL_HW_NVLINK][NCCL_ALGO_RING][NCCL_PROTO_SIMPLE]}, 3.4 us); what a
     * measured lone collective takes beyond it is the profile's per-call latency ({@code bench.ProfileFit}).
     */
    public static final double NCCL_NVLINK_RING_STEP_US = 3.4;

    /**
     * SM contention: while an NCCL kernel (which occupies SMs) overlaps a kernel on the same GPU, the kernel runs
     * {@code computeSlowdown} slower (0.15: 15 % longer for the overlapped part) and the NCCL kernel
     * {@code ncclSlowdown} slower. Copy-engine transfers use no SMs and are not slowed.
     */
    public record Contention(double computeSlowdown, double ncclSlowdown) {}

    /** Host time per Host IR node, by node kind ({@code HostOp}, {@code EndCoalescing}, ...), else the default. */
    public record Dispatch(double defaultUs, Map<String, Double> byNode) {
        public Dispatch {
            byNode = Map.copyOf(byNode);
        }

        public double us(String nodeKind) { return byNode.getOrDefault(nodeKind, defaultUs); }
    }

    public HardwareProfile {
        if (gpusPerNode < 1) throw new IllegalArgumentException("gpusPerNode must be >= 1");
    }

    /** The node rank {@code r} sits on. */
    public int node(int rank) { return rank / gpusPerNode; }

    /** The link a team's traffic is bound by: NVLink within a node, else the network (its slowest hop). */
    public Link linkFor(List<Integer> team) {
        int first = node(team.get(0));
        for (int r : team) {
            if (node(r) != first) return acrossNodes();
        }
        return nvlink;
    }

    /** The link of traffic between two nodes: the slowest hop of NVLink and the network. */
    public Link acrossNodes() {
        return new Link(Math.max(nvlink.alphaUs(), network.alphaUs()), Math.min(nvlink.busGBps(), network.busGBps()),
                Math.max(nvlink.callUs(), network.callUs()));
    }
}
