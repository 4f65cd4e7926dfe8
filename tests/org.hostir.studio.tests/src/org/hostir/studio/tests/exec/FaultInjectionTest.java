package org.hostir.studio.tests.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.hostir.studio.exec.Validation;
import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.exec.tensor.Sharding;
import org.hostir.studio.ir.TensorView;
import org.junit.jupiter.api.Test;

/**
 * Faults are still caught under the error-bounded tolerance (docs/validation.md): each corrupts a correct CPU
 * run's outputs (or the inputs the reference sees, for faults that lose an input) and must FAIL validation,
 * while the uncorrupted run PASSes. K = 1024 and 4096 here; {@link #faultsAreCaughtAtK32768} is the large size,
 * a few seconds on two cores.
 */
class FaultInjectionTest {
    private static final int D = 2;

    @Test
    void faultsInAnAllgatherMatmulAreCaught() throws Exception {
        for (long k : new long[] {1024, 4096}) allgatherMatmulFaults(k, 16, 64);
    }

    @Test
    void faultsAreCaughtAtK32768() throws Exception {
        allgatherMatmulFaults(32768, 4, 32);
        reductionFaults("seeds/matmul_ar", 32768, 4, 16);
    }

    @Test
    void faultsInKShardedMatmulsWithReductionsAreCaught() throws Exception {
        reductionFaults("seeds/matmul_ar", 4096, 8, 32);
        reductionFaults("seeds/matmul_rs_through_bcast", 4096, 8, 32);
    }

    /**
     * ag_matmul: A [S, DIDx D, M, K] gathered per stream iteration, times B [K, N]; the output is replicated.
     * Every fault but a single perturbed element is also caught by sampled validation (a sample of a few hundred
     * elements, no full-check budget): the faults corrupt whole chunks, rows or buffers, which the sample's
     * strata and lines always hit.
     */
    private static void allgatherMatmulFaults(long k, long m, long n) throws Exception {
        Faults full = Faults.run("seeds/ag_matmul", D, Map.of("S", 2L, "M", m, "K", k, "N", n), 7);
        for (Faults run : List.of(full, full.sampled())) allgatherMatmulChunkFaults(run, k, m, n);
        perturbations(full, " (K=" + k + ")");
    }

    private static void allgatherMatmulChunkFaults(Faults run, long k, long m, long n) throws Exception {
        assertPasses(run.validate(run.outputs()), "the correct run, K=" + k);
        sampledWhenAsked(run);
        assertArrayEquals(new long[] {2, D, m, n}, Faults.out(run.outputs(), 0).shape());
        String at = " (K=" + k + (run.bySampling() ? ", sampled" : "") + ")";
        fails(run, "dropped stream chunk" + at, outs -> Faults.out(outs, 0).select(0, 1).fill(0));
        fails(run, "dropped stream chunk on the second replica" + at, outs -> Faults.out(outs, 1).select(0, 0).fill(0));
        fails(run, "slice one row off" + at, outs -> oneRowOff(Faults.out(outs, 0), m * D));
        fails(run, "zeroed output buffer" + at, outs -> Faults.out(outs, 0).fill(0));
        fails(run, "wrong peer" + at, outs -> {
            DenseTensor chunk = Faults.out(outs, 0).select(0, 1);
            chunk.select(0, 1).copyFrom(chunk.select(0, 0));
        });
        Map<Integer, Map<Integer, DenseTensor>> stale = Faults.runOnly(run.loaded(), D, 8).outputs();
        fails(run, "stale output buffer (another run's)" + at, outs -> Faults.out(outs, 0).copyFrom(Faults.out(stale, 0)));
        fails(run, "one stale stream chunk" + at,
                outs -> Faults.out(outs, 0).select(0, 1).copyFrom(Faults.out(stale, 0).select(0, 1)));
        // the allgather delivered rank 1's shard of A where rank 0's belongs, and the other way round
        TensorView a = run.fusion().inputs().get(0);
        Map<Integer, DenseTensor> swapped = run.inputsCopy();
        DenseTensor original = run.inputs().get(a.id());
        swapped.get(a.id()).narrow(1, 0, 1).copyFrom(original.narrow(1, 1, 1));
        swapped.get(a.id()).narrow(1, 1, 1).copyFrom(original.narrow(1, 0, 1));
        assertFails(run.validateAgainst(swapped), "two ranks' shards of A swapped" + at);
    }

