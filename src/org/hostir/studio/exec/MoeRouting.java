package org.hostir.studio.exec;

import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

import org.hostir.studio.exec.tensor.DenseTensor;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.MoeCombine;
import org.hostir.studio.ir.host.MoeDispatch;

/**
 * The host-side parts of nvFuser's dispatch and combine (csrc/multidevice/dispatch_combine.cpp at 81c4b22fd): its
 * checks (NVF_CHECKs at 142-165 and 304-315, MoeDispatch::validate and MoeCombine::validate at
 * communication.cpp:310-334 and 375-389), the sort by expert, row gathers and the final index_copy. Every refusal is
 * one line naming the node and the tensor.
 */
final class MoeRouting {
    private MoeRouting() {}

    /** {@code num_experts % world_size == 0} (dispatch_combine.cpp:153). */
    static long expertsPerRank(String name, long numExperts, int world) {
        if (numExperts <= 0 || numExperts % world != 0) {
            throw new ExecutionException(name + ": num_experts=" + numExperts + " must be a positive multiple of the"
                    + " " + world + " ranks (dispatch_combine.cpp:153)");
        }
        return numExperts / world;
    }

    /** x is [T, H], topk_idx and topk_weights [T, 1] (top-1 only), dtypes as MoeDispatch::validate; returns T. */
    static long checkInputs(String name, MoeDispatch d, DenseTensor x, DenseTensor idx, DenseTensor w) {
        MoeDispatch.Routing r = d.routing().orElseThrow();
        if (x.rank() != 2) throw failure(name, d.in(), "expects x to be 2D [T, H], got " + x.rank() + "D"
                + " (dispatch_combine.cpp:148)");
        long t = x.size(0);
        if (idx.rank() != 2 || idx.size(0) != t || idx.size(1) != 1) throw failure(name, d.topkIdx(),
                "only topk=1 is supported: topk_idx must be [" + t + ", 1] (dispatch_combine.cpp:156-160)");
        if (w.rank() != 2 || w.size(0) != t || w.size(1) != 1) throw failure(name, d.topkWeights(),
                "only topk=1 is supported: topk_weights must be [" + t + ", 1] (dispatch_combine.cpp:161-165)");
        if (!d.topkIdx().dtype().isIntegral() || !idx.dtype().isIntegral()) throw failure(name, d.topkIdx(),
                "topk_idx must be integral (communication.cpp:314-315)");
        if (!d.topkWeights().dtype().isFloatingPoint() || !w.dtype().isFloatingPoint()) throw failure(name,
                d.topkWeights(), "topk_weights must be floating point (communication.cpp:316-318)");
        sameDtype(name, d.in(), d.out());
        sameDtype(name, d.topkIdx(), r.outTopkIdx());
        sameDtype(name, d.topkWeights(), r.outTopkWeights());
        for (TensorView tv : List.of(r.outSrcIdx(), r.tokensToRank(), r.tokensFromRank())) {
            if (!tv.dtype().isIntegral()) throw failure(name, tv, "must be integral (communication.cpp:325-333)");
        }
        return t;
    }

    /** An expert id in range; nvFuser leaves an out-of-range id undefined, the Studio refuses it. */
    static long expert(String name, TensorView idx, long e, long numExperts) {
        if (e < 0 || e >= numExperts) throw failure(name, idx, "expert id " + e + " outside [0, " + numExperts
                + ")");
        return e;
    }

    static void checkCombine(String name, MoeCombine c, int world, DenseTensor x, DenseTensor src, long[] toRank,
                             long[] fromRank) {
        if (x.rank() != 2) throw failure(name, c.in(), "expects x to be 2D (dispatch_combine.cpp:304)");
        if (src.rank() != 1 || src.size(0) != x.size(0)) throw failure(name, c.srcIdx(), "src_idx must be 1D with"
                + " x's " + x.size(0) + " rows (dispatch_combine.cpp:305-307)");
        MoeCombine.Counts k = c.counts().orElseThrow();
        if (toRank.length != world) throw failure(name, k.tokensToRank(), "n_tokens_to_rank must have the world"
                + " size " + world + " (dispatch_combine.cpp:308-311)");
        if (fromRank.length != world) throw failure(name, k.tokensFromRank(), "n_tokens_from_rank must have the"
                + " world size " + world + " (dispatch_combine.cpp:312-315)");
        long sum = 0;
        for (long n : fromRank) sum += n;
        if (sum != x.size(0)) throw failure(name, k.tokensFromRank(), "n_tokens_from_rank sums to " + sum
                + ", x has " + x.size(0) + " rows");
        sameDtype(name, c.in(), c.out());
    }

    /** The indices that sort {@code keys}, ties kept in order. */
    static long[] stableArgsort(long[] keys) {
        return IntStream.range(0, keys.length).boxed().sorted(Comparator.comparingLong(i -> keys[i]))
                .mapToLong(Integer::longValue).toArray();
    }

    /** {@code t.index_select(0, rows)}, contiguous. */
    static DenseTensor rows(DenseTensor t, long[] rows) {
        long[] shape = t.shape();
        shape[0] = rows.length;
        DenseTensor out = DenseTensor.zeros(shape, t.dtype());
        for (int i = 0; i < rows.length; i++) out.narrow(0, i, 1).copyFrom(t.narrow(0, rows[i], 1));
        return out;
    }

    /** {@code out.index_copy_(0, src, x)} into zeros (dispatch_combine.cpp:346-347); each row written once. */
    static DenseTensor indexCopy(String name, TensorView out, DenseTensor x, DenseTensor src) {
        DenseTensor combined = DenseTensor.zeros(x.shape(), x.dtype());
        boolean[] written = new boolean[(int) x.size(0)];
        for (int i = 0; i < x.size(0); i++) {
            long row = src.getLong(i);
            if (row < 0 || row >= x.size(0) || written[(int) row]) throw failure(name, out, "src_idx " + row
                    + (row < 0 || row >= x.size(0) ? " outside [0, " + x.size(0) + ")" : " received twice"));
            written[(int) row] = true;
            combined.narrow(0, row, 1).copyFrom(x.narrow(0, i, 1));
        }
        return combined;
    }

    private static void sameDtype(String name, TensorView in, TensorView out) {
        if (in.dtype() != out.dtype()) throw failure(name, out, "is " + out.dtype().fileName() + ", its input "
                + in.name() + " " + in.dtype().fileName());
    }

    private static ExecutionException failure(String name, TensorView tv, String what) {
        return new ExecutionException(name + ": " + tv.name() + " " + what, List.of(tv.subject()));
    }
}
