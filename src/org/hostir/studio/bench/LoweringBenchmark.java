package org.hostir.studio.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.hostir.studio.engine.Engine;
import org.hostir.studio.ir.Fusion;
import org.hostir.studio.lower.Compilation;
import org.hostir.studio.lower.LoweringOptions;
import org.hostir.studio.lower.PassTrace;

/**
 * Lowering speed: a generated fusion of {@code ops} ops lowered for every rank with every pass's snapshot kept
 * (what the pass inspector asks for). Reports the median and spread of the time per rank over repetitions,
 * after warm-up runs so the JIT has compiled the passes.
 */
public final class LoweringBenchmark {
    /** Times in milliseconds per rank. */
    public record Result(int ops, int devices, int repetitions, double medianMsPerRank, double minMsPerRank,
                         double maxMsPerRank, int snapshotsPerRank) {
        public String format() {
            return String.format(java.util.Locale.ROOT,
                    "lowering: %d ops, %d ranks, %d snapshots per rank, %d repetitions: median %.2f ms per rank "
                            + "(min %.2f, max %.2f)",
                    ops, devices, snapshotsPerRank, repetitions, medianMsPerRank, minMsPerRank, maxMsPerRank);
        }
    }

    private LoweringBenchmark() {}

    /** Every rank's trace from one compilation, as the engine lowers (the fusion passes once for all ranks). */
    private static PassTrace traceAll(Fusion fusion, int devices, List<Integer> ranks) {
        Compilation compilation = Engine.compile(fusion, devices, LoweringOptions.DEFAULTS, ranks);
        return new PassTrace(devices, LoweringOptions.DEFAULTS, ranks.stream().map(compilation::trace).toList());
    }

    public static Result run(int ops, int devices, int warmups, int repetitions) {
        Fusion fusion = GeneratedFusions.streamedChain(Math.max(1, ops / 4), devices);
        List<Integer> ranks = java.util.stream.IntStream.range(0, devices).boxed().toList();
        for (int i = 0; i < warmups; i++) traceAll(fusion, devices, ranks);
        double[] perRank = new double[repetitions];
        int snapshots = 0;
        List<PassTrace> keep = new ArrayList<>(); // keep the traces alive: snapshots are what is measured
        for (int i = 0; i < repetitions; i++) {
            long t0 = System.nanoTime();
            PassTrace trace = traceAll(fusion, devices, ranks);
            perRank[i] = (System.nanoTime() - t0) / 1e6 / devices;
            snapshots = trace.rank(0).steps().size();
            keep.add(trace);
            if (keep.size() > 2) keep.remove(0);
        }
        Arrays.sort(perRank);
        return new Result(fusion.ops().size(), devices, repetitions, perRank[repetitions / 2], perRank[0],
                perRank[repetitions - 1], snapshots);
    }
}
