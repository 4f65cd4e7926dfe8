package org.hostir.studio.ir.host;

import java.util.Objects;

import org.hostir.studio.ir.Scalar;
import org.hostir.studio.ir.TensorView;

/**
 * nvFuser's {@code hir::ShardByStream} (csrc/host_ir/ir.h:487, printed by csrc/host_ir/ir.cpp:442): {@code out} is
 * the chunk {@code streamIndex} of {@code in} along the logical axis that {@code out}'s Stream loop axis was split
 * from, a view, never a copy (HostIrEvaluator::handle(ShardByStream*): {@code in.chunk(d, axis).at(index)}).
 * Printed {@code T5 = ShardByStream(T2, stream_index=i535)}.
 */
public record ShardByStream(int id, TensorView out, TensorView in, Scalar streamIndex) implements HostNode {
    public ShardByStream {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(streamIndex, "streamIndex");
    }
}
