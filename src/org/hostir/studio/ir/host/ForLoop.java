package org.hostir.studio.ir.host;

import java.util.List;
import java.util.Objects;

import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.Scalar;

/**
 * A host loop from start to stop. Two nvFuser nodes: {@code kir::ForLoop} over an iter domain, printed
 * {@code FOR StreamIdx in iStreamIdx2{i0}:} (csrc/kernel_ir.cpp:146), and {@code hir::ForLoop} (#5157), which has
 * no iter domain ({@code iterDomain} null) and prints {@code FOR i535 from 0 to 3:} (csrc/host_ir/ir.cpp:487).
 */
public record ForLoop(int id, NamedScalar index, IterDomain iterDomain, Scalar start, Scalar stop,
                      List<HostNode> body) implements HostNode {
    public ForLoop {
        Objects.requireNonNull(index);
        Objects.requireNonNull(start);
        Objects.requireNonNull(stop);
        body = List.copyOf(body);
    }

    /** A loop over the whole iter domain with index {@code StreamIdx}. */
    public static ForLoop overStreams(int id, IterDomain iterDomain, List<HostNode> body) {
        Objects.requireNonNull(iterDomain);
        return new ForLoop(id, NamedScalar.STREAM_IDX, iterDomain, Scalar.constant(0), iterDomain.extent(), body);
    }

    /** nvFuser's {@code hir::ForLoop}: an index from start to stop, with no iter domain. */
    public static ForLoop range(int id, NamedScalar index, Scalar start, Scalar stop, List<HostNode> body) {
        return new ForLoop(id, index, null, start, stop, body);
    }

    /** Whether this is a {@code hir::ForLoop} ({@code FOR i from a to b:}) rather than a loop over an iter domain. */
    public boolean isRange() { return iterDomain == null; }

    public ForLoop withBody(List<HostNode> newBody) {
        return new ForLoop(id, index, iterDomain, start, stop, newBody);
    }

    @Override
    public List<List<HostNode>> bodies() { return List.of(body); }
}
