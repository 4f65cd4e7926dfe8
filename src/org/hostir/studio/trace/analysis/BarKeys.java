package org.hostir.studio.trace.analysis;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.hostir.studio.trace.EventKind;
import org.hostir.studio.trace.TimelineEvent;
import org.hostir.studio.trace.TraceRun;

/**
 * What each device bar of one run is aligned by in a {@link TraceComparison}. Without a program: the Host IR node
 * and name where both runs are the Studio's ({@code node 12 matmul}), the bar's name otherwise. With the program
 * that ran ({@link ProgramNode}s of each rank), the top-level node the bar is work of, named as
 * {@link ProgramNode#label()} on both sides: a Studio bar by the node id it carries (a node nested in a loop is
 * the loop's work), an imported bar by {@link NodeMatching} (nvFuser's dispatch ranges tied to the program); a
 * bar that names no node of the program keeps what {@link NodeMatching} or its name says and is counted in
 * {@link #unnamed()}. A transfer bar of a trace recorded before the Studio named coalesced transfers by their
 * P2PCommunication names the group's EndCoalescing and is aligned by {@link ProgramNode#postedBy}.
 */
record BarKeys(Map<TimelineEvent, String> keys, int unnamed) {
    BarKeys {
        keys = Collections.unmodifiableMap(keys);
    }

    /**
     * {@code byNode}: both runs are the Studio's, whose bars name the node that issued them, so a bar nested in a
     * top-level node is aligned by that nested node ({@link ProgramNode#label(int)}); else by the top-level node,
     * all an imported trace's dispatch ranges tell.
     */
    static BarKeys of(TraceRun run, List<ProgramNode> program, boolean byNode) {
        Map<TimelineEvent, String> keys = new IdentityHashMap<>();
        if (program.isEmpty()) {
            for (TimelineEvent e : run.timeline().events()) {
                if (e.stream() >= 0) keys.put(e, byNode && e.nodeId() >= 0 ? "node " + e.nodeId() + " " + e.name() : e.name());
            }
            return new BarKeys(keys, 0);
        }
        return run.fromStudio() ? studio(run, program, byNode) : imported(run, program);
    }

    private static BarKeys studio(TraceRun run, List<ProgramNode> program, boolean nested) {
        Map<List<Integer>, ProgramNode> byId = new HashMap<>(); // (rank, id of the node or of one nested in it)
        for (ProgramNode n : program) {
            byId.put(List.of(n.rank(), n.nodeId()), n);
            for (int id : n.within().keySet()) byId.putIfAbsent(List.of(n.rank(), id), n);
        }
        Map<TimelineEvent, String> keys = new IdentityHashMap<>();
        int unnamed = 0;
        for (TimelineEvent e : run.timeline().events()) {
            if (e.stream() < 0) continue;
            ProgramNode node = byId.get(List.of(e.rank(), e.nodeId()));
            if (node == null) unnamed++;
            int id = node == null || e.kind() != EventKind.P2P ? e.nodeId()
                    : node.postedBy(e.nodeId(), e.name().startsWith("send"), e.peer());
            keys.put(e, node == null ? "node " + id + " " + e.name() : nested ? node.label(id) : node.label());
        }
        return new BarKeys(keys, unnamed);
    }

    private static BarKeys imported(TraceRun run, List<ProgramNode> program) {
        Map<List<Integer>, ProgramNode> at = new HashMap<>();
        for (ProgramNode n : program) at.put(List.of(n.rank(), n.index()), n);
        NodeMatching matching = NodeMatching.of(run, program);
        Map<TimelineEvent, String> keys = new IdentityHashMap<>();
        for (NodeMatching.Match m : matching.matches()) {
            ProgramNode node = m.nodeId() >= 0 ? at.get(List.of(m.event().rank(), m.index())) : null;
            keys.put(m.event(), node != null ? node.label() : m.node());
        }
        Set<String> labels = new HashSet<>();
        for (ProgramNode n : program) labels.add(n.label());
        int unnamed = 0;
        for (TimelineEvent e : run.timeline().events()) {
            if (e.stream() < 0) continue;
            String key = keys.get(e);
            if (key == null || !labels.contains(key)) unnamed++;
            if (key == null) keys.put(e, e.name());
        }
        return new BarKeys(keys, unnamed);
    }
}
