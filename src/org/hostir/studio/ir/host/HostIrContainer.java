package org.hostir.studio.ir.host;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IdCounters;
import org.hostir.studio.ir.TensorView;

/**
 * One rank's Host IR program (DESIGN's "HostProgram"; nvFuser's HostIrContainer): inputs, outputs, top-level
 * nodes and the HostUnits they post. Immutable, so every pass snapshot is free. {@code provenance} maps a node
 * id to the index of the fusion op it was lowered from.
 */
public record HostIrContainer(List<TensorView> inputs, List<TensorView> outputs, List<HostNode> topLevel,
                              List<HostUnit> hostUnits, List<Extent.Symbolic> symbols, IdCounters counters,
                              Map<Integer, Integer> provenance) {
    public HostIrContainer {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
        topLevel = List.copyOf(topLevel);
        hostUnits = List.copyOf(hostUnits);
        symbols = List.copyOf(symbols);
        provenance = Map.copyOf(provenance);
    }

    public HostIrContainer withTopLevel(List<HostNode> nodes, IdCounters newCounters) {
        return new HostIrContainer(inputs, outputs, nodes, hostUnits, symbols, newCounters, provenance);
    }

    /** Every node, depth first in program order. */
    public List<HostNode> allNodes() {
        List<HostNode> out = new ArrayList<>();
        collect(topLevel, out);
        return out;
    }

    /**
     * The numbers of the HostUnits only launched as {@code LaunchKernel}: host_ir_lowering keeps their kernels in
     * KernelExecutors, not in the container, so its dump prints no HostUnit block for them
     * (csrc/host_ir/lowering.cpp:394-406, csrc/host_ir/container.cpp:31 at 81c4b22fd).
     */
    public Set<Integer> launchedUnits() {
        Set<Integer> launched = new HashSet<>();
        Set<Integer> posted = new HashSet<>();
        for (HostNode n : allNodes()) {
            if (n instanceof PostOnStream p) {
                (p.launch() == PostOnStream.Launch.LAUNCH_KERNEL ? launched : posted).add(p.unit().number());
            }
        }
        launched.removeAll(posted);
        return Set.copyOf(launched);
    }

    private static void collect(List<HostNode> nodes, List<HostNode> out) {
        for (HostNode n : nodes) {
            out.add(n);
            for (List<HostNode> body : n.bodies()) collect(body, out);
        }
    }
}
