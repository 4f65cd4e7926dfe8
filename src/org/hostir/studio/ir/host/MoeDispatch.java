package org.hostir.studio.ir.host;

import java.util.Objects;

import org.hostir.studio.ir.TensorView;

/**
 * nvFuser's {@code MoeDispatch} (#5857; csrc/multidevice/communication.h:241), the mixture-of-experts token
 * dispatch: each token of {@code in} goes to the rank holding its expert ({@code topkIdx}). Printed
 * {@code Dispatch 12 (num_experts=4, backend=NCCL, in=.., topk_idx=.., topk_weights=.., out=..)}
 * (csrc/multidevice/communication.cpp MoeDispatch::toInlineString); its other outputs (source indices, token
 * counts) are not printed, so not kept. Read and printed, not run ({@link NotExecutable}).
 */
public record MoeDispatch(int id, long numExperts, CommunicatorBackend backend, TensorView in, TensorView topkIdx,
                          TensorView topkWeights, TensorView out) implements HostNode {
    public MoeDispatch {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(topkIdx, "topkIdx");
        Objects.requireNonNull(topkWeights, "topkWeights");
        Objects.requireNonNull(out, "out");
    }
}
