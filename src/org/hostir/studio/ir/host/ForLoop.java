package org.hostir.studio.ir.host;

import java.util.List;
import java.util.Objects;

import org.hostir.studio.ir.IterDomain;
import org.hostir.studio.ir.NamedScalar;
import org.hostir.studio.ir.Scalar;

/** {@code FOR index in iterDomain:} from start to stop (the iter domain's extent unless given otherwise). */
public record ForLoop(int id, NamedScalar index, IterDomain iterDomain, Scalar start, Scalar stop,
                      List<HostNode> body) implements HostNode {
    public ForLoop {
        Objects.requireNonNull(index);
        Objects.requireNonNull(iterDomain);
        Objects.requireNonNull(start);
        Objects.requireNonNull(stop);
        body = List.copyOf(body);
    }

    /** A loop over the whole iter domain with index {@code StreamIdx}. */
    public static ForLoop overStreams(int id, IterDomain iterDomain, List<HostNode> body) {
        return new ForLoop(id, NamedScalar.STREAM_IDX, iterDomain, Scalar.constant(0), iterDomain.extent(), body);
    }

    public ForLoop withBody(List<HostNode> newBody) {
        return new ForLoop(id, index, iterDomain, start, stop, newBody);
    }

    @Override
    public List<List<HostNode>> bodies() { return List.of(body); }
}
