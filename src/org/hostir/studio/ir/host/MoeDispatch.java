package org.hostir.studio.ir.host;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

import org.hostir.studio.ir.TensorView;

/**
 * nvFuser's {@code MoeDispatch} (#5857; csrc/multidevice/communication.h:241-318 at 81c4b22fd), the
 * mixture-of-experts token dispatch: each token of {@code in} [T, H] goes to the rank holding its expert
 * ({@code topkIdx} [T, 1]; experts placed contiguously by rank, {@code num_experts} divisible by the world size;
 * top-1 only, dispatch_combine.cpp:153-165). Printed
 * {@code Dispatch 12 (num_experts=4, backend=NCCL, in=.., topk_idx=.., topk_weights=.., out=..)}
 * (communication.cpp:294-304); the other outputs are not printed, so a dispatch read from a dump has no
 * {@link #routing} and cannot run ({@link NotExecutable}); one built in memory (a lowering, a test) has them.
 */
public record MoeDispatch(int id, long numExperts, CommunicatorBackend backend, TensorView in, TensorView topkIdx,
                          TensorView topkWeights, TensorView out, Optional<Routing> routing) implements HostNode {

    /**
     * Outputs 1-5 of nvFuser's MoeDispatch (communication.h:275-293), receive-aligned like {@code out}:
     * {@code recv_topk_idx} [T_recv, 1], {@code recv_topk_weights} [T_recv, 1], {@code recv_src_idx} [T_recv] (each
     * received token's row on its sender, for the combine), {@code n_tokens_to_rank} and
     * {@code n_tokens_from_rank} [R].
     */
    public record Routing(TensorView outTopkIdx, TensorView outTopkWeights, TensorView outSrcIdx,
                          TensorView tokensToRank, TensorView tokensFromRank) {
        public Routing {
            Objects.requireNonNull(outTopkIdx, "outTopkIdx");
            Objects.requireNonNull(outTopkWeights, "outTopkWeights");
            Objects.requireNonNull(outSrcIdx, "outSrcIdx");
            Objects.requireNonNull(tokensToRank, "tokensToRank");
            Objects.requireNonNull(tokensFromRank, "tokensFromRank");
        }

        public List<TensorView> tensors() {
            return List.of(outTopkIdx, outTopkWeights, outSrcIdx, tokensToRank, tokensFromRank);
        }
    }

    public MoeDispatch {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(topkIdx, "topkIdx");
        Objects.requireNonNull(topkWeights, "topkWeights");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(routing, "routing");
    }

    /** As read from a dump: the printed tensors only. */
    public MoeDispatch(int id, long numExperts, CommunicatorBackend backend, TensorView in, TensorView topkIdx,
                       TensorView topkWeights, TensorView out) {
        this(id, numExperts, backend, in, topkIdx, topkWeights, out, Optional.empty());
    }

    /** Every output, in nvFuser's order (communication.h:272-293). */
    public List<TensorView> outputs() {
        return routing.map(r -> Stream.concat(Stream.of(out), r.tensors().stream()).toList()).orElse(List.of(out));
    }

    /** Its inputs, then its outputs. */
    public List<TensorView> tensors() {
        return Stream.concat(Stream.of(in, topkIdx, topkWeights), outputs().stream()).toList();
    }

    public MoeDispatch withId(int newId) {
        return new MoeDispatch(newId, numExperts, backend, in, topkIdx, topkWeights, out, routing);
    }
}
