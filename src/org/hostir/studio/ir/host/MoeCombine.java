package org.hostir.studio.ir.host;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;

/**
 * nvFuser's {@code MoeCombine} (#5857; csrc/multidevice/communication.h:320-396 at 81c4b22fd), the inverse of
 * {@link MoeDispatch}: each received (and processed) token goes back to its source rank and lands at its row
 * {@code src_idx} there (dispatch_combine.cpp:326-350: {@code combined_x.index_copy_(0, recv_src_idx, recv_x)}).
 * nvFuser does not weight here: {@code topk_weights} is an input it ignores (dispatch_combine.cpp:349, 397).
 * Printed {@code Combine 13 (backend=NCCL, in=.., topk_weights=.., src_idx=.., out=..)} (communication.cpp:360-369);
 * its token-count inputs and {@code num_tokens} are not printed, so a combine read from a dump has no
 * {@link #counts} and cannot run ({@link NotExecutable}).
 */
public record MoeCombine(int id, CommunicatorBackend backend, TensorView in, TensorView topkWeights,
                         TensorView srcIdx, TensorView out, Optional<Counts> counts) implements HostNode {

    /**
     * Inputs 3-5 of nvFuser's MoeCombine (communication.h:352-369): the dispatch's {@code n_tokens_to_rank},
     * {@code n_tokens_from_rank} [R], and {@code num_tokens}, the dispatch input's first extent T.
     */
    public record Counts(TensorView tokensToRank, TensorView tokensFromRank, Scalar numTokens) {
        public Counts {
            Objects.requireNonNull(tokensToRank, "tokensToRank");
            Objects.requireNonNull(tokensFromRank, "tokensFromRank");
            Objects.requireNonNull(numTokens, "numTokens");
        }
    }

    public MoeCombine {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(topkWeights, "topkWeights");
        Objects.requireNonNull(srcIdx, "srcIdx");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(counts, "counts");
    }

    /** As read from a dump: the printed tensors only. */
    public MoeCombine(int id, CommunicatorBackend backend, TensorView in, TensorView topkWeights, TensorView srcIdx,
                      TensorView out) {
        this(id, backend, in, topkWeights, srcIdx, out, Optional.empty());
    }

    /** Every tensor input, in nvFuser's order (communication.h:340-369). */
    public List<TensorView> inputs() {
        return counts.map(c -> List.of(in, topkWeights, srcIdx, c.tokensToRank(), c.tokensFromRank()))
                .orElse(List.of(in, topkWeights, srcIdx));
    }

    /** Its inputs, then its output. */
    public List<TensorView> tensors() {
        List<TensorView> all = new java.util.ArrayList<>(inputs());
        all.add(out);
        return List.copyOf(all);
    }

    public MoeCombine withId(int newId) {
        return new MoeCombine(newId, backend, in, topkWeights, srcIdx, out, counts);
    }
}