    /** One element at a time, by 1e-3 of its bound: a few spread over the output, on either replica. */
    private static void perturbations(Faults run, String at) {
        TensorView out = run.fusion().outputs().getFirst();
        DenseTensor magnitude = run.reference().magnitude(out);
        long numel = magnitude.numel();
        for (long flat : new long[] {0, numel / 3, numel - 1}) {
            for (int rank = 0; rank < D; rank++) {
                int r = rank;
                fails(run, "element " + flat + " on rank " + r + " perturbed by 1e-3 of its bound" + at, outs -> {
                    DenseTensor t = Faults.out(outs, r).reshape(numel);
                    float bound = magnitude.reshape(numel).get(flat);
                    t.set((float) (t.get(flat) + 1e-3 * bound), flat);
                });
            }
        }
    }

    /**
     * A K-sharded matmul whose partial products a collective sums (Allreduce for matmul_ar, ReduceScatter for
     * matmul_rs_through_bcast): a dropped partial, a perturbed element and, for a sharded output, swapped shards.
     */
    private static void reductionFaults(String example, long k, long m, long n) throws Exception {
        Faults full = Faults.run(example, D, Map.of("S", 2L, "M", m, "K", k, "N", n), 5);
        for (Faults run : List.of(full, full.sampled())) reductionChunkFaults(run, example, k);
        perturbation(full, " (" + example + ", K=" + k + ")");
    }

    private static void reductionChunkFaults(Faults run, String example, long k) {
        String at = " (" + example + ", K=" + k + (run.bySampling() ? ", sampled" : "") + ")";
        sampledWhenAsked(run);
        assertPasses(run.validate(run.outputs()), "the correct run" + at);
        TensorView a = run.fusion().inputs().get(0);
        Map<Integer, DenseTensor> dropped = run.inputsCopy();
        dropped.get(a.id()).narrow(0, 1, 1).fill(0); // rank 1's K-shard: its partial product is missing
        assertFails(run.validateAgainst(dropped), "rank 1's partial product dropped" + at);
        TensorView out = run.fusion().outputs().getFirst();
        boolean sharded = Sharding.deviceAxis(out) >= 0;
        if (sharded) {
            fails(run, "two ranks' output shards swapped" + at, outs -> {
                DenseTensor zero = Faults.out(outs, 0).copy();
                Faults.out(outs, 0).copyFrom(Faults.out(outs, 1));
                Faults.out(outs, 1).copyFrom(zero);
            });
        }
        fails(run, "stream chunk dropped" + at, outs -> Faults.out(outs, 0).select(0, 1).fill(0));
    }

    /** One element of rank 0's output moved by 1e-3 of its bound (only a full check can promise to see it). */
    private static void perturbation(Faults run, String at) {
        TensorView out = run.fusion().outputs().getFirst();
        boolean sharded = Sharding.deviceAxis(out) >= 0;
        DenseTensor magnitude = sharded ? Sharding.shard(out, run.reference().magnitude(out), 0).orElseThrow()
                : run.reference().magnitude(out);
        long numel = magnitude.numel();
        fails(run, "one element perturbed by 1e-3 of its bound" + at, outs -> {
            DenseTensor t = Faults.out(outs, 0).reshape(numel);
            long flat = numel / 2;
            t.set((float) (t.get(flat) + 1e-3 * magnitude.reshape(numel).get(flat)), flat);
        });
    }

    /** Every row of the first {@code rows} (the first stream chunk) takes the next row's values. */
    private static void oneRowOff(DenseTensor t, long rows) {
        long n = t.size(t.rank() - 1);
        DenseTensor flat = t.reshape(t.numel() / n, n);
        flat.narrow(0, 0, rows).copyFrom(flat.narrow(0, 1, rows).copy());
    }

    private static void fails(Faults run, String fault, Consumer<Map<Integer, Map<Integer, DenseTensor>>> inject) {
        Map<Integer, Map<Integer, DenseTensor>> outs = run.copy();
        inject.accept(outs);
        assertFails(run.validate(outs), fault);
    }

    /** A sampled validation checked a sample, not every element. */
    private static void sampledWhenAsked(Faults run) {
        String line = run.validate(run.outputs()).line();
        assertTrue(line.contains(": sampled ") == run.bySampling(), line);
        if (run.bySampling()) System.out.println(line);
    }

    private static void assertFails(Validation v, String fault) {
        assertFalse(v.passed(), fault + " went unnoticed: " + v.line());
        assertTrue(v.line().startsWith("validation: FAIL "), v.line());
    }

    private static void assertPasses(Validation v, String what) {
        assertTrue(v.passed(), what + ": " + v.line());
        assertTrue(v.line().startsWith("validation: PASS max_abs_err="), v.line());
    }

}
