package org.hostir.studio.rules;

import java.util.List;

import org.hostir.studio.ir.FusionOp;
import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.ReductionOpType;
import org.hostir.studio.ir.TensorView;

/**
 * The one Stream reduction axis nvFuser lowers: the sum of the Reduce-based matmul + ReduceScatter (#5923,
 * {@code RSMatmulTest.ReduceScatterReduceBased}, tests/cpp/test_multidevice_stream_parallel_type.cpp:708-790 at
 * 81c4b22fd): {@code C = sum(C_unreduced, 0)} from {@code [DIDx(D), Stream(D), ...]} to
 * {@code [Stream(r(D)), DIDx(D), ...]}, the reduced device axis Stream-parallel. #5923 dropped the seeds' check that
 * a Stream axis is an iteration or broadcast axis (validateStreamAxis, csrc/host_ir/pass/stream_parallel_type.cpp:
 * 57-63 at 43b9a1aa5, gone at 81c4b22fd:49-62) so that processForLoopBodies lowers this sum to a Reduce rooted at
 * the loop index (lines 470-506). Any other Stream reduction axis stays refused ({@code stream.reduction}).
 */
public final class StreamReduction {
    private StreamReduction() {}

    /** Whether {@code op} is that sum: did_to_stream and stream_to_did on a ReductionOp Add (lines 331-360). */
    public static boolean isReduceBasedReduceScatter(FusionOp op) {
        if (!(op instanceof FusionOp.Reduction r) || r.op() != ReductionOpType.SUM || !r.axes().equals(List.of(0))) {
            return false;
        }
        TensorView in = r.input();
        TensorView out = r.output();
        if (in.rank() < 2 || out.rank() < 2) return false;
        IterDomain reduced = in.axis(0);
        return reduced.isDeviceDim() && !reduced.isReduction() && in.axis(1).isStream()
                && out.axis(0).isStream() && out.axis(0).isReduction()
                && out.axis(1).isDeviceDim() && out.axis(1).parallelType() == reduced.parallelType();
    }
}
