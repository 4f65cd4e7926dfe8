package org.hostir.studio.exec;

import java.util.Arrays;
import java.util.Locale;

/**
 * Which collectives the CUDA backend runs on each device's stream of greatest priority, forked from the calling
 * stream and joined back, and the simulator costs as such: inside a pipeline their kernels then take SMs as the
 * running GEMM's blocks finish instead of queueing behind the next chunk's whole GEMM. {@code -Dhirstudio.cuda.
 * collectivePriority=none|copy_engine|all}, default all: on 2 x H200 seed 001's Allreduce pipeline went from
 * 1.02-1.08 x to 0.83-0.85 x sequential on NCCL and from 0.87 x to 0.80-0.82 x on the copy engines
 * (docs/benchmarks.md, night of 2026-11-26).
 */
public enum CollectivePriority {
    NONE, COPY_ENGINE, ALL;

    public static final String PROPERTY = "hirstudio.cuda.collectivePriority";

    /** Whether a collective on the copy engines ({@code copyEngine}) or on NCCL runs at priority. */
    public boolean covers(boolean copyEngine) {
        return switch (this) {
            case NONE -> false;
            case COPY_ENGINE -> copyEngine;
            case ALL -> true;
        };
    }

    /** The setting of this JVM ({@link #PROPERTY}); a misspelt value is a one-line error naming the values. */
    public static CollectivePriority configured() { return of(System.getProperty(PROPERTY, "all")); }

    static CollectivePriority of(String value) {
        for (CollectivePriority p : values()) {
            if (p.name().equalsIgnoreCase(value)) return p;
        }
        throw new ExecutionException("-D" + PROPERTY + "=" + value + ": expected one of "
                + Arrays.stream(values()).map(p -> p.name().toLowerCase(Locale.ROOT)).toList());
    }
}
