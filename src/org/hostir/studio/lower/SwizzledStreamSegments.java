package org.hostir.studio.lower;

import java.util.List;
import java.util.Optional;

import org.hostir.studio.diag.Texts;
import org.hostir.studio.ir.IterTransform;
import org.hostir.studio.ir.LoopDomain;
import org.hostir.studio.ir.TensorView;
import org.hostir.studio.ir.host.Communication;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostOp;
import org.hostir.studio.ir.host.PostOnStream;

/**
 * Which segments nvFuser 2026-04's host_ir_lowering path computes right where a Stream axis is swizzled
 * (Swizzle1D), and the refusal of the rest. nvFuser uses a Swizzle1D only in one form, the one its test runs
 * (tests/python/multidevice/test_overlap.py test_column_parallel_linear_forward[collective_permute]): a set from a
 * DIDx-sharded tensor into one whose Stream axis swizzles that axis, lowered to a CollectivePermute per iteration
 * (getCommunicationInfoForParallelType, lower_to_communication.cpp:441-457; lowerToCollectivePermute, lines
 * 348-381), then ops in the same loop whose outputs swizzle their Stream axis alike and read the permuted chunk or
 * chunks of unswizzled tensors that ShardByStream takes at the swizzled index (shardLoopLike carries the output's
 * Swizzle1D to the chunk, csrc/host_ir/ops.cpp:37-69; HostIrEvaluator::handle(ShardByStream*),
 * csrc/host_ir/evaluator.cpp:958-972). Anything else pairs a swizzled chunk with an unswizzled one (nvFuser's
 * haveDifferentShardings maps a Swizzle1D's output to another index, csrc/multidevice/resharding.cpp:104-115, so such
 * an op is a resharding its lowering has no communication for) or sends a swizzled chunk through a collective
 * nvFuser has no form of; admitting them gave 22 of the 27 wrong answers and 17 of the 36 run failures of
 * LoweredImpliesCorrectTest under 2026-04 with host_ir_lowering (issue 33).
 */
final class SwizzledStreamSegments {
    static final String RULE = "stream.swizzle-2026";

    private SwizzledStreamSegments() {}

    /** A fusion input whose Stream axis is swizzled: the inputs arrive whole and nvFuser never swizzles one. */
    static void checkInputs(List<TensorView> inputs) {
        for (TensorView in : inputs) {
            if (swizzle(in).isPresent()) throw refusal(in, "fusion input " + Texts.quote(in.label()) + " has one");
        }
    }

    /** The segment, refused unless it is one of the forms above; {@code inLoop}: a Stream loop is open. */
    static void check(List<HostNode> segment, StreamAllocation allocation, boolean inLoop) {
        for (HostNode n : segment) {
            switch (n) {
                case Communication c -> checkCommunication(c, allocation, inLoop);
                case HostOp op -> checkOp(op.op().output(), op.op().inputs(), allocation, inLoop);
                case PostOnStream post -> {
                    for (TensorView t : post.inputs()) if (swizzle(t).isPresent()) throw refusal(t, "a kernel reads "
                            + Texts.quote(t.label()));
                    for (TensorView t : post.outputs()) if (swizzle(t).isPresent()) throw refusal(t, "a kernel writes " + Texts.quote(t.label()));
                }
                default -> { }
            }
        }
    }

    private static void checkCommunication(Communication c, StreamAllocation allocation, boolean inLoop) {
        if (swizzle(c.input()).isPresent()) {
            throw refusal(c.input(), "a communication sends " + Texts.quote(c.input().label()) + "'s swizzled chunks");
        }
        TensorView out = c.output();
        if (swizzle(out).isEmpty()) return;
        boolean permute = inLoop && allocation.deviceShardedAlong(c.input(), out) && !hasDeviceAxis(out);
        if (!permute) {
            throw refusal(out, "a communication writes " + Texts.quote(out.label())
                    + " that is not a DID-to-Stream set into"
                    + " it (its input sharded on devices along the swizzled axis, no other device axis on it)");
        }
    }

    private static void checkOp(TensorView out, List<TensorView> inputs, StreamAllocation allocation, boolean inLoop) {
        Optional<IterTransform.Swizzle1D> z = swizzle(out);
        for (TensorView in : inputs) {
            Optional<IterTransform.Swizzle1D> y = swizzle(in);
            if (z.isEmpty()) {
                if (y.isPresent()) throw refusal(in, Texts.quote(in.label()) + " has one and is read by "
                        + Texts.quote(out.label())
                        + ", which does not");
                continue;
            }
            if (!inLoop) throw refusal(out, Texts.quote(out.label())
                    + " has one and is computed outside a Stream loop");
            if (y.isPresent()) {
                if (!allocation.streamSharded(in) || y.get().parallelType() != z.get().parallelType()
                        || !allocation.sameLoop(in, out) || !in.mesh().equals(out.mesh())) {
                    throw refusal(in, Texts.quote(in.label()) + " has one and is read by " + Texts.quote(out.label())
                            + " but is not the"
                            + " swizzled chunk of its loop");
                }
            } else if (allocation.streamSharded(in) || allocation.deviceShardedAlong(in, out)
                    || !in.mesh().equals(out.mesh())) {
                throw refusal(in, Texts.quote(out.label()) + " has one and reads " + Texts.quote(in.label())
                        + ", whose chunks are not"
                        + " swizzled alike or sharded on devices along it");
            }
        }
    }

    private static boolean hasDeviceAxis(TensorView tv) {
        return tv.loopDomain().loop().stream().anyMatch(LoopDomain.Axis::isDeviceDim);
    }

    private static Optional<IterTransform.Swizzle1D> swizzle(TensorView tv) { return SwizzledStream.of(tv); }

    private static LoweringException refusal(TensorView tv, String what) {
        return new LoweringException(List.of(new LoweringError(tv.label(), RULE, "a swizzled Stream axis"
                + " (swizzle1d): " + what + "; nvFuser 2026-04's host_ir_lowering computes a swizzled"
                + " Stream axis only in test_overlap.py's CollectivePermute form (a DID-to-Stream set, then ops"
                + " swizzled alike in its loop); lower it with --nvfuser 2025-06 or --option hostIrLowering=false",
                tv.subject())));
    }
}
