package org.hostir.studio.ir.host;

import java.util.Objects;

import org.hostir.studio.ir.TensorView;

/**
 * nvFuser's {@code MoeCombine} (#5857; csrc/multidevice/communication.h:327), the inverse of {@link MoeDispatch}:
 * expert outputs sent back to their tokens' ranks and weighted. Printed
 * {@code Combine 13 (backend=NCCL, in=.., topk_weights=.., src_idx=.., out=..)}; its token-count inputs are not
 * printed, so not kept. Read and printed, not run ({@link NotExecutable}).
 */
public record MoeCombine(int id, CommunicatorBackend backend, TensorView in, TensorView topkWeights,
                         TensorView srcIdx, TensorView out) implements HostNode {
    public MoeCombine {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(topkWeights, "topkWeights");
        Objects.requireNonNull(srcIdx, "srcIdx");
        Objects.requireNonNull(out, "out");
    }
}
