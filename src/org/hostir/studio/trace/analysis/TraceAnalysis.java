package org.hostir.studio.trace.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.hostir.studio.trace.Counter;
import org.hostir.studio.trace.CounterTracks;
import org.hostir.studio.trace.TraceRun;

/**
 * Every analysis of one run, computed once for the command line and the Timeline view: the dependency graph and
 * its critical path, the idle breakdown per stream, the kernel table and the counters (those the timeline
 * implies and those the profiler sampled).
 */
public record TraceAnalysis(TraceRun run, DependencyGraph graph, Optional<CriticalPath> criticalPath,
                            IdleBreakdown idle, KernelTable kernels, List<Counter> counters) {
    public TraceAnalysis {
        counters = List.copyOf(counters);
    }

    public static TraceAnalysis of(TraceRun run) {
        DependencyGraph graph = DependencyGraph.of(run);
        List<Counter> counters = new ArrayList<>(CounterTracks.of(run.timeline()));
        counters.addAll(run.counters());
        return new TraceAnalysis(run, graph, CriticalPath.of(graph), IdleBreakdown.of(graph, run.timeline()),
                KernelTable.of(run.timeline()), counters);
    }
}
